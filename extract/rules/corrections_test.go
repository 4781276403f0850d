package rules

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestExtractAsidesAndCorrections covers facts said in passing about named
// people (bare roles in notes, appositive jobs, sentences that open with a
// role and name) and values corrected or replaced without change words.
func TestExtractAsidesAndCorrections(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name, text string
		cands      []*lore.Fact
		want       []triple
		never      []triple
		subjects   map[string]string // fact text prefix → its subject
	}{
		{
			name: "bare role in notes", text: "Some facts:\n- based in Pune\n- wife Meera is a cardiologist at Ruby Hall Clinic, long shifts",
			want:  []triple{{s: "user", p: "has_wife", o: "Meera"}, {s: "Meera", p: "works_as", o: "cardiologist"}, {s: "Meera", p: "works_at", o: "Ruby Hall Clinic"}},
			never: []triple{{s: "wife Meera", p: "works_as", o: "cardiologist"}},
		},
		{
			name: "capitalised bare role", text: "Wife Abena is a pharmacist at Boots, steady pay thankfully.",
			want:  []triple{{s: "user", p: "has_wife", o: "Abena"}, {s: "Abena", p: "works_at", o: "Boots"}},
			never: []triple{{s: "Wife Abena", p: "works_at", o: "Boots"}},
		},
		{
			name: "who is a", text: "My nephew Oliver, who is an architect, is visiting next weekend.",
			want: []triple{{s: "user", p: "has_nephew", o: "Oliver"}, {s: "Oliver", p: "works_as", o: "architect"}},
		},
		{
			name: "job in brackets", text: "I live in Bologna with my partner Luca (he's a sound engineer) and our son.",
			want: []triple{{s: "Luca", p: "works_as", o: "sound engineer"}},
		},
		{
			name: "a pronoun means someone named before it", text: "My son Mateo is bringing his new girlfriend, Keisha, and my brother Ernesto is driving up.",
			want:  []triple{{s: "Mateo", p: "has_girlfriend", o: "Keisha"}},
			never: []triple{{s: "Ernesto", p: "has_girlfriend", o: "Keisha"}},
		},
		{
			name: "a named person's diet and allergy", text: "Also my neighbor Mr. Hadley is diabetic and will be joining us. || My nephew Sam is allergic to peanuts, so no satay.",
			want: []triple{{s: "Mr. Hadley", p: "diet", o: "diabetic"}, {s: "Sam", p: "allergic_to", o: "peanuts"}},
		},
		{
			name: "a caller's place", text: "Sunday is lunch with my son Daniel, and my grandson Tomás calls me from Córdoba, he studies medicine there.",
			want: []triple{{s: "Tomás", p: "lives_in", o: "Córdoba"}},
		},
		{
			name: "a person by role in a place", text: "Good. Also Otieno's brother Ochieng in Kisumu wants to borrow 20,000. || my cousin Jake from Leeds is coming. || my sister Emma in March will visit.",
			want:  []triple{{s: "Otieno", p: "has_brother", o: "Ochieng"}, {s: "Ochieng", p: "lives_in", o: "Kisumu"}, {s: "Jake", p: "lives_in", o: "Leeds"}},
			never: []triple{{s: "Also Otieno", p: "has_brother", o: "Ochieng"}, {s: "Emma", p: "lives_in", o: "March"}},
		},
		{
			name: "visiting from", text: "By the way, Naomi's brother Kenji is visiting us from Sapporo this week.",
			want: []triple{{s: "Naomi", p: "has_brother", o: "Kenji"}, {s: "Kenji", p: "lives_in", o: "Sapporo"}},
		},
		{name: "profession by suffix", text: "My friend Sam is a dermatologist.", want: []triple{{s: "Sam", p: "works_as", o: "dermatologist"}}},
		{name: "a job there", text: "Kenji is a software engineer there, and he says my code is messy.", want: []triple{{s: "Kenji", p: "works_as", o: "software engineer"}}},
		{
			name: "retired is no current job", text: "I walk with my neighbour Brigitte, who is a retired pharmacist.",
			want: []triple{{s: "Brigitte", p: "works_as", o: "pharmacist", ended: true}},
		},
		{name: "took a job", text: "Big change: Meera took a job at Narayana Health.", want: []triple{{s: "Meera", p: "works_at", o: "Narayana Health"}}},
		{name: "moved back to", text: "Caio moved back to Natal last year.", want: []triple{{s: "Caio", p: "lives_in", o: "Natal"}}},
		{
			name: "got rid of and switched to", text: "we drive a 2014 Toyota Avensis || we finally got rid of the Avensis and switched to a Skoda Octavia estate",
			want: []triple{{s: "user", p: "drives", o: "Toyota Avensis", ended: true}, {s: "user", p: "drives", o: "Skoda Octavia"}},
		},
		{name: "taken up", text: "I've taken up Nordic walking.", want: []triple{{s: "user", p: "started", o: "Nordic walking"}}},
		{
			name: "texted im", text: "im not in Hamburg anymore",
			want: []triple{{s: "user", p: "lives_in", o: "Hamburg", ended: true}},
		},
		{
			name: "value corrected in place", text: "Actually Per is in Tromsø, not Trondheim — I always mix those up.",
			cands: []*lore.Fact{{Subject: "Per", Predicate: "lives_in", Object: "Trondheim", ObjectID: "e1"}},
			want:  []triple{{s: "Per", p: "lives_in", o: "Trondheim", ended: true}, {s: "Per", p: "lives_in", o: "Tromsø"}},
		},
		{
			name: "correction of nothing held", text: "Muizenberg, not Sea Point! It's by the beach.",
			never: []triple{{s: "user", p: "lives_in", o: "Muizenberg"}},
		},
		{
			name: "relation denied", text: "my coach is Ms. Fujimoto || A correction: my coach is not Ms. Fujimoto. My coach is Mr. Okabe.",
			want: []triple{{s: "user", p: "has_coach", o: "Ms. Fujimoto", ended: true}, {s: "user", p: "has_coach", o: "Mr. Okabe"}},
		},
		{
			name: "sentence about a named person", text: "My son Mateo is bringing his new girlfriend to dinner on Sunday. || My doctor, Dr. Patel, says I need low-impact exercise.",
			subjects: map[string]string{"user's son Mateo is bringing": "Mateo", "user's doctor, Dr. Patel, says": "user"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := extractMsgs(t, tt.text, at, tt.cands)
			checkTriples(t, ex, tt.want, tt.never)
		next:
			for prefix, subject := range tt.subjects {
				for _, f := range ex.Facts {
					if len(f.Text) >= len(prefix) && f.Text[:len(prefix)] == prefix {
						if f.Subject != subject {
							t.Errorf("%q: subject %q, want %q", f.Text, f.Subject, subject)
						}
						continue next
					}
				}
				t.Errorf("no fact text starting %q; got:%s", prefix, describe(ex))
			}
		})
	}
}
