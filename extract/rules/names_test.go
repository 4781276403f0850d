package rules

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestLowerCaseNames covers names texted in lower case, informal role
// words and "shes".
func TestLowerCaseNames(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name, text string
		cands      []*lore.Fact
		ents       []string
		want       []triple
		never      []triple
	}{
		{
			name: "after a role word", text: "i share the flat with my cousin emeka so we split it",
			want: []triple{{s: "user", p: "has_cousin", o: "Emeka"}},
		},
		{
			name: "a word is no name", text: "my sister will drive us there, my brother actually hates driving",
			never: []triple{{s: "user", p: "has_sister", o: "Will"}, {s: "user", p: "has_brother", o: "Actually"}},
		},
		{
			name: "chat shorthand is no name", text: "my mum rn is stressed about the move lol",
			never: []triple{{s: "user", p: "has_mum", o: "Rn"}},
		},
		{
			name: "informal role words", text: "my babe tolu and i split outings, shes a pharmacist || my hubby dave is a plumber",
			want: []triple{{s: "user", p: "has_partner", o: "Tolu"}, {s: "Tolu", p: "works_as", o: "pharmacist"},
				{s: "user", p: "has_husband", o: "Dave"}},
		},
		{
			name: "a place after a preposition", text: "update. i moved to ikeja last month",
			want: []triple{{s: "user", p: "lives_in", o: "Ikeja"}},
		},
		{
			name: "a name known from before, in lower case", text: "tolu moved to Abuja for the new job",
			ents: []string{"Tolu"},
			want: []triple{{s: "Tolu", p: "lives_in", o: "Abuja"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := extractMsgsWith(t, tt.text, at, tt.cands, tt.ents)
			checkTriples(t, x, tt.want, tt.never)
		})
	}
}
