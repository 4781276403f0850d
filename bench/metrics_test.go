package bench

import (
	"math"
	"testing"
)

func TestScoreLevel(t *testing.T) {
	tests := []struct {
		name    string
		results [][]string
		gold    []string
		k       int
		want    map[string]float64
	}{
		{"first hit", [][]string{{"a"}, {"x"}}, []string{"a"}, 1,
			map[string]float64{RecallAny: 1, RecallAll: 1, Frac: 1, NDCG: 1}},
		{"miss at 1, hit at 3", [][]string{{"x"}, {"y"}, {"a"}}, []string{"a"}, 3,
			map[string]float64{RecallAny: 1, RecallAll: 1, Frac: 1, NDCG: 1 / math.Log2(4)}},
		{"half the gold", [][]string{{"a"}, {"x"}}, []string{"a", "b"}, 3,
			map[string]float64{RecallAny: 1, RecallAll: 0, Frac: 0.5, NDCG: 1 / (1 + 1/math.Log2(3))}},
		{"one result carries two gold turns", [][]string{{"a", "b"}}, []string{"a", "b"}, 1,
			map[string]float64{RecallAny: 1, RecallAll: 1, Frac: 1, NDCG: 1}},
		{"repeated gold counts once", [][]string{{"a"}, {"a"}, {"b"}}, []string{"a", "b"}, 3,
			map[string]float64{RecallAny: 1, RecallAll: 1, Frac: 1, NDCG: (1 + 1/math.Log2(4)) / (1 + 1/math.Log2(3))}},
		{"nothing", [][]string{{"x"}}, []string{"a"}, 10,
			map[string]float64{RecallAny: 0, RecallAll: 0, Frac: 0, NDCG: 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scoreLevel(tt.results, tt.gold)
			for m, want := range tt.want {
				if g := got[m][tt.k]; math.Abs(g-want) > 1e-9 {
					t.Errorf("%s@%d=%v, want %v", m, tt.k, g, want)
				}
			}
		})
	}
}

func TestPercentiles(t *testing.T) {
	var ms []float64
	for i := 1; i <= 100; i++ {
		ms = append(ms, float64(i))
	}
	got := percentiles(ms)
	if got.P50 != 50 || got.P95 != 95 || got.P99 != 99 {
		t.Errorf("percentiles=%+v, want 50/95/99", got)
	}
	if (percentiles(nil) != Latency{}) {
		t.Error("percentiles(nil) is not zero")
	}
}

func TestAccumulatorSkipsMissingGold(t *testing.T) {
	a := newAccumulator()
	a.add(ranked{turns: [][]string{{"a"}}, sessions: [][]string{{"s"}}, chars: []int{10}}, nil, []string{"s"})
	a.add(ranked{turns: [][]string{{"b"}}, sessions: [][]string{{"t"}}, chars: []int{30}}, []string{"b"}, []string{"s"})
	s := a.scores()
	if s.Turn[RecallAny]["1"] != 1 {
		t.Errorf("turn recall_any@1=%v, want 1 (the question without gold turns is not counted)", s.Turn[RecallAny]["1"])
	}
	if s.Session[RecallAny]["1"] != 0.5 {
		t.Errorf("session recall_any@1=%v, want 0.5", s.Session[RecallAny]["1"])
	}
	if s.Chars["1"] != 20 || s.Questions != 2 {
		t.Errorf("chars@1=%v questions=%d, want 20 and 2", s.Chars["1"], s.Questions)
	}
}
