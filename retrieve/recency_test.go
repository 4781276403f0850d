package retrieve

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func TestAsksCurrent(t *testing.T) {
	for q, want := range map[string]bool{
		"Where do I work now?":            true,
		"Do I still run?":                 true,
		"What's my current job title?":    true,
		"What am I reading these days?":   true,
		"Where did I work in 2019?":       false,
		"What did Caroline paint?":        false,
		"What days do I have yoga class?": false,
	} {
		if got := asksCurrent(words(q)); got != want {
			t.Errorf("asksCurrent(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestApplyRecency(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &candidateSet{
		kind: map[string]lore.DocKind{"old": lore.KindEpisode, "mid": lore.KindFact, "new": lore.KindEpisode},
		episodes: map[string]*lore.Episode{
			"old": {ID: "old", OccurredAt: t0},
			"new": {ID: "new", OccurredAt: t0.AddDate(0, 0, 10)},
		},
		facts: map[string]*lore.Fact{"mid": {ID: "mid", LastSeen: t0.AddDate(0, 0, 5)}},
	}
	f := fused{Scores: map[string]float64{"old": 1, "mid": 1, "new": 1}, Details: map[string]map[string]float64{}}
	applyRecency(c, f, 0.4)
	for id, want := range map[string]float64{"old": 0.6, "mid": 0.8, "new": 1} {
		if got := f.Scores[id]; got < want-1e-9 || got > want+1e-9 {
			t.Errorf("%s: score %v, want %v", id, got, want)
		}
	}
}

func TestAsksPresent(t *testing.T) {
	for q, want := range map[string]bool{
		"Which city do I live in?":    true,
		"Who is my landlord?":         true,
		"What phone do I have?":       true,
		"Where did I live in 2022?":   false,
		"What was my first car?":      false,
		"Where does my sister live?":  false,
		"Who did I meet first, Mark?": false,
	} {
		if got := asksPresent(words(q)); got != want {
			t.Errorf("asksPresent(%q) = %v, want %v", q, got, want)
		}
	}
}
