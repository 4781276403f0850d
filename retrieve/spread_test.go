package retrieve

import (
	"slices"
	"testing"
	"time"
)

func TestAggregates(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{"How many concerts did I go to this year?", true},
		{"How much did I spend on gifts for my sister?", true},
		{"What is the total distance I covered?", true},
		{"Which trip did I take first, the one to Europe or the one to Thailand?", true},
		{"How many days passed between the two events?", true},
		{"What is the order of the concerts I attended?", true},
		{"Where did I go first on my trip?", false},
		{"What is my sister's name?", false},
		{"How did Melanie feel at the concert?", false},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := aggregates(words(tt.query)); got != tt.want {
				t.Errorf("aggregates = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSpreadTop(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2023, 5, d, 10, 0, 0, 0, time.UTC) }
	res := func(id string, score float64, days ...int) Result {
		r := Result{ID: id, Score: score}
		for _, d := range days {
			r.Sources = append(r.Sources, Source{OccurredAt: day(d)})
		}
		return r
	}
	in := []Result{
		res("a1", 0.9, 1),
		res("a2", 0.8, 1),
		res("f", 0.7, 1, 2), // a fact that also brings day 2
		res("a3", 0.6, 1),
		res("c1", 0.5, 3),
		res("b2", 0.4, 2),
		res("d1", 0.3, 4),
	}
	ids := func(rs []Result) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	got := spreadTop(in, 3, time.Hour)
	if want := []string{"a1", "f", "c1", "a2", "a3", "b2", "d1"}; !slices.Equal(ids(got), want) {
		t.Fatalf("spreadTop = %v, want %v", ids(got), want)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Score > got[i-1].Score {
			t.Fatalf("scores rise at %d: %v after %v", i, got[i].Score, got[i-1].Score)
		}
	}
	if got := spreadTop(in, 0, time.Hour); !slices.Equal(ids(got), ids(in)) {
		t.Errorf("spreadTop with n=0 = %v, want the order unchanged", ids(got))
	}
}
