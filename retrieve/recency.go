package retrieve

import (
	"slices"
	"time"

	"github.com/lore-memory/lore"
)

// SignalRecency names the factor a candidate's score was multiplied by
// because the query asks for the current state, in Result.ScoreDetails.
const SignalRecency = "recency"

// asksCurrent reports whether a query asks how things are now ("where do
// I work now?", "am I still…", "what's my current…", "these days"): of
// two turns that say the same kind of thing, the later is the answer.
func asksCurrent(ws []string) bool {
	for i, w := range ws {
		switch w {
		case "now", "currently", "current", "still", "anymore", "nowadays", "latest", "presently":
			return true
		case "these":
			if i+1 < len(ws) && ws[i+1] == "days" {
				return true
			}
		}
	}
	return false
}

// asksPresent reports whether a query asks in the present tense about the
// user ("Which city do I live in?", "What is my job?", "Who is my
// landlord?"): what holds now, though it does not say "now".
func asksPresent(ws []string) bool {
	for i := 0; i+1 < len(ws); i++ {
		switch ws[i] {
		case "do", "am", "is", "are":
			switch ws[i+1] {
			case "i", "my":
				return true
			}
		}
	}
	return false
}

// asksPast reports whether a query asks in the past tense ("Which firm
// was I working for?", "What did I drive?"): what held then, which a later
// change does not undo.
func asksPast(ws []string) bool {
	return slices.ContainsFunc(ws, func(w string) bool {
		switch w {
		case "was", "were", "did", "had", "used":
			return true
		}
		return false
	})
}

// when is the world time a candidate speaks for: when a turn was said,
// when a fact was last stated.
func when(c *candidateSet, id string) time.Time {
	switch c.kind[id] {
	case lore.KindEpisode:
		if ep := c.episodes[id]; ep != nil {
			return ep.OccurredAt
		}
	case lore.KindFact:
		if f := c.facts[id]; f != nil {
			return f.LastSeen
		}
	}
	return time.Time{}
}

// applyRecency multiplies each candidate's fused score by 1 − factor ×
// its age within the candidates' time span (0 for the latest, 1 for the
// earliest), so that among answers of the same strength the latest wins.
func applyRecency(c *candidateSet, f fused, factor float64) {
	var lo, hi time.Time
	for id := range f.Scores {
		t := when(c, id)
		if t.IsZero() {
			continue
		}
		if lo.IsZero() || t.Before(lo) {
			lo = t
		}
		if t.After(hi) {
			hi = t
		}
	}
	span := hi.Sub(lo)
	if span <= 0 {
		return
	}
	for id := range f.Scores {
		t := when(c, id)
		if t.IsZero() {
			continue
		}
		v := 1 - factor*float64(hi.Sub(t))/float64(span)
		f.Scores[id] *= v
		detail(f.Details, id)[SignalRecency] = v
	}
}
