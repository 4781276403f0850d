package rules

import (
	"testing"
	"time"
)

// TestHereIn: "here in X" said by the speaker about their life is where
// they live; a visit is not.
func TestHereIn(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "work here", text: "I run a small bakery here in Tampere and the winters are slow",
			want: []triple{{s: "user", p: "lives_in", o: "Tampere"}}},
		{name: "visit", text: "We are here in Lisbon for the week, any tips for dinner?",
			never: []triple{{s: "user", p: "lives_in", o: "Lisbon"}}},
		{name: "new place", text: "new place is in Tema, sharing with my cousin",
			want: []triple{{s: "user", p: "lives_in", o: "Tema"}}},
		{name: "a month", text: "I'm here in June for the wedding",
			never: []triple{{s: "user", p: "lives_in", o: "June"}}},
	})
}

// TestStatementBeforeQuestion: the statement before a trailing question
// stays, whether a comma, a semicolon or a dash sets the question off.
func TestStatementBeforeQuestion(t *testing.T) {
	for in, want := range map[string]string{
		"I code in Vim all day and my wrists hurt, any tips?":                           "I code in Vim all day and my wrists hurt.",
		"I moved to Leeds last month and the flat is tiny — any storage ideas?":         "I moved to Leeds last month and the flat is tiny.",
		"We adopted a greyhound called Pip in May; should we crate train him?":          "We adopted a greyhound called Pip in May.",
		"Can you help me plan a trip?":                                                  "",
		"ok — what now?":                                                                "",
		"My sister lives in Oslo, what do you think about the weather there in spring?": "My sister lives in Oslo.",
	} {
		if got := statementBeforeQuestion(in); got != want {
			t.Errorf("statementBeforeQuestion(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLeftOutSubject: an opening adverb or verb means the speaker left out
// "I", unless the next word is the sentence's own subject.
func TestLeftOutSubject(t *testing.T) {
	for in, want := range map[string]bool{
		"Just got back from Rome":                    true,
		"also went to the gym with Sara":             true,
		"Also keto did not suit me":                  false,
		"also sundays I'm at my dad's":               false,
		"Finally the landlord was fixing the boiler": false,
	} {
		if got := leftOutSubject(in); got != want {
			t.Errorf("leftOutSubject(%q) = %v, want %v", in, got, want)
		}
	}
}
