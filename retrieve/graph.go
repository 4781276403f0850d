package retrieve

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// linkEntities picks the entities that query n-grams name, from the
// candidates a store returned for those n-grams: entities named by longer
// n-grams first ("new york" before "york"), then the more mentioned, at most
// limit. An entity none of the n-grams names is dropped, so a store that
// matched loosely cannot widen the link.
func linkEntities(ngrams []string, found []*lore.Entity, limit int) []*lore.Entity {
	want := make(map[string]int, len(ngrams))
	for _, g := range ngrams {
		want[g] = len(strings.Fields(g))
	}
	type match struct {
		e    *lore.Entity
		size int
	}
	var ms []match
	seen := map[string]bool{}
	for _, e := range found {
		if e == nil || seen[e.ID] {
			continue
		}
		size := want[e.NormalizedName]
		if size == 0 {
			size = want[lore.NormalizeName(e.Name)]
		}
		for _, a := range e.Aliases {
			size = max(size, want[lore.NormalizeName(a)])
		}
		if size == 0 {
			continue
		}
		seen[e.ID] = true
		ms = append(ms, match{e, size})
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].size != ms[j].size {
			return ms[i].size > ms[j].size
		}
		if ms[i].e.Mentions != ms[j].e.Mentions {
			return ms[i].e.Mentions > ms[j].e.Mentions
		}
		return ms[i].e.ID < ms[j].e.ID
	})
	out := make([]*lore.Entity, 0, min(len(ms), max(limit, 0)))
	for _, m := range ms {
		if len(out) == limit {
			break
		}
		out = append(out, m.e)
	}
	return out
}

// expansionTerms returns the words to add to the text query: the other
// words for the relatives the query names (kinTerms), the aliases and names
// of linked entities, then the names of the user's most connected
// entities (given only for first-person queries), minus the words the query
// already has, at most limit words.
func expansionTerms(queryWords []string, linked, connected []*lore.Entity, limit int) []string {
	have := map[string]bool{}
	for _, w := range queryWords {
		have[w] = true
	}
	var out []string
	add := func(name string) {
		for _, w := range words(name) {
			if len(out) >= limit {
				return
			}
			if have[w] || isStopword(w) {
				continue
			}
			have[w] = true
			out = append(out, w)
		}
	}
	for _, w := range queryWords {
		for _, k := range kinTerms(w) {
			add(k)
		}
	}
	for _, e := range linked {
		for _, a := range e.Aliases {
			add(a)
		}
		add(e.Name)
	}
	for _, e := range connected {
		add(e.Name)
		for _, a := range e.Aliases {
			add(a)
		}
	}
	return out
}

// graphScores scores the facts a graph walk reached, on an absolute 0..1
// scale. Each hit counts hopDecay^(hops-1) (a fact on a linked entity beats
// one two hops away), times the specificity of its seed (an entity with few
// facts says more about each of them than a hub such as the user, whose
// every fact it reaches), grows with the log of how often the fact was
// stated, and fades with the age of its last mention (half of the recency
// part per halfLifeDays) but never below half. A fact reached from several
// linked entities sums its hits, so a fact joining two entities of the
// query ranks first. The sum is squashed into 0..1 with tanh.
func graphScores(hits []lore.GraphHit, now time.Time, halfLifeDays float64) map[string]float64 {
	const hopDecay = 0.5
	fanout := map[string]int{}
	for _, h := range hits {
		if h.Fact != nil && h.Hops <= 1 {
			fanout[h.SeedID]++
		}
	}
	out := map[string]float64{}
	for _, h := range hits {
		if h.Fact == nil {
			continue
		}
		hops := max(h.Hops, 1)
		s := math.Pow(hopDecay, float64(hops-1))
		s *= specificity(fanout[h.SeedID])
		s *= 1 + 0.25*math.Log(float64(max(h.Fact.Count, 1)))
		s *= recency(h.Fact.LastSeen, now, halfLifeDays)
		out[h.Fact.ID] += s
	}
	for id, s := range out {
		out[id] = math.Tanh(s)
	}
	return out
}

// specificity is 1 for an entity with up to specificFacts facts, then falls
// with the square root of its fan-out.
func specificity(facts int) float64 {
	const specificFacts = 9
	if facts <= specificFacts {
		return 1
	}
	return math.Sqrt(specificFacts / float64(facts))
}

// recency is 1 for something seen now, falling towards 0.5 with age.
func recency(seen, now time.Time, halfLifeDays float64) float64 {
	if seen.IsZero() || halfLifeDays <= 0 {
		return 1
	}
	age := now.Sub(seen).Hours() / 24
	if age <= 0 {
		return 1
	}
	return 0.5 + 0.5*math.Exp2(-age/halfLifeDays)
}
