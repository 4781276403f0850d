package retrieve

import (
	"math"
	"slices"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestNormalise(t *testing.T) {
	tests := []struct {
		name  string
		in    map[string]float64
		byMax bool
		want  map[string]float64
	}{
		{"min-max", map[string]float64{"a": 10, "b": 5, "c": 0}, false, map[string]float64{"a": 1, "b": 0.5, "c": 0}},
		{"min-max shifted", map[string]float64{"a": 0.9, "b": 0.7}, false, map[string]float64{"a": 1, "b": 0}},
		{"by max keeps ratios", map[string]float64{"a": 0.9, "b": 0.45}, true, map[string]float64{"a": 1, "b": 0.5}},
		{"by max negative to zero", map[string]float64{"a": 2, "b": -1}, true, map[string]float64{"a": 1, "b": 0}},
		{"single positive", map[string]float64{"a": 3}, false, map[string]float64{"a": 1}},
		{"all equal zero", map[string]float64{"a": 0, "b": 0}, false, map[string]float64{"a": 0, "b": 0}},
		{"by max all negative", map[string]float64{"a": -1}, true, map[string]float64{"a": 0}},
		{"empty", map[string]float64{}, false, map[string]float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := normalise(tt.in, tt.byMax)
			if len(got) != len(tt.want) {
				t.Fatalf("normalise(%v) = %v, want %v", tt.in, got, tt.want)
			}
			for id, w := range tt.want {
				if !near(got[id], w) {
					t.Fatalf("normalise(%v)[%s] = %v, want %v", tt.in, id, got[id], w)
				}
			}
		})
	}
}

func TestRanked(t *testing.T) {
	got := ranked(map[string]float64{"b": 1, "a": 1, "c": 2, "d": 0.5})
	want := []string{"c", "a", "b", "d"}
	if !slices.Equal(got, want) {
		t.Fatalf("ranked = %v, want %v (ties by id)", got, want)
	}
}

func TestFuseWeighted(t *testing.T) {
	tests := []struct {
		name    string
		signals []signal
		byMax   bool
		want    map[string]float64
		order   []string
	}{
		{
			name: "agreement beats one strong signal",
			signals: []signal{
				{Name: "bm25", Weight: 1, Scores: map[string]float64{"a": 10, "b": 8, "c": 0}},
				{Name: "dense", Weight: 1, Scores: map[string]float64{"b": 0.8, "a": 0.2, "c": 0.4}},
			},
			want:  map[string]float64{"a": 0.5, "b": (0.8 + 1) / 2, "c": (0 + 1.0/3) / 2},
			order: []string{"b", "a", "c"},
		},
		{
			name: "weights scale contributions",
			signals: []signal{
				{Name: "bm25", Weight: 3, Scores: map[string]float64{"a": 1, "b": 0}},
				{Name: "dense", Weight: 1, Scores: map[string]float64{"a": 0, "b": 1}},
			},
			want:  map[string]float64{"a": 0.75, "b": 0.25},
			order: []string{"a", "b"},
		},
		{
			name: "empty and zero-weight signals do not dilute",
			signals: []signal{
				{Name: "bm25", Weight: 1, Scores: map[string]float64{"a": 4, "b": 2}},
				{Name: "graph", Weight: 1, Scores: map[string]float64{}},
				{Name: "dense", Weight: 0, Scores: map[string]float64{"b": 1}},
			},
			byMax: true,
			want:  map[string]float64{"a": 1, "b": 0.5},
			order: []string{"a", "b"},
		},
		{
			name: "ties broken by id",
			signals: []signal{
				{Name: "bm25", Weight: 1, Scores: map[string]float64{"z": 1, "y": 1, "x": 1}},
			},
			want:  map[string]float64{"x": 1, "y": 1, "z": 1},
			order: []string{"x", "y", "z"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fuseWeighted(tt.signals, tt.byMax)
			for id, w := range tt.want {
				if !near(got.Scores[id], w) {
					t.Errorf("score[%s] = %v, want %v", id, got.Scores[id], w)
				}
			}
			if order := ranked(got.Scores); !slices.Equal(order, tt.order) {
				t.Errorf("order = %v, want %v", order, tt.order)
			}
		})
	}
}

func TestFuseWeightedAbsoluteSignals(t *testing.T) {
	got := fuseWeighted([]signal{
		{Name: "bm25", Weight: 1, Scores: map[string]float64{"a": 8, "b": 2}},
		{Name: "graph", Weight: 1, Scores: map[string]float64{"b": 0.2, "c": 1.7}, Absolute: true},
	}, true)
	want := map[string]float64{"a": 0.5, "b": (0.25 + 0.2) / 2, "c": 0.5}
	for id, w := range want {
		if !near(got.Scores[id], w) {
			t.Errorf("score[%s] = %v, want %v (absolute scores clipped, not rescaled)", id, got.Scores[id], w)
		}
	}
}

func TestFuseWeightedDetails(t *testing.T) {
	got := fuseWeighted([]signal{
		{Name: "bm25", Weight: 1, Scores: map[string]float64{"a": 2, "b": 1}},
		{Name: "graph", Weight: 1, Scores: map[string]float64{"b": 5}},
	}, true)
	if d := got.Details["b"]; !near(d["bm25"], 0.5) || !near(d["graph"], 1) {
		t.Fatalf("details[b] = %v, want bm25 0.5 and graph 1", d)
	}
	if _, ok := got.Details["a"]["graph"]; ok {
		t.Fatalf("details[a] = %v, want no graph entry for a candidate the graph did not find", got.Details["a"])
	}
}

func TestFuseRRF(t *testing.T) {
	const k = 60
	tests := []struct {
		name    string
		signals []signal
		want    map[string]float64
		order   []string
	}{
		{
			name: "ranks not scores",
			signals: []signal{
				{Name: "bm25", Weight: 1, Scores: map[string]float64{"a": 100, "b": 1}},
				{Name: "dense", Weight: 1, Scores: map[string]float64{"b": 0.9, "a": 0.89}},
			},
			// a: 1/61 + 1/62, b: 1/62 + 1/61: equal, ties by id.
			want:  map[string]float64{"a": (1.0/61 + 1.0/62) / (2.0 / 61), "b": (1.0/61 + 1.0/62) / (2.0 / 61)},
			order: []string{"a", "b"},
		},
		{
			name: "present in both beats first in one",
			signals: []signal{
				{Name: "bm25", Weight: 1, Scores: map[string]float64{"a": 9, "b": 8, "c": 7}},
				{Name: "dense", Weight: 1, Scores: map[string]float64{"c": 0.9, "d": 0.8}},
			},
			want:  map[string]float64{"a": (1.0 / 61) / (2.0 / 61), "c": (1.0/63 + 1.0/61) / (2.0 / 61)},
			order: []string{"c", "a", "b", "d"},
		},
		{
			name: "zero scores are not ranked",
			signals: []signal{
				{Name: "temporal", Weight: 1, Scores: map[string]float64{"a": 1, "b": 0}},
			},
			want:  map[string]float64{"a": 1},
			order: []string{"a"},
		},
		{
			name: "weights",
			signals: []signal{
				{Name: "bm25", Weight: 2, Scores: map[string]float64{"a": 1}},
				{Name: "dense", Weight: 1, Scores: map[string]float64{"b": 1}},
			},
			want:  map[string]float64{"a": (2.0 / 61) / (3.0 / 61), "b": (1.0 / 61) / (3.0 / 61)},
			order: []string{"a", "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fuseRRF(tt.signals, k)
			for id, w := range tt.want {
				if !near(got.Scores[id], w) {
					t.Errorf("score[%s] = %v, want %v", id, got.Scores[id], w)
				}
			}
			if order := ranked(got.Scores); !slices.Equal(order, tt.order) {
				t.Errorf("order = %v, want %v", order, tt.order)
			}
		})
	}
}

func TestAblationsStepOneSwitch(t *testing.T) {
	abl := Ablations()
	if got, want := abl[len(abl)-1].Signals, DefaultConfig().Signals; got != want {
		t.Fatalf("last ablation = %+v, want the default signals %+v", got, want)
	}
	count := func(s Signals) int {
		n := 0
		for _, on := range []bool{s.BM25, s.Dense, s.Graph, s.EntityExpansion, s.Temporal, s.Context, s.Speaker} {
			if on {
				n++
			}
		}
		return n
	}
	for i := 2; i < len(abl); i++ {
		if count(abl[i].Signals) != count(abl[i-1].Signals)+1 {
			t.Fatalf("ablation %s (%+v) is not one switch more than %s (%+v)", abl[i].Name, abl[i].Signals, abl[i-1].Name, abl[i-1].Signals)
		}
	}
}
