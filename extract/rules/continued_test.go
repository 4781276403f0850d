package rules

import (
	"reflect"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func TestSplitContinued(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"I left Nubank and joined Mercado Livre", []string{"I left Nubank", "I joined Mercado Livre"}},
		{"I am 29, work night shifts as a paramedic", []string{"I am 29", "I work night shifts as a paramedic"}},
		{"Also I am not in Hamburg anymore, moved to Bremen", []string{"Also I am not in Hamburg anymore", "I moved to Bremen"}},
		// Two likings joined by "and", not a second verb phrase.
		{"I like reading and learning languages", []string{"I like reading and learning languages"}},
		{"I live in Vancouver and work as a physiotherapist", []string{"I live in Vancouver", "I work as a physiotherapist"}},
		// Only the verbs of personal facts continue.
		{"I make bread and sell it at the market", []string{"I make bread and sell it at the market"}},
		{"My sister left and joined a band", []string{"My sister left and joined a band"}},
	} {
		if got := splitContinued(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitContinued(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestExtractJobChanges covers job statements with the subject left out or
// words between "work" and the title, employers left and joined, and pets
// that died.
func TestExtractJobChanges(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	held := func(p, o, text string) *lore.Fact {
		return &lore.Fact{Subject: "user", Predicate: p, Object: o, Text: text}
	}
	tests := []struct {
		name, text string
		cands      []*lore.Fact
		want       []triple
		never      []triple
	}{
		{
			name: "left and joined", text: "context im a junior dev at Nubank in Sao Paulo || new chapter!! i left Nubank and joined Mercado Livre, and we moved to Florianopolis",
			// A move to another employer says nothing of the title: it
			// stays until a new one is said.
			want: []triple{{s: "user", p: "works_at", o: "Nubank", ended: true}, {s: "user", p: "works_as", o: "junior dev"},
				{s: "user", p: "works_at", o: "Mercado Livre"}, {s: "user", p: "lives_in", o: "Florianopolis"}},
		},
		{
			name: "joined without leaving is not a job", text: "I joined Parkrun last week and loved it",
			never: []triple{{s: "user", p: "works_at", o: "Parkrun"}},
		},
		{
			name: "words between work and the title", text: "im 29, work night shifts as a paramedic in Hamburg so timing is weird",
			want: []triple{{s: "user", p: "works_as", o: "paramedic"}},
		},
		{
			name: "freelancing as", text: "I'm freelancing as a bookkeeper from home now",
			want: []triple{{s: "user", p: "works_as", o: "bookkeeper"}},
		},
		{
			name: "only works part-time at", text: "I only work part-time at the credit union so I've some time on my hands.",
			want: []triple{{s: "user", p: "works_at", o: "credit union"}},
		},
		{
			name: "quit an employer held in lower case", text: "small bit of news, I quit the credit union in January",
			cands: []*lore.Fact{held("works_at", "credit union", "user works part-time at the credit union")},
			want:  []triple{{s: "user", p: "works_at", o: "credit union", ended: true}},
		},
		{
			name: "quit the <employer> job", text: "i work at the chippy on saturdays 11-5 so not then. || so i quit the chippy job, the manager was being weird.",
			want: []triple{{s: "user", p: "works_at", o: "chippy on saturdays 11-5", ended: true}},
		},
		{
			name: "quit something never said to be a job", text: "I quit the choir in January",
			never: []triple{{s: "user", p: "works_at", o: "choir", ended: true}},
		},
		{
			name: "moved on after a comma", text: "also im not in Hamburg anymore, moved to Bremen for a new station.",
			want: []triple{{s: "user", p: "lives_in", o: "Hamburg", ended: true}, {s: "user", p: "lives_in", o: "Bremen"}},
		},
		{
			name: "job after the age", text: "Sawubona. I'm 64, a signal technician at Transnet here in Durban. || I retired from Transnet at the end of March!",
			want:  []triple{{s: "user", p: "works_at", o: "Transnet", ended: true}, {s: "user", p: "works_as", o: "signal technician", ended: true}},
			never: []triple{{s: "user", p: "works_at", o: "Transnet at the end of March"}},
		},
		{
			name: "pronoun after a dash", text: "My best friend Hanne thinks I'm too strict — she's a family therapist, so maybe she knows.",
			want: []triple{{s: "Hanne", p: "works_as", o: "family therapist"}},
		},
		{
			name: "lives in and works as", text: "Per lives in Trondheim now and works as a ferry captain, so his schedule is tricky.",
			want: []triple{{s: "Per", p: "lives_in", o: "Trondheim"}, {s: "Per", p: "works_as", o: "ferry captain"}},
		},
		{
			name: "now I'm at", text: "im a data analyst at Arup || and i left Arup last month, now im at the BBC doing the same analytics stuff.",
			want: []triple{{s: "user", p: "works_at", o: "Arup", ended: true}, {s: "user", p: "works_at", o: "BBC"}},
		},
		{
			name: "at a shop is no job", text: "I'm at Tesco buying milk, what else do I need for pancakes?",
			never: []triple{{s: "user", p: "works_at", o: "Tesco"}},
		},
		{
			name: "a pet named after a name was wanted", text: "Need a name for new cat. Grey, fluffy, female. || Went with Pelmeni. My daughter picked it.",
			want: []triple{{s: "user", p: "has_cat", o: "Pelmeni"}},
		},
		{
			name: "went with someone is no pet name", text: "I went with Anna to the shops.",
			never: []triple{{s: "user", p: "has_cat", o: "Anna"}},
		},
		{
			name: "title after the name", text: "Good morning. I am Haruto Nakamura, 52 years old, procurement manager of Kansai Precision Parts in Osaka. || I'm Sam, a huge fan of yours.",
			want:  []triple{{s: "user", p: "works_as", o: "procurement manager"}, {s: "user", p: "works_at", o: "Kansai Precision Parts"}},
			never: []triple{{s: "user", p: "works_as", o: "huge fan"}},
		},
		{
			name: "stopped an activity said before", text: "Weekend I play golf with my old classmate Ogawa. || And I stopped golf because of my back.",
			want: []triple{{s: "user", p: "plays", o: "golf", ended: true}},
		},
		{
			name: "a relation presumed in a question", text: "can you help me plan a trip with my boyfriend Khoa? he's a UX designer so he loves cafes",
			want: []triple{{s: "user", p: "has_boyfriend", o: "Khoa"}, {s: "Khoa", p: "works_as", o: "ux designer"}},
		},
		{
			name: "salary, then a raise (the store closes the old value: salary is single-valued)", text: "salary is 450k naira, im a backend dev at a fintech. || got promoted to senior, salary is now 600k!! || Meera's salary covers the rest.",
			want:  []triple{{s: "user", p: "salary", o: "450k naira"}, {s: "user", p: "salary", o: "600k"}},
			never: []triple{{s: "user", p: "salary", o: "covers the rest"}},
		},
		{
			name: "a pet that died", text: "Our dog Bamse is getting slow on walks. || Bamse passed away last month, he was 13.",
			want: []triple{{s: "user", p: "has_dog", o: "Bamse", ended: true}},
		},
		{
			name: "a person who died keeps the relation", text: "My friend Anna lives in Oslo. || Anna passed away last year.",
			want: []triple{{s: "user", p: "has_friend", o: "Anna"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkTriples(t, extractMsgs(t, tt.text, at, tt.cands), tt.want, tt.never)
		})
	}
}
