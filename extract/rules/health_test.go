package rules

import (
	"testing"
	"time"
)

// TestHealthConditions: conditions the speaker has, present tense only;
// "diagnosed with" takes any words.
func TestHealthConditions(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "diagnosed", text: "I was diagnosed with type 2 diabetes last year so I have to watch sugar.", want: []triple{{s: "user", p: "has_condition", o: "type 2 diabetes"}}},
		{name: "have", text: "I have asthma, so no smoky rooms please.", want: []triple{{s: "user", p: "has_condition", o: "asthma"}}},
		{name: "live with", text: "I live with multiple sclerosis and some days are hard.", want: []triple{{s: "user", p: "has_condition", o: "multiple sclerosis"}}},
		{name: "a title, not MS", text: "I live with Ms Perez, my landlady, near the park.", never: []triple{{s: "user", p: "has_condition", o: "Ms"}}},
		{name: "past", text: "I had asthma as a kid but grew out of it.", never: []triple{{s: "user", p: "has_condition", o: "asthma"}}},
		{name: "negated", text: "I don't have diabetes, thankfully.", never: []triple{{s: "user", p: "has_condition", o: "diabetes"}}},
		{name: "not a condition", text: "I have added the file and I have a meeting at noon.", never: []triple{{s: "user", p: "has_condition", o: "added"}}},
	})
}

// TestStudiesAt: where the speaker studies, said after the field or the
// degree.
func TestStudiesAt(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "studying at", text: "I'm studying architecture at TU Delft.", want: []triple{{s: "user", p: "major", o: "architecture"}, {s: "user", p: "studies_at", o: "TU Delft"}}},
		{name: "masters at", text: "I'm doing a masters in data science at Edinburgh.", want: []triple{{s: "user", p: "studies_at", o: "Edinburgh"}}},
		{name: "degree at", text: "I'm in my second year of a law degree at UCT.", want: []triple{{s: "user", p: "major", o: "law"}, {s: "user", p: "studies_at", o: "UCT"}}},
		{name: "student of", text: "I'm a second year student of economics at the University of Ghana.", want: []triple{{s: "user", p: "major", o: "economics"}, {s: "user", p: "studies_at", o: "University of Ghana"}},
			never: []triple{{s: "user", p: "works_at", o: "University of Ghana"}}},
		{name: "a place, not a school", text: "I'm studying for exams at the library these days.", never: []triple{{s: "user", p: "studies_at", o: "Library"}}},
	})
}
