package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("wrong")
	}
}

func TestNeg(t *testing.T) {
	if Add(-1, 1) != 0 {
		t.Fatal("wrong")
	}
}
