package retrieve

import (
	"testing"

	"github.com/lore-memory/lore"
)

func TestSpreadBySource(t *testing.T) {
	// e1 and e2 are turns; f1 and f2 were drawn from e1, f3 from e1 and
	// e2; e3 is a turn loaded only for its signal (not a candidate).
	c := &candidateSet{
		kind: map[string]lore.DocKind{"e1": lore.KindEpisode, "e2": lore.KindEpisode, "f1": lore.KindFact, "f2": lore.KindFact, "f3": lore.KindFact, "f4": lore.KindFact},
		facts: map[string]*lore.Fact{
			"f1": {ID: "f1", SourceEpisodeIDs: []string{"e1"}},
			"f2": {ID: "f2", SourceEpisodeIDs: []string{"e1"}},
			"f3": {ID: "f3", SourceEpisodeIDs: []string{"e1", "e2"}},
			"f4": {ID: "f4", SourceEpisodeIDs: []string{"e3"}},
		},
	}
	tests := []struct {
		name string
		sigs map[string]lore.MemorySignal
		want map[string]lore.MemorySignal
	}{
		{
			name: "a helpful fact lifts its turn and the turn's other facts",
			sigs: map[string]lore.MemorySignal{"f1": {MemoryID: "f1", Adjustment: 0.3, Helpful: 2, Cited: 2, SuccessHelpful: 2}},
			want: map[string]lore.MemorySignal{
				"f1": {MemoryID: "f1", Adjustment: 0.3, Helpful: 2, Cited: 2, SuccessHelpful: 2},
				"e1": {MemoryID: "e1", Adjustment: 0.3, Helpful: 2, Cited: 2, SuccessHelpful: 2},
				"f2": {MemoryID: "f2", Adjustment: 0.3, Helpful: 2, Cited: 2, SuccessHelpful: 2},
				"f3": {MemoryID: "f3", Adjustment: 0.3, Helpful: 2, Cited: 2, SuccessHelpful: 2},
			},
		},
		{
			name: "what counts against a memory stays its own",
			sigs: map[string]lore.MemorySignal{
				"f1": {MemoryID: "f1", Adjustment: -0.2, Unhelpful: 2, SuccessUnhelpful: 2, Returned: 5},
				"e2": {MemoryID: "e2", Adjustment: 0.15, Helpful: 1, Cited: 1},
			},
			want: map[string]lore.MemorySignal{
				"f1": {MemoryID: "f1", Adjustment: -0.2, Unhelpful: 2, SuccessUnhelpful: 2, Returned: 5},
				"e2": {MemoryID: "e2", Adjustment: 0.15, Helpful: 1, Cited: 1},
				"f3": {MemoryID: "f3", Adjustment: 0.15, Helpful: 1, Cited: 1},
			},
		},
		{
			name: "a loaded source turn lifts its facts",
			sigs: map[string]lore.MemorySignal{"e3": {MemoryID: "e3", Adjustment: 0.45, Helpful: 3}},
			want: map[string]lore.MemorySignal{"f4": {MemoryID: "f4", Adjustment: 0.45, Helpful: 3}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := spreadBySource(c, tt.sigs)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d signals %+v, want %d %+v", len(got), got, len(tt.want), tt.want)
			}
			for id, w := range tt.want {
				if got[id] != w {
					t.Errorf("%s = %+v, want %+v", id, got[id], w)
				}
			}
		})
	}
	if got := sourceIDsToLoad(c); len(got) != 1 || got[0] != "e3" {
		t.Fatalf("sourceIDsToLoad = %v, want [e3]", got)
	}
}

// TestMultiplyLiftsOnlyWhatTheQueryReaches: with Personal.Multiply the
// personal terms scale fused scores; a memory with no fused score gains none.
func TestMultiplyLiftsOnlyWhatTheQueryReaches(t *testing.T) {
	f := fused{Scores: map[string]float64{"a": 1, "b": 0.5}, Details: map[string]map[string]float64{}}
	st := &personalState{lift: []signal{{Name: SignalFrequency, Weight: 0.5, Scores: map[string]float64{"b": 1, "c": 1}}}}
	st.apply(f)
	if f.Scores["a"] != 1 || f.Scores["b"] != 0.75 || len(f.Scores) != 2 {
		t.Fatalf("scores %v, want a 1, b 0.5×1.5 = 0.75 and no c", f.Scores)
	}
	if f.Details["b"][SignalFrequency] != 1 {
		t.Fatalf("b's details %v, want frequency 1", f.Details["b"])
	}
}
