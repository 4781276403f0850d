package retrieve

import (
	"testing"

	"github.com/lore-memory/lore"
)

func TestAboutOthers(t *testing.T) {
	want := stemSet("What truck do I drive?")
	for text, others := range map[string]bool{
		"my brother curtis is a firefighter. he drives an f-150 and keeps tellin me to trade mine": true,
		"My brother drives a truck for Sysco":                                                      true,
		"I drive a 2016 silverado with the ladder rack":                                            false,
		"he drives an f-150, but I drive the silverado":                                            false, // one clause is the speaker's
		"Curtis says hi":          false, // no topic word
		"got a new truck finally": false, // nobody named: not someone else
		"my wife bozena, she still works in the pharmacy and drives the kids to school every day": true,
	} {
		if got := aboutOthers(text, want); got != others {
			t.Errorf("aboutOthers(%q) = %v, want %v", text, got, others)
		}
	}
}

func TestNamesSomeone(t *testing.T) {
	for q, want := range map[string]bool{
		"Who did I meet first, Mark and Sarah or Tom?": true,
		"What truck do I drive?":                       false,
		"Where do I live now? I'm confused":            false,
		"Which city do I live in?":                     false,
	} {
		if got := namesSomeone(q); got != want {
			t.Errorf("namesSomeone(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestApplyOtherSubject: for a query about the user alone, another
// person's fact and a turn about another person's truck go down; the
// user's own fact and turn keep their scores.
func TestApplyOtherSubject(t *testing.T) {
	user := &lore.Entity{ID: "u", Type: lore.UserEntityType}
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}}
	for _, f := range []*lore.Fact{
		{ID: "mine", SubjectID: "u", Predicate: "drives", Object: "Silverado"},
		{ID: "his", SubjectID: "curtis", Predicate: "drives", Object: "F-150"},
	} {
		c.facts[f.ID], c.kind[f.ID] = f, lore.KindFact
	}
	for _, e := range []*lore.Episode{
		{ID: "own", Content: "I drive a silverado w the ladder rack"},
		{ID: "brother", Content: "my brother curtis drives an f-150"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	f := fused{Scores: map[string]float64{"mine": 0.4, "his": 0.8, "own": 0.5, "brother": 0.6}, Details: map[string]map[string]float64{}}
	applyOtherSubject(c, f, []string{"truck", "drive"}, user, 0.5)
	want := map[string]float64{"mine": 0.4, "his": 0.4, "own": 0.5, "brother": 0.3}
	for id, v := range want {
		if got := f.Scores[id]; got < v-1e-9 || got > v+1e-9 {
			t.Errorf("%s = %v, want %v", id, got, v)
		}
	}
}
