package retrieve

import (
	"testing"

	"github.com/lore-memory/lore"
)

func TestFocusSpeaker(t *testing.T) {
	eps := map[string]*lore.Episode{
		"1": {Speaker: "Caroline"},
		"2": {Speaker: "Melanie Jones"},
		"3": {Speaker: ""},
	}
	tests := []struct {
		query string
		want  string
	}{
		{"What did Caroline paint?", "caroline"},
		{"What did Caroline's kids paint?", "caroline"},
		{"Where does Melanie go camping?", "melanie jones"},
		{"What did Melanie Jones buy?", "melanie jones"},
		{"What did Caroline and Melanie both paint?", ""},
		{"What did I paint?", ""},
		{"What did Jones buy?", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, all := focusSpeaker(words(tt.query), eps)
			if got != tt.want {
				t.Errorf("focusSpeaker = %q, want %q", got, tt.want)
			}
			if !all["caroline"] || !all["melanie jones"] || len(all) != 2 {
				t.Errorf("speakers = %v, want caroline and melanie jones", all)
			}
		})
	}
}

func TestApplySpeakerFocus(t *testing.T) {
	c := &candidateSet{
		kind: map[string]lore.DocKind{"ep-c": lore.KindEpisode, "ep-m": lore.KindEpisode, "f-c": lore.KindFact, "f-m": lore.KindFact, "f-x": lore.KindFact},
		episodes: map[string]*lore.Episode{
			"ep-c": {Speaker: "Caroline"},
			"ep-m": {Speaker: "Melanie"},
		},
		facts: map[string]*lore.Fact{
			"f-c": {Subject: "Caroline"},
			"f-m": {Subject: "Melanie"},
			"f-x": {Subject: "the museum"},
		},
	}
	f := fused{Scores: map[string]float64{"ep-c": 1, "ep-m": 1, "f-c": 1, "f-m": 1, "f-x": 1}, Details: map[string]map[string]float64{}}
	applySpeakerFocus(c, f, "caroline", map[string]bool{"caroline": true, "melanie": true}, 0.3)
	want := map[string]float64{"ep-c": 1, "ep-m": 0.3, "f-c": 1, "f-m": 0.3, "f-x": 1}
	for id, w := range want {
		if f.Scores[id] != w {
			t.Errorf("score[%s] = %v, want %v", id, f.Scores[id], w)
		}
	}
	if f.Details["ep-m"][SignalSpeaker] != 0.3 || f.Details["ep-c"] != nil {
		t.Errorf("details = %v, want the factor on the other speaker's turn only", f.Details)
	}
}

func TestWithoutSpeakers(t *testing.T) {
	speakers := []string{"Caroline", "Melanie Jones", "Al"}
	tests := []struct{ query, want string }{
		{"What did Caroline paint?", "What did paint?"},
		{"What did Caroline's kids paint?", "What did kids paint?"},
		{"What did Caroline’s kids paint?", "What did kids paint?"},
		{"Where does Melanie go camping?", "Where does go camping?"},
		{"What did Melanie Jones buy?", "What did buy?"},
		{"How do Caroline and Melanie know each other?", "How do and know each other?"},
		// Names match whole words only, and a surname alone names nobody.
		{"What did Carolines paint?", "What did Carolines paint?"},
		{"What did Jones buy?", "What did Jones buy?"},
		{"Did Alice meet Al?", "Did Alice meet?"},
		{"What did I paint?", "What did I paint?"},
		// Nothing but the name: kept whole.
		{"Caroline?", "Caroline?"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := withoutSpeakers(tt.query, words(tt.query), speakers); got != tt.want {
				t.Errorf("withoutSpeakers = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAsksAssistant(t *testing.T) {
	for q, want := range map[string]bool{
		"What did you recommend for dinner?":      true,
		"Remind me what you said about Rome":      true,
		"What was your suggestion for the trip?":  true,
		"Can you tell me where my sister lives?":  true,
		"Where does my sister live?":              false,
		"Did I tell you about my new job?":        false,
		"How do you like my new apartment, Anna?": false,
	} {
		if got := asksAssistant(words(q)); got != want {
			t.Errorf("asksAssistant(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestApplyAssistantFactor(t *testing.T) {
	c := &candidateSet{
		kind: map[string]lore.DocKind{"u": lore.KindEpisode, "a": lore.KindEpisode, "f": lore.KindFact},
		episodes: map[string]*lore.Episode{
			"u": {ID: "u", Role: "user"},
			"a": {ID: "a", Role: "assistant"},
		},
		facts: map[string]*lore.Fact{"f": {ID: "f"}},
	}
	f := fused{Scores: map[string]float64{"u": 0.5, "a": 0.8, "f": 0.6}, Details: map[string]map[string]float64{}}
	applyAssistantFactor(c, f, 0.5)
	if f.Scores["a"] != 0.4 || f.Scores["u"] != 0.5 || f.Scores["f"] != 0.6 {
		t.Fatalf("scores = %v, want only the assistant turn halved", f.Scores)
	}
	if f.Details["a"][SignalAssistant] != 0.5 {
		t.Fatalf("details = %v, want the factor recorded", f.Details["a"])
	}
}
