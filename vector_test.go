package lore

import (
	"math"
	"testing"
)

func TestCosine(t *testing.T) {
	tests := []struct {
		name string
		a, b []float32
		want float64
	}{
		{"same direction, any scale", []float32{1, 2}, []float32{2, 4}, 1},
		{"orthogonal", []float32{1, 0}, []float32{0, 3}, 0},
		{"opposite", []float32{1, 1}, []float32{-1, -1}, -1},
		{"zero vector", []float32{0, 0}, []float32{1, 0}, 0},
		{"lengths differ", []float32{1}, []float32{1, 0}, 0},
	}
	for _, tt := range tests {
		if got := Cosine(tt.a, tt.b); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: Cosine = %v, want %v", tt.name, got, tt.want)
		}
	}
}
