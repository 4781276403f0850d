package retrieve

import (
	"maps"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

func TestFoldPassages(t *testing.T) {
	p := lore.PassageID
	tests := []struct {
		name      string
		signals   []map[string]float64 // each signal's scores
		kinds     map[string]lore.DocKind
		want      []map[string]float64
		wantBest  map[string]int
		wantKinds map[string]lore.DocKind
	}{
		{
			name:      "whole episodes and facts stay as they are",
			signals:   []map[string]float64{{"e1": 2, "f1": 1}},
			kinds:     map[string]lore.DocKind{"e1": lore.KindEpisode, "f1": lore.KindFact},
			want:      []map[string]float64{{"e1": 2, "f1": 1}},
			wantKinds: map[string]lore.DocKind{"e1": lore.KindEpisode, "f1": lore.KindFact},
		},
		{
			name: "passages fold into their episode with the best score per signal",
			signals: []map[string]float64{
				{p("e2", 0): 1, p("e2", 3): 5, "e1": 2},
				{p("e2", 1): 0.9, p("e2", 3): 0.4},
			},
			kinds: map[string]lore.DocKind{p("e2", 0): lore.KindEpisode, p("e2", 1): lore.KindEpisode, p("e2", 3): lore.KindEpisode, "e1": lore.KindEpisode},
			want:  []map[string]float64{{"e2": 5, "e1": 2}, {"e2": 0.9}},
			// The first signal that found the episode names its passage.
			wantBest:  map[string]int{"e2": 3},
			wantKinds: map[string]lore.DocKind{"e2": lore.KindEpisode, "e1": lore.KindEpisode},
		},
		{
			name:      "a fact id that looks like a passage id is left alone",
			signals:   []map[string]float64{{"f#p1": 1}},
			kinds:     map[string]lore.DocKind{"f#p1": lore.KindFact},
			want:      []map[string]float64{{"f#p1": 1}},
			wantKinds: map[string]lore.DocKind{"f#p1": lore.KindFact},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &candidateSet{kind: maps.Clone(tt.kinds)}
			for i, s := range tt.signals {
				c.signals = append(c.signals, signal{Name: strings.Repeat("s", i+1), Scores: maps.Clone(s)})
			}
			best := foldPassages(c)
			for i, s := range c.signals {
				if !maps.Equal(s.Scores, tt.want[i]) {
					t.Errorf("signal %d scores=%v, want %v", i, s.Scores, tt.want[i])
				}
			}
			if !maps.Equal(best, tt.wantBest) {
				t.Errorf("best passages=%v, want %v", best, tt.wantBest)
			}
			if !maps.Equal(c.kind, tt.wantKinds) {
				t.Errorf("kinds=%v, want %v", c.kind, tt.wantKinds)
			}
		})
	}
}
