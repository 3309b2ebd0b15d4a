package calc

const hint = "//nolint is banned"

func Add(a, b int) int { return a + b }
