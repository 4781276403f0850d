package retrieve

import (
	"testing"

	"github.com/lore-memory/lore"
)

func TestSaysCorrection(t *testing.T) {
	for text, want := range map[string]bool{
		"Not Banff, Jasper. Banff's too busy":                        true,
		"haha no, i do spanish not french":                           true,
		"oh sorry I didn't say. not Bangkok, Seoul!":                 true,
		"mmm no, martin teaches historia not math jaja":              true,
		"One small correction: Emily attends Ohio State":             true,
		"kochi not kozhikode, totaly diff city pls fix":              true,
		"Helga was never a teacher":                                  true,
		"We go to Portugal in July, 12 days":                         false,
		"I'm definitely not going to the party":                      false,
		"I do not like mushrooms":                                    false,
		"No problem at all" + " – thanks!":                           true, // an opening "no": lifted only with a topic word
		"Nobody told me the meeting moved":                           false,
		"It's not that I mind, I just forgot":                        false,
		"The kids are not at school today, they have a holiday here": false,
	} {
		if got := saysCorrection(words(text)); got != want {
			t.Errorf("saysCorrection(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestApplyCorrectionCue: the turn that corrects the trip's city is lifted
// above the turn it corrects; a correction about something else is not.
func TestApplyCorrectionCue(t *testing.T) {
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}}
	for _, e := range []*lore.Episode{
		{ID: "plan", Content: "can you plan a 5 day trip in October with my boyfriend Khoa? thinking Bangkok"},
		{ID: "fix", Content: "oh sorry I didn't say. not Bangkok, Seoul! Khoa's sister said autumn there is pretty"},
		{ID: "other", Content: "no, the budget is 2000 not 1500"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	f := fused{Scores: map[string]float64{"plan": 0.5, "fix": 0.4, "other": 0.3}, Details: map[string]map[string]float64{}}
	applyCorrectionCue(c, f, []string{"khoa", "october", "trip"}, 0.3)
	if got := f.Scores["fix"]; got < 0.519 || got > 0.521 {
		t.Errorf("fix = %v, want 0.52", got)
	}
	if f.Scores["plan"] != 0.5 || f.Scores["other"] != 0.3 {
		t.Errorf("scores %v: only the correction about the trip moves", f.Scores)
	}
}
