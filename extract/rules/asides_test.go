package rules

import (
	"testing"
	"time"
)

// TestSupposedAndCoordinated covers session 21's constructions: a clause
// that "if" or "whether" opens states nothing, a move said after another
// verb phrase of the same person, a bare role before a lower-case name, a
// named person's workplace said in lower case, and "Head of …" titles.
func TestSupposedAndCoordinated(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{
			name:  "asked if",
			text:  "My neighbour asks me if Mikko is from Sweden because of the name. Whether Jonas lives in Oslo I don't know.",
			never: []triple{{s: "Mikko", p: "comes_from", o: "Sweden"}, {s: "Jonas", p: "lives_in", o: "Oslo"}},
		},
		{
			name: "stated still counts",
			text: "Mikko is from Tampere, he says.",
			want: []triple{{s: "Mikko", p: "comes_from", o: "Tampere"}},
		},
		{
			name: "and moved to",
			text: "So Pablo finished his degree and moved to Berlin for his first job.",
			want: []triple{{s: "Pablo", p: "lives_in", o: "Berlin"}},
		},
		{
			name:  "bare role, lower-case name",
			text:  "gf yui works at the hospital in umeda so she is busy lol",
			want:  []triple{{s: "user", p: "has_girlfriend", o: "Yui"}, {s: "Yui", p: "works_at", o: "hospital"}},
			never: []triple{{s: "user", p: "works_at", o: "hospital"}},
		},
		{
			name: "head of",
			text: "I have accepted a new role as Head of People at Brightway Freight.",
			want: []triple{{s: "user", p: "works_as", o: "head of people"}, {s: "user", p: "works_at", o: "Brightway Freight"}},
		},
	})
}

// TestNewPartnerNamed: "I'm seeing someone new?? his name is dev" names a
// partner; meeting "a guy" names no one the speaker dates.
func TestNewPartnerNamed(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "seeing someone", text: "also random but im seeing someone new?? his name is dev, hes a nurse", want: []triple{{s: "user", p: "dates", o: "Dev"}}},
		{name: "met someone", text: "I've met someone. Her name is Ana.", want: []triple{{s: "user", p: "dates", o: "Ana"}}},
		{name: "met a guy", text: "I met a guy at the gym. His name is Tom.", never: []triple{{s: "user", p: "dates", o: "Tom"}}},
		{name: "moved from, by role", text: "my brother Piotr is an electrician in Wrocław. || We visit my brother, he just moved a few days ago from Wrocław to Kraków.",
			want: []triple{{s: "Piotr", p: "lives_in", o: "Wrocław", ended: true}, {s: "Piotr", p: "lives_in", o: "Kraków"}}},
		{name: "have given up", text: "I have given up running, my knees hate it.", want: []triple{{s: "user", p: "does", o: "running", ended: true}}},
		{name: "acronym is no name", text: "my son dean rang from perth, hes a mining engineer, FIFO, he says the same", never: []triple{{s: "user", p: "has_son", o: "FIFO"}}},
	})
}

// TestIsMovingTo: "she's moving to Nuuk in April" is where a named person
// lives, as "I'm moving to Leeds" is the speaker's.
func TestIsMovingTo(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "is moving to", text: "my girlfriend Pipaluk is a teacher. || Pipaluk got a job there, she's moving to Nuuk in april.",
			want: []triple{{s: "Pipaluk", p: "lives_in", o: "Nuuk"}}},
	})
}
