package retrieve

import (
	"testing"

	"github.com/lore-memory/lore"
)

func TestAsksStill(t *testing.T) {
	for q, want := range map[string]bool{
		"Do I still play futsal on Saturdays?": true,
		"Am I vegetarian anymore?":             true,
		"Is Tom no longer my boss?":            true,
		"What sport do I play?":                false,
		"Where do I work now?":                 false,
	} {
		if got := asksStill(words(q)); got != want {
			t.Errorf("asksStill(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestApplyEndingCue: of the turns about futsal, the one that says it
// stopped is lifted; an ending about something else and a turn that only
// mentions futsal are not.
func TestApplyEndingCue(t *testing.T) {
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}}
	for _, e := range []*lore.Episode{
		{ID: "play", Content: "I also play futsal saturdays so dont put study there"},
		{ID: "quit", Content: "bad news I quit futsal, twisted my ankle"},
		{ID: "other", Content: "I quit the gym last month"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	f := fused{Scores: map[string]float64{"play": 0.5, "quit": 0.4, "other": 0.3}, Details: map[string]map[string]float64{}}
	applyEndingCue(c, f, []string{"play", "futsal", "saturdays"}, 0.3)
	if got := f.Scores["quit"]; got < 0.519 || got > 0.521 {
		t.Errorf("quit = %v, want 0.52", got)
	}
	if f.Scores["play"] != 0.5 || f.Scores["other"] != 0.3 {
		t.Errorf("scores %v: only the ending turn about futsal moves", f.Scores)
	}
}
