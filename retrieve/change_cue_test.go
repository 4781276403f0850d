package retrieve

import (
	"testing"

	"github.com/lore-memory/lore"
)

// TestApplyChangeCue: among the best user turns, the one that says a value
// changed is lifted; a change said by the assistant, or by a turn outside
// the best ones, is not.
func TestApplyChangeCue(t *testing.T) {
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}}
	for _, e := range []*lore.Episode{
		{ID: "old", Role: "user", Content: "my phone is an iphone 11 and the screen cracked"},
		{ID: "new", Role: "user", Content: "got a galaxy s23 in the end, the iphone was beyond saving"},
		{ID: "bot", Role: "assistant", Content: "Good call, you switched to a phone with a bigger battery"},
		{ID: "far", Role: "user", Content: "I quit the choir last week"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	f := fused{Scores: map[string]float64{"old": 0.6, "new": 0.5, "bot": 0.55, "far": 0.1}, Details: map[string]map[string]float64{}}
	applyChangeCue(c, f, 2, 0.5)
	if got := f.Scores["new"]; got < 0.749 || got > 0.751 {
		t.Errorf("new = %v, want 0.75", got)
	}
	if f.Scores["old"] != 0.6 || f.Scores["bot"] != 0.55 || f.Scores["far"] != 0.1 {
		t.Errorf("scores %v: only the changed user turn among the best two moves", f.Scores)
	}
	if d := f.Details["new"][SignalChangeCue]; d != 1.5 {
		t.Errorf("detail %v, want 1.5", d)
	}
}
