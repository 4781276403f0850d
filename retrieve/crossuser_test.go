package retrieve

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestLaplaceNoiseMatchesEpsilon releases the collaborative table many
// times and estimates the noise scale empirically: for Laplace(b) the mean
// absolute deviation is b and the variance 2b², and b must be 1/ε (each
// user's contribution has L1 norm ≤ 1).
func TestLaplaceNoiseMatchesEpsilon(t *testing.T) {
	var stats []lore.FeatureVerdict
	for u := range 40 {
		stats = append(stats, lore.FeatureVerdict{UserID: fmt.Sprint("u", u), Feature: "fact:works_at", Helpful: 1 + u%3})
	}
	truth := 40.0
	for _, eps := range []float64{1, 2, 5} {
		r := rand.New(rand.NewPCG(7, uint64(eps*10)))
		const n = 10000
		var mad, sq float64
		for range n {
			d := noisyNet(stats, eps, r)["fact:works_at"] - truth
			mad += math.Abs(d)
			sq += d * d
		}
		b := mad / n
		if want := 1 / eps; math.Abs(b-want)/want > 0.05 {
			t.Errorf("ε=%v: empirical scale %.4f, want %.4f (±5%%)", eps, b, want)
		}
		if want := 2 / (eps * eps); math.Abs(sq/n-want)/want > 0.1 {
			t.Errorf("ε=%v: empirical variance %.4f, want %.4f (±10%%)", eps, sq/n, want)
		}
	}
}

func TestUserContributionCapped(t *testing.T) {
	c := userContributions([]lore.FeatureVerdict{
		{UserID: "heavy", Feature: "fact:a", Helpful: 1000},
		{UserID: "wide", Feature: "fact:a", Helpful: 1}, {UserID: "wide", Feature: "fact:b", Unhelpful: 3},
		{UserID: "wide", Feature: "fact:c", Helpful: 2}, {UserID: "wide", Feature: "fact:d", Helpful: 1, Unhelpful: 1},
	})
	if c["heavy"]["fact:a"] != 1 {
		t.Errorf("1000 verdicts contribute %v, want 1", c["heavy"]["fact:a"])
	}
	l1 := 0.0
	for _, v := range c["wide"] {
		l1 += math.Abs(v)
	}
	if l1 > 1+1e-9 || c["wide"]["fact:b"] != -0.25 || c["wide"]["fact:d"] != 0 {
		t.Errorf("wide user's contributions %v (L1 %v), want each ±1/4 or 0, L1 ≤ 1", c["wide"], l1)
	}
}

func TestCollaborativeGated(t *testing.T) {
	cfg := DefaultCollaborative()
	cfg.Weight = 1
	var stats []lore.FeatureVerdict
	for u := range 999 {
		stats = append(stats, lore.FeatureVerdict{UserID: fmt.Sprint("u", u), Feature: "fact:a", Helpful: 200})
	}
	r := rand.New(rand.NewPCG(1, 1))
	if collaborativeTable(stats, cfg, r) != nil {
		t.Fatal("999 users: the boost ran, want it gated off below 1,000 users")
	}
	stats = append(stats, lore.FeatureVerdict{UserID: "u999", Feature: "fact:b", Helpful: 1})
	if got := collaborativeTable(stats, cfg, r); got == nil || got["fact:a"] != 1 || got["fact:b"] >= 0.1 {
		t.Fatalf("1,000 users, 199,801 interactions: table %v, want fact:a at 1 and fact:b near 0", got)
	}
	few := []lore.FeatureVerdict{}
	for u := range 2000 {
		few = append(few, lore.FeatureVerdict{UserID: fmt.Sprint("u", u), Feature: "fact:a", Helpful: 1})
	}
	if collaborativeTable(few, cfg, r) != nil {
		t.Fatal("2,000 interactions: the boost ran, want it gated off below 100,000")
	}
	cfg.Epsilon = 0.5
	if cfg.Validate() == nil {
		t.Fatal("ε 0.5 accepted, want 1–5")
	}
}

func TestCohortPriorsAndFade(t *testing.T) {
	for n, want := range map[int]float64{0: 1, 10: 0.5, 30: 0.25, 90: 0.1} {
		if got := fade(n, 10); math.Abs(got-want) > 1e-9 {
			t.Errorf("fade(%d)=%v, want %v", n, got, want)
		}
	}
	tb := &crossTables{
		stats: []lore.FeatureVerdict{
			{UserID: "a", Feature: "fact:works_at", Helpful: 3}, {UserID: "b", Feature: "fact:works_at", Helpful: 1, Unhelpful: 1},
			{UserID: "c", Feature: "fact:works_at", Helpful: 2}, {UserID: "x", Feature: "fact:works_at", Unhelpful: 9},
			{UserID: "new", Feature: "fact:diet", Helpful: 1},
		},
		attrs: map[string]map[string]string{
			"a": {"role": "nurse", "locale": "fr"}, "b": {"role": "nurse", "locale": "fr"}, "c": {"role": "nurse", "locale": "fr"},
			"x": {"role": "pilot", "locale": "fr"}, "new": {"role": "nurse", "locale": "fr"},
		},
	}
	cfg := DefaultColdStart()
	cfg.Keys = []string{"role", "locale"}
	priors, own := cohortPriors(tb, "new", cfg)
	if own != 1 || math.Abs(priors["fact:works_at"]-7.0/9) > 1e-9 {
		t.Fatalf("priors=%v own=%d, want works_at (6+1)/(7+2) from a, b, c (not the pilot) and 1 own verdict", priors, own)
	}
	cfg.MinCohort = 4
	if p, _ := cohortPriors(tb, "new", cfg); p != nil {
		t.Fatalf("a cohort of 3 gave priors with MinCohort 4")
	}
}

type fixedAttrs map[string]map[string]string

func (f fixedAttrs) UserAttributes(context.Context, string) (map[string]map[string]string, error) {
	return f, nil
}

// countingStore counts FeatureVerdicts calls, to check the TTL cache.
type countingStore struct {
	lore.FeedbackStore
	stats []lore.FeatureVerdict
	calls int
}

func (c *countingStore) FeatureVerdicts(context.Context, string) ([]lore.FeatureVerdict, error) {
	c.calls++
	return c.stats, nil
}

func TestCrossUserReleaseCachedPerWindow(t *testing.T) {
	var stats []lore.FeatureVerdict
	for u := range 5 {
		stats = append(stats, lore.FeatureVerdict{UserID: fmt.Sprint("u", u), Feature: "fact:a", Helpful: 1})
	}
	st := &countingStore{stats: stats}
	x := &CrossUser{Store: st, Attributes: fixedAttrs{}, TTL: time.Minute, Rand: rand.New(rand.NewPCG(3, 4))}
	cfg := Collaborative{Weight: 1, Epsilon: 1}
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	a, err := x.tables(context.Background(), "t", cfg, now)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := x.tables(context.Background(), "t", cfg, now.Add(30*time.Second))
	if st.calls != 1 || a.collab["fact:a"] != b.collab["fact:a"] {
		t.Fatalf("within the TTL: %d builds, releases %v and %v; want one build, the same noise", st.calls, a.collab, b.collab)
	}
	x.tables(context.Background(), "t", cfg, now.Add(2*time.Minute))
	if st.calls != 2 {
		t.Fatalf("after the TTL: %d builds, want 2", st.calls)
	}
}
