package retrieve

import "github.com/lore-memory/lore"

// Verdicts and usage are given on memories, but a fact and the turn it was
// drawn from answer the same questions: a verdict on "user adopted a dog
// named Max" says as much about the turn "we got a puppy, Max!" and about the
// other facts drawn from it. With Personal.BySource on, each candidate's
// signal takes the positive part of the signals of the memories it shares a
// source turn with (an episode is its own source turn; a fact's are its
// SourceEpisodeIDs): the larger relevance adjustment, helpful verdicts and
// citations, and helpful verdicts for the query. What counts against a
// memory (unhelpful verdicts, a negative adjustment) stays its own, as do
// its returned counts, which judge nothing.

// sourceTurns returns the turns a candidate stands for.
func sourceTurns(c *candidateSet, id string) []string {
	if f := c.facts[id]; f != nil {
		return f.SourceEpisodeIDs
	}
	if c.kind[id] == lore.KindEpisode {
		return []string{id}
	}
	return nil
}

// sourceIDsToLoad returns the source turns of the candidates that are not
// candidates themselves, whose signals BySource also reads.
func sourceIDsToLoad(c *candidateSet) []string {
	seen := map[string]bool{}
	var out []string
	for id := range c.facts {
		for _, t := range c.facts[id].SourceEpisodeIDs {
			if _, ok := c.kind[t]; !ok && !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// spreadBySource returns each candidate's signal with the positive part of
// the signals of the memories sharing a source turn with it, among the
// candidates and the turns loaded (sigs holds both).
func spreadBySource(c *candidateSet, sigs map[string]lore.MemorySignal) map[string]lore.MemorySignal {
	members := map[string][]string{} // turn → the memories with a signal standing for it
	for id := range sigs {
		turns := sourceTurns(c, id)
		if turns == nil {
			turns = []string{id} // a source turn loaded for its signal alone
		}
		for _, t := range turns {
			members[t] = append(members[t], id)
		}
	}
	out := make(map[string]lore.MemorySignal, len(sigs))
	for id := range c.kind {
		own, had := sigs[id]
		eff := own
		eff.MemoryID = id
		for _, t := range sourceTurns(c, id) {
			for _, m := range members[t] {
				if m == id {
					continue
				}
				s := sigs[m]
				eff.Adjustment = max(eff.Adjustment, s.Adjustment)
				eff.Helpful = max(eff.Helpful, s.Helpful)
				eff.Cited = max(eff.Cited, s.Cited)
				eff.SuccessHelpful = max(eff.SuccessHelpful, s.SuccessHelpful)
				if s.LastUsed.After(eff.LastUsed) && s.Cited > 0 {
					eff.LastUsed = s.LastUsed
				}
			}
		}
		if had || eff != (lore.MemorySignal{MemoryID: id}) {
			out[id] = eff
		}
	}
	return out
}
