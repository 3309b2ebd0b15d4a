package calc

import "testing"

func TestNeg(t *testing.T) {
	if Add(-1, 1) != 0 {
		t.Fatal("wrong")
	}
}
