package retrieve

import (
	"math"
	"sort"
)

// Signal names, as they appear in Result.ScoreDetails.
const (
	SignalBM25      = "bm25"
	SignalExpansion = "expansion"
	SignalDense     = "dense"
	SignalGraph     = "graph"
	SignalTemporal  = "temporal"
	SignalFused     = "fused"
)

// signal is one source's scores for the candidates it found, keyed by id.
// Higher is better; scores are on the source's own scale.
type signal struct {
	Name   string
	Weight float64
	Scores map[string]float64
	// Absolute marks scores already on a 0..1 scale that means the same in
	// every query (graph, temporal); they are clipped, not normalised, so a
	// weak signal stays weak when it is the only one.
	Absolute bool
	// Normalize overrides the fusion's normalisation for this signal
	// (NormalizeMinMax or NormalizeMax; "" keeps the fusion's).
	Normalize string
}

// normalise maps scores to 0..1 so that signals on different scales (BM25,
// cosine, graph) can be summed: by min-max, or, with byMax, by dividing by
// the largest score (negative scores become 0). When every score is equal
// (or there is one), each becomes 1 if positive and 0 otherwise.
func normalise(scores map[string]float64, byMax bool) map[string]float64 {
	out := make(map[string]float64, len(scores))
	if len(scores) == 0 {
		return out
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range scores {
		lo, hi = math.Min(lo, s), math.Max(hi, s)
	}
	for id, s := range scores {
		switch {
		case byMax && hi > 0:
			out[id] = math.Max(s, 0) / hi
		case byMax:
			out[id] = 0
		case hi > lo:
			out[id] = (s - lo) / (hi - lo)
		case s > 0:
			out[id] = 1
		default:
			out[id] = 0
		}
	}
	return out
}

// ranked returns the ids of scores from best to worst, ties by id so that
// equal scores always come out in the same order.
func ranked(scores map[string]float64) []string {
	ids := make([]string, 0, len(scores))
	for id := range scores {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := scores[ids[i]], scores[ids[j]]
		if a != b {
			return a > b
		}
		return ids[i] < ids[j]
	})
	return ids
}

// fused is the outcome of fusion: each candidate's fused score scaled to
// 0..1 (1 is first in every signal) and its per-signal contributions.
type fused struct {
	Scores  map[string]float64
	Details map[string]map[string]float64 // id → signal name → normalised score
}

// fuseWeighted sums each signal's normalised score times its weight and
// divides by the sum of the weights of the signals that found anything.
// byMax selects normalise's by-max mode.
func fuseWeighted(signals []signal, byMax bool) fused {
	out := fused{Scores: map[string]float64{}, Details: map[string]map[string]float64{}}
	total := 0.0
	for _, s := range signals {
		if s.Weight <= 0 || len(s.Scores) == 0 {
			continue
		}
		total += s.Weight
		norm := clip01(s.Scores)
		if !s.Absolute {
			norm = normalise(s.Scores, s.Normalize == NormalizeMax || (s.Normalize == "" && byMax))
		}
		for id, v := range norm {
			out.Scores[id] += s.Weight * v
			detail(out.Details, id)[s.Name] = v
		}
	}
	scale(out.Scores, total)
	return out
}

// fuseRRF sums weight/(k+rank) over the signals a candidate appears in, with
// ranks from 1, and divides by the best possible sum. Signals contribute
// only the candidates they scored above zero.
func fuseRRF(signals []signal, k float64) fused {
	if k <= 0 {
		k = 60
	}
	out := fused{Scores: map[string]float64{}, Details: map[string]map[string]float64{}}
	best := 0.0
	for _, s := range signals {
		if s.Weight <= 0 || len(s.Scores) == 0 {
			continue
		}
		best += s.Weight / (k + 1)
		for i, id := range ranked(s.Scores) {
			if s.Scores[id] <= 0 {
				break
			}
			v := 1 / (k + float64(i+1))
			out.Scores[id] += s.Weight * v
			detail(out.Details, id)[s.Name] = v
		}
	}
	scale(out.Scores, best)
	return out
}

// clip01 returns scores limited to 0..1.
func clip01(scores map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(scores))
	for id, s := range scores {
		out[id] = min(max(s, 0), 1)
	}
	return out
}

func detail(d map[string]map[string]float64, id string) map[string]float64 {
	m, ok := d[id]
	if !ok {
		m = map[string]float64{}
		d[id] = m
	}
	return m
}

func scale(scores map[string]float64, by float64) {
	if by <= 0 {
		return
	}
	for id := range scores {
		scores[id] /= by
	}
}
