package lore

import (
	"math"
	"testing"
)

func TestFeedbackRuleApply(t *testing.T) {
	r := DefaultFeedbackRule()
	cases := []struct {
		name    string
		old     float64
		helpful bool
		want    float64
	}{
		{"helpful from none", 0, true, 0.15},
		{"helpful to the cap", 0.5, true, 0.6},
		{"helpful at the cap", 0.6, true, 0.6},
		{"above a lowered cap stays", 0.9, true, 0.9},
		{"unhelpful", 0.6, false, 0.5},
		{"unhelpful to the floor", -0.85, false, -0.9},
		{"below a raised floor stays", -0.95, false, -0.95},
	}
	for _, c := range cases {
		if got := r.Apply(c.old, c.helpful); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: Apply(%v, %v)=%v, want %v", c.name, c.old, c.helpful, got, c.want)
		}
	}
	for _, bad := range []FeedbackRule{{HelpfulStep: -0.1}, {UnhelpfulStep: 0.1}, {MaxBoost: -1}, {MaxPenalty: -1}} {
		if bad.Validate() == nil {
			t.Errorf("Validate(%+v) accepted", bad)
		}
	}
}

func TestQueryHash(t *testing.T) {
	if QueryHash("Where does Emma live?") != QueryHash("  where DOES emma   live ") {
		t.Error("the same normalised query hashes differently")
	}
	if QueryHash("Where does Emma live?") == QueryHash("Where does Marco live?") {
		t.Error("two queries share a hash")
	}
	if QueryHash("?!") != "" || len(QueryHash("x")) != 32 {
		t.Error("a query with no words must hash to \"\", others to 32 hex characters")
	}
}
