package retrieve

import (
	"fmt"
	"math"
	"testing"

	"github.com/lore-memory/lore"
)

func TestGini(t *testing.T) {
	cases := []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3, 3, 3}, 0},
		{[]float64{0, 0, 0, 4}, 0.75},
		{[]float64{1, 3}, 0.25},
	}
	for _, c := range cases {
		if got := gini(append([]float64(nil), c.xs...)); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("gini(%v)=%v, want %v", c.xs, got, c.want)
		}
	}
}

func results(texts ...string) []Result {
	out := make([]Result, len(texts))
	for i, s := range texts {
		out[i] = Result{ID: fmt.Sprint("r", i), Memory: s, Score: 1 - float64(i)*0.01, ScoreDetails: map[string]float64{}}
	}
	return out
}

func TestMMR(t *testing.T) {
	rs := results(
		"Caroline adopted a dog named Max", "Caroline adopted a dog named Max last May", "Caroline's dog Max likes the beach",
		"Melanie paints landscapes", "Melanie ran a charity race", "The pottery class is on Saturdays",
		"Caroline adopted the dog Max from a shelter", "Caroline walks Max daily", "Melanie's kids love camping", "Jon opened a dance studio",
	)
	cfg := DefaultMMR()
	if got := mmr(rs, 5, cfg); got[1].ID != "r1" {
		t.Fatalf("MMR off reordered the results")
	}
	cfg.On = true
	got := mmr(append([]Result(nil), rs...), 5, cfg)
	if got[0].ID != "r0" {
		t.Fatalf("first=%s, want the best result first", got[0].ID)
	}
	if got[1].ID == "r1" {
		t.Fatalf("second=%q, a near duplicate of the first; want a different topic", got[1].Memory)
	}
	if len(got) != len(rs) {
		t.Fatalf("len=%d, want %d", len(got), len(rs))
	}
	if _, ok := got[1].ScoreDetails[SignalMMR]; !ok {
		t.Fatalf("no mmr detail")
	}
	short := results("a b", "a b c")
	if g := mmr(short, 5, cfg); g[0].ID != "r0" || g[1].ID != "r1" {
		t.Fatalf("under MinCandidates MMR must not run")
	}
	before, after := topicGini(rs, rs[:5]), topicGini(rs, got[:5])
	if !(after < before) {
		t.Fatalf("topic gini before MMR %v, after %v; want lower after", before, after)
	}
}

func TestTopicGiniByEntity(t *testing.T) {
	fact := func(id, subj string) Result {
		return Result{ID: id, Memory: subj + " did something", Fact: &lore.Fact{ID: id, Subject: subj}}
	}
	pool := []Result{fact("a", "Emma"), fact("b", "Emma"), fact("c", "Marco"), fact("d", "Sofia"),
		{ID: "e", Memory: "I saw marco yesterday"}}
	if g := topicGini(pool, pool[:2]); math.Abs(g-2.0/3) > 1e-9 {
		t.Fatalf("all on Emma: gini=%v, want 2/3 (three topics, one holds both)", g)
	}
	if g := topicGini(pool, []Result{pool[0], pool[2], pool[3]}); g != 0 {
		t.Fatalf("one per topic: gini=%v, want 0", g)
	}
	if topics := resultTopics(pool); topics["e"] != "marco" {
		t.Fatalf("episode topic=%q, want marco (the entity it names)", topics["e"])
	}
}

func TestJaccardSortedMatchesJaccard(t *testing.T) {
	rs := results("Caroline adopted a dog named Max", "Caroline adopted a dog named Max last May", "the of and",
		"Max likes the beach with Caroline", "", "Melanie paints landscapes of the beach")
	sets := stemIDSets(rs)
	for i := range rs {
		for j := range rs {
			want := jaccard(stemSet(rs[i].Memory), stemSet(rs[j].Memory))
			if got := jaccardSorted(sets[i], sets[j]); got != want {
				t.Errorf("jaccardSorted(%q, %q)=%v, want %v", rs[i].Memory, rs[j].Memory, got, want)
			}
		}
	}
}
