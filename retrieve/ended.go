package retrieve

import (
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

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
//
// A query that asks for an attribute ("What does my ex-husband do?") is
// answered only by the endings of facts stating it: a corrected city is no
// answer to a question about a job.
func applyEndedShare(c *candidateSet, f fused, at asOf, share float64, ws []string) {
	// A query about the user alone is not answered by someone else's move
	// ("Abena has moved from Leeds to London" for "Which city do I live
	// in?").
	// Nor is a query about someone the roles resolved ("What does my wife's
	// brother do?") answered by another's ending ("Abena left Boots"); the
	// end of a relation that led there ("user has_roommate Priya", for
	// "Who's my roommate?") still is.
	others := func(fact *lore.Fact) bool {
		relation := strings.HasPrefix(fact.Predicate, "has_") || slices.Contains(partnerPredicates, fact.Predicate)
		return c.self != nil && fact.SubjectID != c.self.ID || len(c.resolved) > 0 && !slices.Contains(c.resolved, fact.SubjectID) && !relation
	}
	closers, _ := endings(c, at)
	typed, _ := topicPredicates(ws)
	hints := questionHints(ws)
	// A topic the query names ("Where am I originally from?" asks for
	// comes_from) is all it asks: the question word's hints ("where":
	// lives_in) widen only a query that names none.
	asked := func(pred string) bool {
		if len(typed) > 0 {
			return predicateIn(pred, typed)
		}
		if len(hints) == 0 {
			return true
		}
		return slices.ContainsFunc(hints, func(h string) bool { return strings.Contains(pred, h) })
	}
	// since reports whether a value of fact's subject and predicate holds at
	// the read and began at or after fact's end: the story went on after
	// the turn that ended it ("Caspian and I split up", then "user is
	// dating Wren"), and only the replacement's turns answer.
	since := func(fact *lore.Fact) bool {
		for _, g := range c.facts {
			if g.ID == fact.ID || g.SubjectID != fact.SubjectID || !sameSlot(g.Predicate, fact.Predicate) || !at.valid(g) {
				continue
			}
			if gs, _ := factSpan(g); !gs.Before(*fact.InvalidAt) {
				return true
			}
		}
		return false
	}
	bonus := map[string]float64{}
	for id, cl := range closers {
		fact := c.facts[id]
		if fact != nil && (!asked(fact.Predicate) || others(fact)) {
			continue
		}
		replaced := fact != nil && fact.InvalidAt != nil && since(fact)
		v := share * f.Scores[id]
		for _, ep := range cl {
			if fact != nil {
				current, ended := statedBy(c, fact, ep, at)
				// A turn whose own new value has since ended ("I moved
				// from Berlin to Munich", Munich since replaced by
				// Vienna) no longer says what is current; nor does the
				// ending turn of a fact replaced after it.
				if ended && !current || replaced && slices.Contains(fact.SourceEpisodeIDs, ep) && !current {
					continue
				}
			}
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

// statedBy reports whether turn ep is a source of another value of fact's
// subject and predicate that holds at the read (current), or of one that
// has ended by then (ended).
func statedBy(c *candidateSet, fact *lore.Fact, ep string, at asOf) (current, ended bool) {
	for _, g := range c.facts {
		if g.ID == fact.ID || g.SubjectID != fact.SubjectID || g.Predicate != fact.Predicate || !slices.Contains(g.SourceEpisodeIDs, ep) {
			continue
		}
		if at.valid(g) {
			current = true
		} else {
			ended = true
		}
	}
	return current, ended
}

// partnerPredicates name one slot, the partner, in their several words:
// "Caspian and I split up" ends has_boyfriend, and "user is dating Wren"
// (dates) fills it again.
var partnerPredicates = []string{"has_boyfriend", "has_girlfriend", "has_partner", "dates", "married_to", "has_husband",
	"has_wife", "has_spouse", "has_fiance", "has_fiancee", "engaged_to"}

// sameSlot reports whether two predicates hold the same value slot. The
// pets of roles.txt's "pet" line are one slot too: a kitten adopted after
// the dog died is what "my pet" now names.
func sameSlot(a, b string) bool {
	pets := roleTable["pet"]
	return a == b || slices.Contains(partnerPredicates, a) && slices.Contains(partnerPredicates, b) ||
		slices.Contains(pets, a) && slices.Contains(pets, b)
}
