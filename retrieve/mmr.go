package retrieve

import (
	"slices"
	"sort"
	"strings"

	"github.com/lore-memory/lore"
)

// MMR configures the greedy maximal-marginal-relevance reordering of the
// candidates (issue 14). Each next result maximises
//
//	(1 − Lambda) · score − Lambda · max similarity to the results chosen
//
// where similarity is the Jaccard overlap of the results' content-word
// stems. It is skipped when fewer than MinCandidates candidates remain.
// Off by default: LoCoMo and LongMemEval ask for the turns of one fact, and
// spreading the top k across topics is what it costs there (README, §
// Ranking signals).
type MMR struct {
	On            bool    `json:"on"`
	Lambda        float64 `json:"lambda"`
	MinCandidates int     `json:"min_candidates"`
	// Pool bounds how many leading candidates MMR reorders (0: 5 × top k).
	Pool int `json:"pool"`
}

// DefaultMMR is off, with the λ 0.3 and 10 candidates.
func DefaultMMR() MMR { return MMR{Lambda: 0.3, MinCandidates: 10} }

// SignalMMR names a result's marginal MMR value in Result.ScoreDetails.
const SignalMMR = "mmr"

// mmr reorders the leading candidates greedily; the rest follow in order.
// Scores are left as they are: diversify lowers a result passed by a
// lower-scoring one to its place (lowerToPlace), so results stay ordered by
// the score they report.
func mmr(results []Result, topK int, cfg MMR) []Result {
	if !cfg.On || cfg.Lambda <= 0 || len(results) < max(cfg.MinCandidates, 2) {
		return results
	}
	pool := cfg.Pool
	if pool <= 0 {
		pool = 5 * topK
	}
	pool = min(pool, len(results))
	cand := results[:pool]
	sets := stemIDSets(cand)
	maxSim := make([]float64, len(cand))
	chosen := make([]bool, len(cand))
	out := make([]Result, 0, len(results))
	for len(out) < pool {
		best, bestV := -1, 0.0
		for i, r := range cand {
			if chosen[i] {
				continue
			}
			v := (1-cfg.Lambda)*r.Score - cfg.Lambda*maxSim[i]
			if best < 0 || v > bestV {
				best, bestV = i, v
			}
		}
		chosen[best] = true
		r := cand[best]
		if r.ScoreDetails != nil {
			r.ScoreDetails[SignalMMR] = bestV
		}
		out = append(out, r)
		for i := range cand {
			if !chosen[i] {
				maxSim[i] = max(maxSim[i], jaccardSorted(sets[i], sets[best]))
			}
		}
	}
	return append(out, results[pool:]...)
}

// stemIDSets gives each result's content-word stems as sorted small
// integers, numbered across the results: MMR compares every pair it
// reorders, and merging two short sorted slices costs a fraction of
// probing one map per word.
func stemIDSets(results []Result) [][]int32 {
	ids := map[string]int32{}
	out := make([][]int32, len(results))
	for i, r := range results {
		set := stemSet(r.Memory)
		s := make([]int32, 0, len(set))
		for w := range set {
			id, ok := ids[w]
			if !ok {
				id = int32(len(ids))
				ids[w] = id
			}
			s = append(s, id)
		}
		slices.Sort(s)
		out[i] = s
	}
	return out
}

// jaccardSorted is jaccard over stemIDSets' sorted sets.
func jaccardSorted(a, b []int32) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			inter++
			i++
			j++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// topicGini is the Gini coefficient of how a result list spreads over the
// topics of the candidates it was chosen from (pool): 0 when every topic
// holds as many results, towards 1 when they all share one. A result's topic
// is the entity it is about — a fact's subject, or the first of the pool's
// fact subjects an episode names — or, when the pool has no facts, its
// cluster (single-link on content-word overlap ≥ 0.2).
func topicGini(pool, top []Result) float64 {
	if len(pool) == 0 || len(top) == 0 {
		return 0
	}
	topicOf := resultTopics(append(append([]Result{}, top...), pool...))
	counts := map[string]float64{}
	for _, t := range topicOf {
		counts[t] += 0 // every candidate topic counts, held by a result or not
	}
	for _, r := range top {
		counts[topicOf[r.ID]]++
	}
	xs := make([]float64, 0, len(counts))
	for _, v := range counts {
		xs = append(xs, v)
	}
	return gini(xs)
}

// gini is the Gini coefficient of non-negative values.
func gini(xs []float64) float64 {
	n := float64(len(xs))
	if n == 0 {
		return 0
	}
	sort.Float64s(xs)
	var sum, weighted float64
	for i, x := range xs {
		sum += x
		weighted += float64(i+1) * x
	}
	if sum == 0 {
		return 0
	}
	return (2*weighted)/(n*sum) - (n+1)/n
}

// resultTopics gives each result its topic, by id.
func resultTopics(results []Result) map[string]string {
	var names []string
	seen := map[string]bool{}
	for _, r := range results {
		if r.Fact != nil && r.Fact.Subject != "" {
			if n := lore.NormalizeName(r.Fact.Subject); !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	out := make(map[string]string, len(results))
	if len(names) > 0 {
		for _, r := range results {
			if r.Fact != nil && r.Fact.Subject != "" {
				out[r.ID] = lore.NormalizeName(r.Fact.Subject)
				continue
			}
			// The earliest-named entity in the text; "(none)" otherwise.
			text := " " + strings.Join(words(r.Memory), " ") + " "
			topic, at := "(none)", len(text)
			for _, n := range names {
				if i := strings.Index(text, " "+n+" "); i >= 0 && i < at {
					topic, at = n, i
				}
			}
			out[r.ID] = topic
		}
		return out
	}
	// No entities: single-link clusters of the results.
	sets := make([]map[string]bool, len(results))
	parent := make([]int, len(results))
	for i, r := range results {
		sets[i], parent[i] = stemSet(r.Memory), i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range results {
		for j := i + 1; j < len(results); j++ {
			if jaccard(sets[i], sets[j]) >= 0.2 {
				parent[find(j)] = find(i)
			}
		}
	}
	for i, r := range results {
		if _, ok := out[r.ID]; !ok {
			out[r.ID] = "cluster:" + results[find(i)].ID
		}
	}
	return out
}
