package retrieve

import (
	"math"
	"time"

	"github.com/lore-memory/lore/temporal"
)

// parseTime is the default time-expression parser: temporal.Parse.
func parseTime(text string, ref time.Time) []TimeSpan {
	spans := temporal.Parse(text, ref)
	out := make([]TimeSpan, 0, len(spans))
	for _, s := range spans {
		out = append(out, TimeSpan{Text: s.Text, Start: s.Start, End: s.End})
	}
	return out
}

// temporalScores scores each loaded candidate by how close its time is to
// the query's time expressions: 1 inside a span, then decaying by the
// distance in units of the span's width (at least a day), best span wins.
func temporalScores(c *candidateSet, spans []TimeSpan) map[string]float64 {
	out := map[string]float64{}
	for id, f := range c.facts {
		start, end := factSpan(f)
		if s := spanScore(start, end, spans); s > 0 {
			out[id] = s
		}
	}
	for id, ep := range c.episodes {
		if s := spanScore(ep.OccurredAt, ep.OccurredAt, spans); s > 0 {
			out[id] = s
		}
	}
	return out
}

// spanScore is the best closeness of [start, end] to any span.
func spanScore(start, end time.Time, spans []TimeSpan) float64 {
	if start.IsZero() {
		return 0
	}
	best := 0.0
	for _, sp := range spans {
		width := max(sp.End.Sub(sp.Start), 24*time.Hour)
		var dist time.Duration
		switch {
		case end.Before(sp.Start):
			dist = sp.Start.Sub(end)
		case !start.Before(sp.End):
			dist = start.Sub(sp.End)
		}
		best = max(best, math.Exp(-float64(dist)/float64(width)))
	}
	return best
}
