package retrieve

// diversify keeps the first k results in order, skipping any whose content
// words are near-identical (Jaccard similarity of stems at or above
// threshold) to a result already kept, so the top is not one memory stated
// five times. A threshold of 0 or above 1 turns it off. This is the seam for
// MMR: it sees the ordered results and chooses the top k.
func diversify(results []Result, k int, threshold float64) []Result {
	if len(results) <= 1 || threshold <= 0 || threshold > 1 {
		return results[:min(len(results), k)]
	}
	out := make([]Result, 0, min(len(results), k))
	var kept []map[string]bool
	for _, r := range results {
		if len(out) == k {
			break
		}
		set := stemSet(r.Memory)
		dup := false
		for _, other := range kept {
			if jaccard(set, other) >= threshold {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		kept = append(kept, set)
		out = append(out, r)
	}
	return out
}

// jaccard is |a ∩ b| / |a ∪ b|; two empty sets are not alike.
func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}
