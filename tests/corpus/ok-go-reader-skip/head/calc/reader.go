package calc

func read(r *Reader) {
	r.Skip(4)
}
