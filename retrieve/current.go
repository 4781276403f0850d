package retrieve

import (
	"time"

	"github.com/lore-memory/lore"
)

// asOf is the moment a search reads the memory at: T in world time (the
// request's query_time, or now), Now in system time. Explicit is true when
// the caller gave query_time: the search is then a true as-of read, and
// facts that became true, or turns said, after T are left out too.
type asOf struct {
	T, Now   time.Time
	Explicit bool
}

// valid reports whether a fact held at T: not ended in world time by T
// (InvalidAt), not withdrawn in system time without a world end (ExpiredAt
// alone), and, for an explicit as-of read, already true at T (ValidAt, or
// when it was first said).
func (a asOf) valid(f *lore.Fact) bool {
	if f.InvalidAt != nil && !f.InvalidAt.After(a.T) {
		return false
	}
	if f.InvalidAt == nil && f.ExpiredAt != nil && !f.ExpiredAt.After(a.Now) {
		return false
	}
	return a.started(f)
}

// started reports whether a fact had become true by T; only an explicit
// as-of read asks.
func (a asOf) started(f *lore.Fact) bool {
	if !a.Explicit {
		return true
	}
	// A fact stored already ended ("I switched from Vim to VS Code" gives
	// "user uses Vim" ended that day) held before its end, since a time
	// nobody said: it is no later fact than its end.
	if f.ValidAt == nil && f.InvalidAt != nil && !f.InvalidAt.After(f.FirstSeen) {
		return true
	}
	start, _ := factSpan(f)
	return start.IsZero() || !start.After(a.T)
}

// said reports whether an episode was said by T (always, unless the read
// is an explicit as-of read).
func (a asOf) said(ep *lore.Episode) bool {
	return !a.Explicit || ep.OccurredAt.IsZero() || !ep.OccurredAt.After(a.T)
}

// factKey groups the facts one subject holds for one predicate.
type factKey struct{ subject, predicate string }

// currentFirst makes the current value win. A fact is stale when a fact
// of the same subject and predicate replaced it among the results: for a
// single-valued predicate (lore.SingleValued: one city, one employer at a
// time) every valid fact but the one that became true last; for any
// predicate, a fact no longer valid at the read's moment when a valid one
// started no earlier. Stale facts are dropped, or with keepStale placed
// just below the fact that replaced them (their score lowered to it), so a
// superseded value never outranks its replacement. Results come in score
// order and leave in it.
func currentFirst(results []Result, at asOf, keepStale bool) []Result {
	type best struct {
		id    string
		start time.Time
	}
	winner := map[factKey]best{}
	for _, r := range results {
		f := r.Fact
		if f == nil || !at.valid(f) {
			continue
		}
		k := factKey{f.SubjectID, f.Predicate}
		start, _ := factSpan(f)
		if b, ok := winner[k]; !ok || start.After(b.start) {
			winner[k] = best{r.ID, start}
		}
	}
	replacedBy := func(r Result) (string, bool) {
		f := r.Fact
		if f == nil {
			return "", false
		}
		b, ok := winner[factKey{f.SubjectID, f.Predicate}]
		if !ok || b.id == r.ID {
			return "", false
		}
		if at.valid(f) {
			return b.id, lore.SingleValued(f.Predicate)
		}
		start, _ := factSpan(f)
		return b.id, !b.start.Before(start)
	}
	out := make([]Result, 0, len(results))
	held := map[string][]Result{}
	placed := map[string]bool{}
	for _, r := range results {
		if by, stale := replacedBy(r); stale {
			if !keepStale {
				continue
			}
			if !placed[by] {
				held[by] = append(held[by], r)
				continue
			}
		}
		out = append(out, r)
		placed[r.ID] = true
		out = append(out, held[r.ID]...)
		delete(held, r.ID)
	}
	lowerToPlace(out)
	return out
}
