package retrieve

import (
	"math"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func TestPersonalScores(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	cfg := DefaultPersonal()
	cases := []struct {
		name string
		got  float64
		want float64
	}{
		{"personal: none", personalScore(lore.MemorySignal{}), 0},
		{"personal: one helpful", personalScore(lore.MemorySignal{Helpful: 1}), 0.5},
		{"personal: 3 helpful 1 unhelpful", personalScore(lore.MemorySignal{Helpful: 3, Unhelpful: 1}), 0.6},
		{"frequency: none", frequencyScore(lore.MemorySignal{}, now, cfg), 0},
		{"frequency: saturated today", frequencyScore(lore.MemorySignal{Cited: 20, LastUsed: now}, now, cfg), 1},
		{"frequency: log-scaled", frequencyScore(lore.MemorySignal{Cited: 4, LastUsed: now}, now, cfg), math.Log1p(4) / math.Log1p(20)},
		{"frequency: returns count a tenth", frequencyScore(lore.MemorySignal{Returned: 10, LastUsed: now}, now, cfg), math.Log1p(1) / math.Log1p(20)},
		{"frequency: halved after a half-life", frequencyScore(lore.MemorySignal{Cited: 20, LastUsed: now.AddDate(0, 0, -30)}, now, cfg), 0.5},
		{"success: under the sample size", successScore(lore.MemorySignal{SuccessHelpful: 2}, 3), 0},
		{"success: three helpful", successScore(lore.MemorySignal{SuccessHelpful: 3}, 3), 1},
		{"success: mixed", successScore(lore.MemorySignal{SuccessHelpful: 3, SuccessUnhelpful: 1}, 3), 0.5},
		{"success: bad record is 0, not negative", successScore(lore.MemorySignal{SuccessUnhelpful: 4}, 3), 0},
	}
	for _, c := range cases {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestIntentWeightTable(t *testing.T) {
	for _, in := range intents {
		if _, ok := intentTable[in]; !ok {
			t.Errorf("intent_weights.txt has no row for %s", in)
		}
	}
	if intentTable[IntentFactual][0] != 0 {
		t.Errorf("FACTUAL personal multiplier = %v, want 0 (personalization off)", intentTable[IntentFactual][0])
	}
	for name, data := range map[string]string{"short row": "FACTUAL 1 1 1", "negative": "FACTUAL 1 1 -1 1", "unknown intent": "CHAT 1 1 1 1"} {
		if _, err := parseIntentWeights(data); err == nil {
			t.Errorf("%s: parseIntentWeights(%q) succeeded", name, data)
		}
	}
}

func TestRelevanceApply(t *testing.T) {
	f := fused{Scores: map[string]float64{"a": 0.5, "b": 0.4}, Details: map[string]map[string]float64{}}
	st := &personalState{relevance: map[string]float64{"b": 1.6, "gone": 2}}
	st.apply(f)
	if f.Scores["a"] != 0.5 || math.Abs(f.Scores["b"]-0.64) > 1e-9 || f.Details["b"][SignalRelevance] != 1.6 {
		t.Fatalf("scores=%v details=%v, want a 0.5, b 0.64 with relevance 1.6", f.Scores, f.Details)
	}
	if _, ok := f.Scores["gone"]; ok {
		t.Fatalf("apply added a candidate")
	}
	(*personalState)(nil).apply(f) // off: nothing to do, no panic
}
