package retrieve

import "github.com/lore-memory/lore"

// A long episode is indexed as passages (lore.Passages), and a short list
// besides its whole as its items, each under the id
// lore.PassageID(episode, n). foldPassages maps such hits back to their
// episode, so that the rest of the pipeline sees episodes only, and
// pointIntoEpisode shows the passage that matched in the episode's result.

// foldPassages replaces passage ids in every signal by their episode's id,
// each signal keeping the episode's best passage score. It returns, for
// each such episode, the passage that matched: the best of the first
// signal that found one (BM25 before dense, as signals are gathered).
func foldPassages(c *candidateSet) map[string]int {
	type hit struct {
		n     int
		score float64
	}
	var best map[string]int
	for _, s := range c.signals {
		top := map[string]hit{}
		for id, score := range s.Scores {
			if c.kind[id] != lore.KindEpisode {
				continue
			}
			ep, n, ok := lore.ParsePassageID(id)
			if !ok {
				continue
			}
			delete(s.Scores, id)
			if h, seen := top[ep]; !seen || score > h.score || (score == h.score && n < h.n) {
				top[ep] = hit{n, score}
			}
		}
		for ep, h := range top {
			if old, ok := s.Scores[ep]; !ok || h.score > old {
				s.Scores[ep] = h.score
			}
			if best == nil {
				best = map[string]int{}
			}
			if _, ok := best[ep]; !ok {
				best[ep] = h.n
			}
		}
	}
	for ep := range best {
		c.kind[ep] = lore.KindEpisode
	}
	for id, k := range c.kind {
		if _, _, ok := lore.ParsePassageID(id); ok && k == lore.KindEpisode {
			delete(c.kind, id)
		}
	}
	return best
}

// pointIntoEpisode gives an episode's result the passage of its content
// that matched, with its offsets.
func pointIntoEpisode(r *Result, best map[string]int) {
	n, ok := best[r.ID]
	if !ok || r.Episode == nil {
		return
	}
	if ps := lore.Passages(r.Episode.Content); n < len(ps) {
		p := ps[n]
		r.Passage = &p
	}
}
