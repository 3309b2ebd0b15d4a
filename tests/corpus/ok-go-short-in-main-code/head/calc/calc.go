package calc

import "testing"

func Add(a, b int) int { return a + b }

var quick = testing.Short
