package retrieve

import (
	"time"

	"github.com/lore-memory/lore"
)

// staleTurns finds the turns that state a value which had ended by the
// read's moment, and for each the turns that ended or replaced it. A fact
// F ended by then (InvalidAt at or before at.T) was stated by its sources
// said before its end; the turns that closed it are its sources said at or
// after its end and the sources of the current fact of the same subject
// and predicate that replaced it. A fact stored already ended ("Sold the
// Civic!" ends "user owns Civic" with no earlier fact) has no earlier
// source: the earlier candidate turns naming its object stand for it. A
// turn counts as stale only when, of the facts it stated (and the ended
// facts standing for it), the one the query scored best has ended: "I live
// in Leeds and work at Hollis" is stale for "where do I work?" once Hollis
// ended, not for "which city do I live in?". The result maps each stale
// turn to its closers.
func staleTurns(c *candidateSet, scores map[string]float64, at asOf) map[string][]string {
	ended := func(f *lore.Fact) bool { return f.InvalidAt != nil && !f.InvalidAt.After(at.T) }
	// cites: turn → the candidate facts standing for it.
	cites := map[string][]*lore.Fact{}
	for _, f := range c.facts {
		for _, id := range f.SourceEpisodeIDs {
			cites[id] = append(cites[id], f)
		}
	}
	closers, before := endings(c, at)
	for _, f := range c.facts {
		if !ended(f) || before[f.ID] || len(closers[f.ID]) == 0 {
			continue
		}
		end := *f.InvalidAt
		name := words(f.Object)
		if !hasContentWord(name) {
			continue
		}
		for id, ep := range c.episodes {
			if c.kind[id] == lore.KindEpisode && ep.OccurredAt.Before(end) && ep.Scope == f.Scope && containsRun(words(ep.Content), name) {
				cites[id] = append(cites[id], f)
			}
		}
	}
	out := map[string][]string{}
	for id, fs := range cites {
		if c.kind[id] != lore.KindEpisode || c.episodes[id] == nil {
			continue
		}
		var best *lore.Fact
		for _, f := range fs {
			if best == nil || scores[f.ID] > scores[best.ID] || (scores[f.ID] == scores[best.ID] && f.ID < best.ID) {
				best = f
			}
		}
		if best == nil || !ended(best) || !c.episodes[id].OccurredAt.Before(*best.InvalidAt) {
			continue
		}
		if cl := closers[best.ID]; len(cl) > 0 {
			out[id] = cl
		}
	}
	return out
}

func hasContentWord(ws []string) bool {
	for _, w := range ws {
		if !isStopword(w) {
			return true
		}
	}
	return false
}

// staleBelow places each stale turn just below the first of its closers
// among the results, when that closer ranks below it and scores at least
// ratio of the stale turn's score (a closer far below is about something
// else than the query); its score is lowered to its new place. Results
// come in score order and leave in it.
func staleBelow(results []Result, stale map[string][]string, ratio float64) []Result {
	if len(stale) == 0 {
		return results
	}
	present := map[string]bool{}
	score := map[string]float64{}
	for _, r := range results {
		present[r.ID] = true
		score[r.ID] = r.Score
	}
	out := make([]Result, 0, len(results))
	placed := map[string]bool{}
	held := map[string][]Result{}
	for _, r := range results {
		if cl := stale[r.ID]; len(cl) > 0 {
			wait := ""
			for _, id := range cl {
				if placed[id] {
					wait = ""
					break
				}
				if present[id] && wait == "" && score[id] >= ratio*r.Score {
					wait = id
				}
			}
			if wait != "" {
				held[wait] = append(held[wait], r)
				continue
			}
		}
		out = append(out, r)
		placed[r.ID] = true
		for _, h := range held[r.ID] {
			out = append(out, h)
			placed[h.ID] = true
		}
		delete(held, r.ID)
	}
	lowerToPlace(out)
	return out
}

// endings maps each candidate fact ended by the read's moment to the turns
// that ended or replaced it: its sources said at or after its end, and the
// sources of a current fact of the same subject and predicate that started
// no earlier. before names the ended facts with a source said before their
// end (the others were stored already ended).
func endings(c *candidateSet, at asOf) (closers map[string][]string, before map[string]bool) {
	closers, before = map[string][]string{}, map[string]bool{}
	for _, f := range c.facts {
		if f.InvalidAt == nil || f.InvalidAt.After(at.T) {
			continue
		}
		end := *f.InvalidAt
		for _, id := range f.SourceEpisodeIDs {
			ep := c.episodes[id]
			if ep == nil {
				continue
			}
			if ep.OccurredAt.Before(end) {
				before[f.ID] = true
			} else {
				closers[f.ID] = append(closers[f.ID], id)
			}
		}
		start, _ := factSpan(f)
		for _, g := range c.facts {
			if g.ID == f.ID || g.SubjectID != f.SubjectID || g.Predicate != f.Predicate || !at.valid(g) {
				continue
			}
			// A value stated after the old one had ended did not end it
			// ("he's my boyfriend now", months after "Theo and I broke
			// up"): only a replacement from when it ended counts.
			if gs, _ := factSpan(g); !gs.Before(start) && !gs.After(end.Add(replacedWithin)) {
				closers[f.ID] = append(closers[f.ID], g.SourceEpisodeIDs...)
			}
		}
	}
	return closers, before
}

// replacedWithin is how long after a fact ended a new value of its subject
// and predicate may start and still be what replaced it.
const replacedWithin = 24 * time.Hour

// SignalEnded names the share of an ended fact's score the turn that ended
// it receives (Config.EndedShare), in Result.ScoreDetails.
const SignalEnded = "ended"

// applyEndedShare gives each turn that ended or replaced a candidate fact
// (endings) share of that fact's fused score, the best such share: an ended
// fact is no result, but what the query found in it is now said by the turn
// that ended it ("Sold the Civic!" for "do I still have the Honda?").
func applyEndedShare(c *candidateSet, f fused, at asOf, share float64) {
	closers, _ := endings(c, at)
	bonus := map[string]float64{}
	for id, cl := range closers {
		v := share * f.Scores[id]
		for _, ep := range cl {
			if _, ok := c.episodes[ep]; ok && v > bonus[ep] {
				bonus[ep] = v
			}
		}
	}
	for id, v := range bonus {
		if v <= 0 {
			continue
		}
		f.Scores[id] += v
		detail(f.Details, id)[SignalEnded] = v
	}
}
