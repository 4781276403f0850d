package retrieve

import "github.com/lore-memory/lore"

// Validate reports settings the pipeline cannot run as written, with
// EINVALID naming the first: an unknown fusion or normalisation mode (never
// a silent fallback to the default), a negative pool, hop count or weight.
// The zero Config is valid: every signal off, weighted fusion with min-max
// scaling, and a search returns nothing, without error.
func (c Config) Validate() error {
	switch c.Fusion {
	case "", FusionWeighted, FusionRRF:
	default:
		return lore.Errorf(lore.EINVALID, "fusion must be %q or %q, got %q", FusionWeighted, FusionRRF, c.Fusion)
	}
	for _, n := range []struct{ name, v string }{{"normalize", c.Normalize}, {"dense_normalize", c.DenseNormalize}} {
		switch n.v {
		case "", NormalizeMinMax, NormalizeMax:
		default:
			return lore.Errorf(lore.EINVALID, "%s must be %q or %q, got %q", n.name, NormalizeMinMax, NormalizeMax, n.v)
		}
	}
	if c.MaxHops < 0 || c.MaxHops > 2 {
		return lore.Errorf(lore.EINVALID, "max_hops must be 0, 1 or 2, got %d", c.MaxHops)
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"text_pool", c.TextPool}, {"vector_pool", c.VectorPool}, {"graph_pool", c.GraphPool}} {
		if n.v < 0 {
			return lore.Errorf(lore.EINVALID, "%s must not be negative, got %d", n.name, n.v)
		}
	}
	if c.RRFK < 0 {
		return lore.Errorf(lore.EINVALID, "rrf_k must not be negative, got %g", c.RRFK)
	}
	w := c.Weights
	for _, n := range []struct {
		name string
		v    float64
	}{{"bm25", w.BM25}, {"dense", w.Dense}, {"graph", w.Graph}, {"relation", w.Relation}, {"temporal", w.Temporal}, {"expansion", w.Expansion}} {
		if n.v < 0 {
			return lore.Errorf(lore.EINVALID, "weights.%s must not be negative, got %g", n.name, n.v)
		}
	}
	return nil
}
