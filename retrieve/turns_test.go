package retrieve

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/lore-memory/lore"
)

func evidenceIDs(rs []Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func newFused(rs []Result) fused {
	f := fused{Scores: map[string]float64{}, Details: map[string]map[string]float64{}}
	for _, r := range rs {
		f.Scores[r.ID] = r.Score
	}
	return f
}

// TestAddTurnEvidence checks that the candidates standing for one turn pool
// their scores, that the order and f follow the new scores, and that share
// 0 changes nothing.
func TestAddTurnEvidence(t *testing.T) {
	in := func() []Result {
		return []Result{
			{ID: "e9", Score: 0.6, Episode: &lore.Episode{ID: "e9"}},
			{ID: "f1", Score: 0.5, Fact: &lore.Fact{ID: "f1", SourceEpisodeIDs: []string{"e1"}}},
			{ID: "f2", Score: 0.4, Fact: &lore.Fact{ID: "f2", SourceEpisodeIDs: []string{"e1"}}},
			{ID: "e1", Score: 0.3, Episode: &lore.Episode{ID: "e1"}},
		}
	}
	rs := in()
	f := newFused(rs)
	got := addTurnEvidence(rs, 0.5, sourceIDs, f)
	// f1: 0.5 + 0.5×(0.4+0.3) = 0.85; f2: 0.4 + 0.5×0.8 = 0.8; e1: 0.3 + 0.5×0.9 = 0.75.
	if want := []string{"f1", "f2", "e1", "e9"}; !slices.Equal(evidenceIDs(got), want) {
		t.Fatalf("order = %v, want %v", evidenceIDs(got), want)
	}
	if math.Abs(got[0].Score-0.85) > 1e-9 || f.Scores["f1"] != got[0].Score || math.Abs(f.Details["f1"][SignalTurn]-0.35) > 1e-9 {
		t.Fatalf("f1 score %v, fused %v, detail %v; want 0.85 and a 0.35 share", got[0].Score, f.Scores["f1"], f.Details["f1"][SignalTurn])
	}
	if _, ok := f.Details["e9"][SignalTurn]; ok {
		t.Fatalf("a turn nothing else stands for got a share")
	}
	rs = in()
	if got := addTurnEvidence(rs, 0, sourceIDs, newFused(rs)); !slices.Equal(evidenceIDs(got), []string{"e9", "f1", "f2", "e1"}) {
		t.Fatalf("share 0 reordered: %v", evidenceIDs(got))
	}
}

// BenchmarkAddTurnEvidence measures the stage on 500 candidates (about what
// a LongMemEval-S query's filter passes on), one in three a fact.
func BenchmarkAddTurnEvidence(b *testing.B) {
	in := make([]Result, 500)
	for i := range in {
		id := fmt.Sprintf("r%d", i)
		if i%3 == 0 {
			in[i] = Result{ID: id, Score: 1 / float64(i+1), Fact: &lore.Fact{ID: id, SourceEpisodeIDs: []string{fmt.Sprintf("e%d", i/2)}}}
		} else {
			in[i] = Result{ID: id, Score: 1 / float64(i+1), Episode: &lore.Episode{ID: fmt.Sprintf("e%d", i/2)}}
		}
	}
	rs := make([]Result, len(in))
	for b.Loop() {
		copy(rs, in)
		addTurnEvidence(rs, 0.25, sourceIDs, newFused(rs))
	}
}
