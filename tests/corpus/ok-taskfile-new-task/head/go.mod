module calc

go 1.21
