package retrieve

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestApplySupersession: a later user turn that changes the answer of
// earlier, better-ranked candidates takes the place of the best of them,
// and they fall just below it; a candidate the later turn does not touch,
// a later candidate, a negated change and a change said after the as-of
// time move nothing.
func TestApplySupersession(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2024, 1, d, 12, 0, 0, 0, time.UTC) }
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}}
	for _, e := range []*lore.Episode{
		{ID: "old", Role: "user", OccurredAt: day(1), Content: "Here's my week.\n- Gym: Planet Fitness, 5am\n- Car: Honda Odyssey"},
		{ID: "car", Role: "user", OccurredAt: day(2), Content: "My Odyssey needs new tyres. Gym is fine."},
		{ID: "new", Role: "user", OccurredAt: day(5), Content: "Stuff changed:\n- I canceled Planet Fitness and joined the YMCA"},
		{ID: "later", Role: "user", OccurredAt: day(9), Content: "Planet Fitness sent me a letter"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	c.facts["fact"] = &lore.Fact{ID: "fact", Object: "Planet Fitness", LastSeen: day(1)}
	c.kind["fact"] = lore.KindFact
	f := fused{Scores: map[string]float64{"old": 0.8, "fact": 0.7, "car": 0.6, "later": 0.55, "new": 0.5}, Details: map[string]map[string]float64{}}
	applySupersession(c, f, []string{"gym", "member"}, 10, asOf{T: day(10), Now: day(10)}, func(string) bool { return false })
	if f.Scores["new"] != 0.8 || f.Details["new"][SignalSupersedes] == 0 {
		t.Errorf("new = %v (details %v), want 0.8, old's place", f.Scores["new"], f.Details["new"])
	}
	for _, id := range []string{"old", "fact"} {
		if got := f.Scores[id]; got >= 0.8 || got < 0.79 {
			t.Errorf("%s = %v, want just below new (0.8)", id, got)
		}
		if f.Details[id][SignalSuperseded] == 0 {
			t.Errorf("%s has no %s detail", id, SignalSuperseded)
		}
	}
	if f.Scores["car"] != 0.6 || f.Scores["later"] != 0.55 {
		t.Errorf("scores %v: the car turn and the later turn keep theirs", f.Scores)
	}

	// "not giving up" is no change.
	c.episodes["new"].Content = "Stuff: I'm not giving up Planet Fitness"
	f = fused{Scores: map[string]float64{"old": 0.8, "new": 0.5}, Details: map[string]map[string]float64{}}
	applySupersession(c, f, []string{"gym"}, 10, asOf{T: day(10), Now: day(10)}, func(string) bool { return false })
	if f.Scores["old"] != 0.8 || f.Scores["new"] != 0.5 {
		t.Errorf("negated change moved scores: %v", f.Scores)
	}
	c.episodes["new"].Content = "Stuff changed:\n- I canceled Planet Fitness and joined the YMCA"

	// As of before the change, nothing is superseded.
	f = fused{Scores: map[string]float64{"old": 0.8, "new": 0.5}, Details: map[string]map[string]float64{}}
	applySupersession(c, f, []string{"gym"}, 10, asOf{T: day(3), Now: day(10), Explicit: true}, func(string) bool { return false })
	if f.Scores["old"] != 0.8 {
		t.Errorf("as of day 3, old = %v, want 0.8", f.Scores["old"])
	}
}

// TestAsksPast: a past-tense question asks what held then; supersession
// leaves it alone.
func TestAsksPast(t *testing.T) {
	for q, want := range map[string]bool{
		"Which firm was I working for?":   true,
		"What did I drive before?":        true,
		"Where does my sister live?":      false,
		"Which gym am I a member of?":     false,
		"What instrument do I play now?":  false,
		"What car did we have last year?": true,
	} {
		if got := asksPast(words(q)); got != want {
			t.Errorf("asksPast(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestKeepBelow: a superseded result that turn evidence lifted above the
// turn that superseded it goes back just below it, in score order.
func TestKeepBelow(t *testing.T) {
	f := fused{Scores: map[string]float64{"fact": 1.2, "new": 1.0, "other": 0.5}, Details: map[string]map[string]float64{"fact": {SignalSuperseded: 0.99}}}
	results := []Result{{ID: "fact", Score: 1.2}, {ID: "new", Score: 1.0}, {ID: "other", Score: 0.5}}
	got := keepBelow(results, map[string]string{"fact": "new"}, f)
	if got[0].ID != "new" || got[1].ID != "fact" || got[1].Score != 0.99 || f.Scores["fact"] != 0.99 {
		t.Errorf("got %+v, want new, then fact at 0.99", got)
	}
}
