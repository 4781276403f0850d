package lore

import "math"

// Cosine returns the cosine similarity of a and b; 0 when either is zero or
// their lengths differ. Embedders return unit vectors, but dividing by the
// norms keeps test doubles and stored vectors of another scale honest.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
