package retrieve

import "sort"

// SignalTurn is the share of a result's score that came from the other
// candidates standing for the same turn (Config.TurnEvidence).
const SignalTurn = "turn"

// addTurnEvidence lets the candidates that stand for one turn (the turn
// itself and the facts it shows as sources) pool their evidence: each
// result gains share × the summed scores of the other results that show
// one of its turns (the best such turn counts). A turn that states several
// things the query asks about ("I take Zumba on Tuesdays … and yoga on
// Sundays") then outranks a turn that matches one of its words well, and a
// fact lifts the turn it restates (and the turn the fact). Results come in
// score order and leave in it; f's scores and details follow, so the order
// is the order of the score returned. share ≤ 0 leaves results as they
// are.
func addTurnEvidence(results []Result, share float64, sources func(Result) []string, f fused) []Result {
	if share <= 0 || len(results) < 2 {
		return results
	}
	srcs := make([][]string, len(results))
	sum := make(map[string]float64, len(results))
	for i, r := range results {
		srcs[i] = dedupe(sources(r))
		for _, t := range srcs[i] {
			sum[t] += r.Score
		}
	}
	for i := range results {
		r := &results[i]
		others := 0.0
		for _, t := range srcs[i] {
			others = max(others, sum[t]-r.Score)
		}
		if others <= 0 {
			continue
		}
		bonus := share * others
		r.Score += bonus
		f.Scores[r.ID] = r.Score
		if f.Details[r.ID] == nil {
			f.Details[r.ID] = map[string]float64{}
		}
		f.Details[r.ID][SignalTurn] = bonus
	}
	sort.SliceStable(results, func(i, j int) bool { return results[i].Score > results[j].Score })
	return results
}

// turnShare is the turn evidence share for a query: none when the relation
// stage resolved the query to entities of the graph, whose facts answer it
// one by one (a sibling fact from the same turn is no evidence for them).
func turnShare(share float64, c *candidateSet) float64 {
	for _, s := range c.signals {
		if s.Name == SignalRelation && len(s.Scores) > 0 {
			return 0
		}
	}
	return share
}

// atLeast keeps the results scoring threshold or more, in order.
func atLeast(results []Result, threshold float64) []Result {
	if threshold <= 0 {
		return results
	}
	out := results[:0]
	for _, r := range results {
		if r.Score >= threshold {
			out = append(out, r)
		}
	}
	return out
}

// dedupe returns ids without repeats, in order; ids is not changed.
func dedupe(ids []string) []string {
	if len(ids) < 2 {
		return ids
	}
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
