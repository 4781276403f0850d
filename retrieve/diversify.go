package retrieve

import (
	"slices"
	"time"
)

// diversify chooses the top k of results, which come in score order. It
// drops any result whose content words are near-identical (Jaccard
// similarity of stems at or above threshold; 0 or above 1: off) to a result
// already kept, so the top is not one memory stated five times. With
// sources set it also defers a result whose source episodes, as sources
// gives them, are all covered by results already kept: a turn a kept fact
// shows among its sources, and, with deferFacts, a fact whose turns are
// shown as results. Two facts from one turn say different things, so a
// fact never covers another (bench/README.md § LongMemEval regression:
// deferring such repeats gave nothing on today's facts). Deferred results
// fill the places left at the end, in order; a result d.Keep names is never
// deferred.
// sources must give the sources a result will show: a turn a fact merged
// from but does not show is not covered. This is the seam for MMR: it sees
// the ordered results and chooses the top k.
func diversify(results []Result, k int, threshold float64, sources func(Result) []string, d deferral) []Result {
	dedup := threshold > 0 && threshold <= 1
	out := make([]Result, 0, min(len(results), k))
	var (
		kept  []map[string]bool
		later []Result
		// shownEps are the turns kept as results; factEps the turns kept
		// facts show.
		shownEps = map[string]bool{}
		factEps  = map[string]bool{}
	)
	covered := func(r Result, srcs []string) bool {
		if len(srcs) == 0 {
			return false
		}
		if r.Fact != nil {
			if d.Repeats && all(srcs, func(id string) bool { return shownEps[id] || factEps[id] }) {
				return true
			}
			return d.Facts && all(srcs, func(id string) bool { return shownEps[id] })
		}
		return all(srcs, func(id string) bool { return shownEps[id] || factEps[id] })
	}
	for _, r := range results {
		if len(out) == k {
			break
		}
		if dedup {
			set := stemSet(r.Memory)
			dup := false
			for _, other := range kept {
				// |a ∩ b| / |a ∪ b| is at most min/max of the sizes, so
				// sets of very different sizes need no comparing.
				lo, hi := min(len(set), len(other)), max(len(set), len(other))
				if float64(lo) < threshold*float64(hi) {
					continue
				}
				if jaccard(set, other) >= threshold {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
			kept = append(kept, set)
		}
		if sources == nil {
			out = append(out, r)
			continue
		}
		srcs := sources(r)
		if covered(r, srcs) && (d.Keep == nil || !d.Keep(r)) {
			later = append(later, r)
			continue
		}
		// A deferred result waits for results that stand for something
		// else, not for noise: a result scoring below noiseShare of the
		// best, or below deferShare of the deferred result's own score (a
		// chit-chat turn that matched on nothing), does not pass it.
		for len(later) > 0 && len(out) < k && later[0].Score > r.Score &&
			r.Score < max(noiseShare*out[0].Score, deferShare*later[0].Score) {
			out, later = append(out, later[0]), later[1:]
		}
		if len(out) == k {
			break
		}
		for _, id := range srcs {
			if r.Fact != nil {
				factEps[id] = true
			} else {
				shownEps[id] = true
			}
		}
		out = append(out, r)
	}
	for _, r := range later {
		if len(out) == k {
			break
		}
		out = append(out, r)
	}
	lowerToPlace(out)
	return out
}

// noiseShare is the share of the best result's score below which a result
// is noise to the query, and deferShare the share of a deferred result's
// score below which a result is noise next to it: deferred results go
// before noise.
const (
	noiseShare = 0.05
	deferShare = 0.1
)

// deferral configures diversify's source diversity.
type deferral struct {
	// Facts defers a fact whose turns are shown as results.
	Facts bool
	// Repeats defers a fact whose turns are all shown, as results or as
	// the sources of facts kept above it (Config.TurnSlots).
	Repeats bool
	// Keep, when set, names results never deferred: those known to answer
	// the query.
	Keep func(Result) bool
}

// sourceIDs are the episodes a result stands for: a fact's sources, or the
// episode itself.
func sourceIDs(r Result) []string {
	switch {
	case r.Fact != nil:
		return r.Fact.SourceEpisodeIDs
	case r.Episode != nil:
		return []string{r.Episode.ID}
	}
	return nil
}

func all(ids []string, in func(string) bool) bool {
	for _, id := range ids {
		if !in(id) {
			return false
		}
	}
	return true
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

// spreadTop reorders results so that each of the first n places goes to the
// best result that brings a conversation not yet shown there, when there is
// one among the first 3n: a question about several occasions ("how many
// concerts did I go to?") needs each of them near the top, not the same
// evening three times. Results it passes over keep their order after the n
// places. A conversation is a run of turns said within gap of each other;
// a result brings the conversations of its sources (a fact may bring
// several), so it runs after the sources are attached.
func spreadTop(results []Result, n int, gap time.Duration) []Result {
	if n <= 1 || len(results) < 2 {
		return results
	}
	pool := min(3*n, len(results))
	var (
		top, passed []Result
		shown       []time.Time
	)
	near := func(t time.Time) bool {
		return slices.ContainsFunc(shown, func(s time.Time) bool { return t.Sub(s) <= gap && s.Sub(t) <= gap })
	}
	for i, r := range results[:pool] {
		if len(top) == n {
			passed = append(passed, results[i:pool]...)
			break
		}
		fresh := len(r.Sources) == 0
		for _, src := range r.Sources {
			fresh = fresh || !near(src.OccurredAt)
		}
		if !fresh {
			passed = append(passed, r)
			continue
		}
		top = append(top, r)
		for _, src := range r.Sources {
			shown = append(shown, src.OccurredAt)
		}
	}
	out := append(top, passed...)
	out = append(out, results[pool:]...)
	lowerToPlace(out)
	return out
}

// lowerToPlace gives a result moved below better-scored ones the score of
// its new place, so that scores always descend down the list a caller
// sees; its fused score stays in ScoreDetails.
func lowerToPlace(results []Result) {
	for i := 1; i < len(results); i++ {
		if results[i].Score > results[i-1].Score {
			results[i].Score = results[i-1].Score
		}
	}
}
