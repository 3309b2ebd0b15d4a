module calc

go 1.22
