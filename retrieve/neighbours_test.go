package retrieve

import (
	"slices"
	"testing"

	"github.com/lore-memory/lore"
)

func TestContextBonus(t *testing.T) {
	ep := func(id string) *lore.Episode { return &lore.Episode{ID: id} }
	tests := []struct {
		name   string
		found  []neighbourhoodOf
		scores map[string]float64
		want   map[string]float64
	}{
		{"next gets the larger share", []neighbourhoodOf{{seed: "q", before: []*lore.Episode{ep("a")}, after: []*lore.Episode{ep("b")}}},
			map[string]float64{"q": 1}, map[string]float64{"a": 0.4, "b": 0.6}},
		{"missing neighbours give nothing", []neighbourhoodOf{{seed: "q"}},
			map[string]float64{"q": 1}, map[string]float64{}},
		{"best share wins across seeds", []neighbourhoodOf{
			{seed: "q1", after: []*lore.Episode{ep("x")}},
			{seed: "q2", before: []*lore.Episode{ep("x")}},
		}, map[string]float64{"q1": 0.5, "q2": 1}, map[string]float64{"x": 0.4}},
		{"farther turns get less", []neighbourhoodOf{{seed: "q", after: []*lore.Episode{ep("b"), ep("c")}}},
			map[string]float64{"q": 1}, map[string]float64{"b": 0.6, "c": 0.3}},
		{"a weak seed lends little", []neighbourhoodOf{{seed: "q", after: []*lore.Episode{ep("b")}}},
			map[string]float64{"q": 0.1}, map[string]float64{"b": 0.06}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := contextBonus(tt.found, tt.scores, 0.4, 0.6, 0.5)
			if len(got) != len(tt.want) {
				t.Fatalf("contextBonus = %v, want %v", got, tt.want)
			}
			for id, w := range tt.want {
				if g := got[id]; g < w-1e-9 || g > w+1e-9 {
					t.Errorf("bonus[%s] = %v, want %v", id, g, w)
				}
			}
		})
	}
}

func TestFactSources(t *testing.T) {
	ids := []string{"e1", "e2", "e3", "e4", "e5"}
	tests := []struct {
		name   string
		scores map[string]float64
		n      int
		want   []string
	}{
		{"no bound keeps all in order", nil, 0, ids},
		{"few sources are kept as they are", nil, 9, ids},
		{"unscored: latest first", nil, 2, []string{"e5", "e4"}},
		{"scored sources first, best first", map[string]float64{"e2": 0.3, "e3": 0.9}, 3, []string{"e3", "e2", "e5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := factSources(ids, tt.scores, tt.n); !slices.Equal(got, tt.want) {
				t.Errorf("factSources = %v, want %v", got, tt.want)
			}
		})
	}
}
