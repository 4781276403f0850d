package rules

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// extractMsgs extracts from one batch of the user's messages ("a || b").
func extractMsgs(t *testing.T, text string, at time.Time, cands []*lore.Fact) *lore.Extraction {
	t.Helper()
	return extractMsgsWith(t, text, at, cands, nil)
}

// extractMsgsWith is extractMsgs with known people's names among the
// request's candidate entities.
func extractMsgsWith(t *testing.T, text string, at time.Time, cands []*lore.Fact, people []string) *lore.Extraction {
	t.Helper()
	var ents []*lore.Entity
	for _, p := range people {
		ents = append(ents, &lore.Entity{Name: p, Type: "person"})
	}
	var eps []*lore.Episode
	for i, m := range strings.Split(text, "||") {
		eps = append(eps, &lore.Episode{ID: string(rune('a' + i)), Role: "user", Content: strings.TrimSpace(m), OccurredAt: at})
		eps = append(eps, &lore.Episode{ID: string(rune('A' + i)), Role: "assistant", Content: "I see. Tell me more?", OccurredAt: at})
	}
	ex, err := New().Extract(context.Background(), lore.ExtractRequest{Episodes: eps, Facts: cands, Entities: ents})
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// TestExtractRules3 covers the rules/3 patterns: pronoun coreference,
// third-person jobs, cars, editors, study, new activities, dating.
func TestExtractRules3(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name, text string
		cands      []*lore.Fact
		want       []triple
		never      []triple
		texts      []string // fact texts that must be among the facts
	}{
		{
			name: "she in the next sentence", text: "My cousin Priya got a new job. She just started at the library in Leeds as an archivist.",
			want:  []triple{{s: "Priya", p: "works_as", o: "archivist"}, {s: "Priya", p: "works_at", o: "the library in Leeds"}},
			texts: []string{"user's cousin Priya works as an archivist at the library in Leeds"},
		},
		{
			name: "he across messages", text: "my uncle Tomas lives in Porto || he's a welder at a shipyard, always busy",
			want: []triple{{s: "Tomas", p: "lives_in", o: "Porto"}, {s: "Tomas", p: "works_as", o: "welder"}},
		},
		{
			name: "her husband is the host's", text: "Our neighbour Ingrid throws great parties || we go every year, her husband Lars is a retired dentist",
			want:  []triple{{s: "Ingrid", p: "has_husband", o: "Lars"}, {s: "Lars", p: "works_as", o: "dentist", ended: true}},
			texts: []string{"Ingrid's husband Lars is a retired dentist"},
			never: []triple{{s: "user", p: "has_husband", o: "Lars"}},
		},
		{
			name: "gender picks the antecedent", text: "My brother Kwame and his wife Efua visited. She is a pilot",
			want:  []triple{{s: "Efua", p: "works_as", o: "pilot"}},
			never: []triple{{s: "Kwame", p: "works_as", o: "pilot"}},
		},
		{
			name: "courtesy title gives gender", text: "My son Leo loves school. His coach Mr. Banda says he is fast. She says she wants to play too",
			want:  []triple{{s: "Leo", p: "has_coach", o: "Mr. Banda"}},
			never: []triple{{s: "Mr. Banda", p: "statement", o: "Mr. Banda says she wants to play too"}},
		},
		{
			name: "her name is", text: "I met a girl at the climbing gym, her name is Saoirse. She's a midwife",
			want: []triple{{s: "Saoirse", p: "works_as", o: "midwife"}},
		},
		{
			name: "unnamed role", text: "my dad calls every day. he's a plumber in Cork so he's up early",
			texts: []string{"user's dad is a plumber in Cork so user's dad is up early."},
		},
		{
			name: "she'll stays", text: "My aunt Rosa is a chef in Lisbon, so she'll cook for the whole family",
			texts: []string{"user's aunt Rosa is a chef in Lisbon, so she'll cook for the whole family."},
		},
		{
			name: "relation in a rising statement", text: "we've been together a year so I guess Ama is my fiancee now?",
			want: []triple{{s: "user", p: "has_fiancee", o: "Ama"}},
		},
		{
			name: "third person works as", text: "Tariq lives in Dubai and works as an architect",
			want: []triple{{s: "Tariq", p: "lives_in", o: "Dubai"}, {s: "Tariq", p: "works_as", o: "architect"}},
		},
		{
			name: "third person started as", text: "Mei just started at Globex as a recruiter",
			want: []triple{{s: "Mei", p: "works_as", o: "recruiter"}, {s: "Mei", p: "works_at", o: "Globex"}},
		},
		{
			name: "third person occupation", text: "My flatmate Oskar is a violinist",
			want: []triple{{s: "Oskar", p: "works_as", o: "violinist"}},
		},
		{name: "drives", text: "I drive a 2015 Toyota Corolla", want: []triple{{s: "user", p: "drives", o: "Toyota Corolla"}}},
		{name: "bought a car", text: "Bought a used Subaru Outback yesterday!", want: []triple{{s: "user", p: "drives", o: "Subaru Outback"}}},
		{
			name: "sold the car ends driving it", text: "Sold the Corolla!",
			cands: []*lore.Fact{{Subject: "user", Predicate: "drives", Object: "Toyota Corolla"}},
			want:  []triple{{s: "user", p: "drives", o: "Toyota Corolla", ended: true}},
		},
		{name: "editor", text: "I write everything in Emacs, it's my home", want: []triple{{s: "user", p: "uses_editor", o: "Emacs"}}},
		{
			name: "switched editors", text: "I switched from VS Code to Neovim.",
			want: []triple{{s: "user", p: "uses_editor", o: "VS Code", ended: true}, {s: "user", p: "uses_editor", o: "Neovim"}},
		},
		{
			name: "statement before a question", text: "I code in Sublime all day, any plugin tips?",
			want: []triple{{s: "user", p: "uses_editor", o: "Sublime"}},
		},
		{name: "studying", text: "studying marine biology at Aberdeen this year", want: []triple{{s: "user", p: "major", o: "marine biology"}}},
		{name: "studying for", text: "I'm studying for my exams", never: []triple{{s: "user", p: "major", o: "for my exams"}}},
		{
			name: "switched major", text: "I switched my major to economics",
			cands: []*lore.Fact{{Subject: "user", Predicate: "major", Object: "history"}},
			want:  []triple{{s: "user", p: "major", o: "history", ended: true}, {s: "user", p: "major", o: "economics"}},
		},
		{
			name: "switched field", text: "I switched from civil to electrical engineering",
			want: []triple{{s: "user", p: "major", o: "civil engineering", ended: true}, {s: "user", p: "major", o: "electrical engineering"}},
		},
		{
			name: "instead", text: "I quit cycling after the crash. rowing instead",
			want: []triple{{s: "user", p: "does", o: "rowing"}},
		},
		{name: "started dating", text: "Noor and I started dating in March", want: []triple{{s: "user", p: "dates", o: "Noor"}}},
		{name: "my boyfriend", text: "my boyfriend Idris is a baker", want: []triple{{s: "user", p: "dates", o: "Idris"}, {s: "user", p: "has_boyfriend", o: "Idris"}}},
		{name: "new manager", text: "my new manager is Aoife", want: []triple{{s: "user", p: "has_manager", o: "Aoife"}}},
		// Job changes, trades and people introduced without a role.
		{
			name: "starting as", text: "Finished my degree! starting as a junior architect at Foster Partners next month",
			want:  []triple{{s: "user", p: "works_as", o: "junior architect"}, {s: "user", p: "works_at", o: "Foster Partners"}},
			never: []triple{{s: "user", p: "works_at", o: "Foster Partners next month"}},
		},
		{
			name: "two first-person clauses, two facts", text: "I live in Paris and I work at Google",
			texts: []string{"user lives in Paris.", "user works at Google."},
		},
		{name: "promoted", text: "I got promoted to shift supervisor!", want: []triple{{s: "user", p: "works_as", o: "shift supervisor"}}},
		{name: "promoted today", text: "my friend Aled got promoted to head chef today", want: []triple{{s: "Aled", p: "works_as", o: "head chef"}}},
		{name: "started to is no job", text: "I started to cook more at home", never: []triple{{s: "user", p: "works_as", o: "cook more at home"}}},
		{
			name: "their new job as", text: "my brother Tomasz started a new job as a baker at Crumbs",
			want: []triple{{s: "Tomasz", p: "works_as", o: "baker"}, {s: "Tomasz", p: "works_at", o: "Crumbs"}},
		},
		{
			name: "student studies at", text: "I'm a law student at the University of Leeds",
			want: []triple{{s: "user", p: "works_as", o: "law student"}, {s: "user", p: "studies_at", o: "University of Leeds"}},
		},
		{
			name: "traded in", text: "we traded in the Golf for a Skoda Octavia",
			cands: []*lore.Fact{{Subject: "user", Predicate: "drives", Object: "VW Golf"}},
			want:  []triple{{s: "user", p: "drives", o: "VW Golf", ended: true}, {s: "user", p: "drives", o: "Skoda Octavia"}},
		},
		{
			name: "replaced with", text: "I replaced Sublime with Zed last month",
			want: []triple{{s: "user", p: "uses_editor", o: "Sublime", ended: true}, {s: "user", p: "uses_editor", o: "Zed"}},
		},
		{name: "traded an unknown thing", text: "I traded my guitar for a bike", never: []triple{{s: "user", p: "drives", o: "bike"}}},
		{
			name: "this guy then he", text: "I've been seeing this guy Tomas, he's a nurse || he's my boyfriend now",
			want: []triple{{s: "Tomas", p: "works_as", o: "nurse"}, {s: "user", p: "has_boyfriend", o: "Tomas"}, {s: "user", p: "dates", o: "Tomas"}},
		},
		{
			name: "role in a statement's text", text: "my aunt Greta is visiting. she knits sweaters for the whole family",
			texts: []string{"user's aunt Greta knits sweaters for the whole family."},
		},
		{
			name: "pet named after", text: "Just adopted a rescue kitten!! Her name is Olive || she's hiding under the bed but she ate dinner",
			want:  []triple{{s: "user", p: "has_kitten", o: "Olive"}},
			texts: []string{"user's kitten Olive is hiding under the bed but Olive ate dinner."},
		},
		{name: "pet named in the same sentence", text: "I have a parrot and his name is Kiwi", want: []triple{{s: "user", p: "has_parrot", o: "Kiwi"}}},
		{name: "someone else's pet", text: "My sister got a dog. His name is Rex", never: []triple{{s: "user", p: "has_dog", o: "Rex"}}},
		{
			name: "pet role in a statement's text", text: "We have a hamster named Biscuit. Biscuit has to see the vet on Friday about his teeth",
			texts: []string{"user's hamster Biscuit has to see the vet on Friday about his teeth."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := extractMsgs(t, tt.text, at, tt.cands)
			checkTriples(t, ex, tt.want, tt.never)
		next:
			for _, want := range tt.texts {
				for _, f := range ex.Facts {
					if f.Text == want {
						continue next
					}
				}
				t.Errorf("no fact text %q; got:%s", want, describe(ex))
			}
		})
	}
}

// TestBreakUpEndsStoredRole: the request's facts name the user by their id;
// "Chloe and I broke up" ends the stored (marcus has_girlfriend Chloe) as
// well as dating her.
func TestBreakUpEndsStoredRole(t *testing.T) {
	at := time.Date(2024, 6, 10, 9, 0, 0, 0, time.UTC)
	req := lore.ExtractRequest{
		Scope:    lore.Scope{TenantID: "t", UserID: "marcus"},
		Episodes: []*lore.Episode{{ID: "a", Role: "user", Content: "Chloe and I broke up last week. kinda gutted", OccurredAt: at}},
		Facts:    []*lore.Fact{{Subject: "marcus", Predicate: "has_girlfriend", Object: "Chloe"}, {Subject: "marcus", Predicate: "dates", Object: "Chloe"}},
	}
	ex, err := New().Extract(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"has_girlfriend", "dates"} {
		if f := findFact(ex, "user", p, "Chloe"); f == nil || f.InvalidAt == nil {
			t.Errorf("(user %s Chloe) not ended; got:%s", p, describe(ex))
		}
	}
	if f := findFact(ex, "user", "has_boyfriend", "Chloe"); f != nil {
		t.Errorf("a role never given was ended: %q", f.Text)
	}
}

// TestInformativeness checks the statement filter: dated, named, long or
// reported statements stay; short vague feelings and remarks about the
// listener go.
func TestInformativeness(t *testing.T) {
	v := voice{name: "Jon", other: "Gina"}
	tests := []struct {
		text, sentence string
		dated          bool
		keep           bool
	}{
		{"Jon ran a half marathon in Boston.", "I ran a half marathon in Boston.", false, true},
		{"Jon finished it.", "I finished it.", false, false},
		{"Jon is so stoked about it.", "I'm so stoked about it.", false, false},
		{"Jon is so happy for Gina.", "I'm so happy for you.", false, false},
		{"Jon adopted a puppy.", "I adopted a puppy last week.", true, true},
		{"Jon has been volunteering at the animal shelter near their home every weekend.", "I've been volunteering at the animal shelter near my home every weekend.", false, true},
		{"It's so important to take care of yourself.", "It's so important to take care of yourself.", false, false},
	}
	for _, tt := range tests {
		got := informativeness(tt.text, tt.sentence, v, tt.dated) >= minInformativeness
		if got != tt.keep {
			t.Errorf("%q: kept=%v (score %d), want %v", tt.text, got, informativeness(tt.text, tt.sentence, v, tt.dated), tt.keep)
		}
	}
}

// TestAheadWeekdays: a bare weekday in a sentence about what is to come is
// the next one, so the fact that starts then is not dated before it was
// said; in a report of the past it stays the last one.
func TestAheadWeekdays(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC) // a Thursday
	for _, tt := range []struct {
		text string
		want time.Time
	}{
		{"Starting at Stripe on Monday", at},
		{"I'm starting at Stripe on Monday", at},
		{"I started at Stripe on Monday", time.Date(2024, 4, 29, 0, 0, 0, 0, time.UTC)},
	} {
		ex := extractMsgs(t, tt.text, at, nil)
		f := findFact(ex, "user", "works_at", "Stripe")
		if f == nil || f.ValidAt == nil || !f.ValidAt.Equal(tt.want) {
			t.Errorf("%q: got:%s; want valid_at %s", tt.text, describe(ex), tt.want)
		}
	}
}

func TestDropSmallTalk(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Since we last spoke, I started teaching people how to bake.", "I started teaching people how to bake."},
		{"I got a new job since we last talked!", "I got a new job!"},
		{"It's been ages since we last talked.", ""},
		{"Here's a pic of a cake I made recently!", ""},
		{"Guess what, I adopted a puppy.", "I adopted a puppy."},
		{"I went to Rome last week.", "I went to Rome last week."},
		{"It's been a while since I went skiing.", "It's been a while since I went skiing."},
	} {
		if got := dropSmallTalk(c.in); got != c.want {
			t.Errorf("dropSmallTalk(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// "Dana left last week, she's at Google now": the employer fact says what
// changed, in the words of the sentence.
func TestAtNowKeepsWhatChanged(t *testing.T) {
	at := time.Date(2024, 5, 2, 12, 0, 0, 0, time.UTC)
	ex := extractMsgs(t, "my coworker Dana talked me into it || Dana left last week, she's at Google now. gutted", at, nil)
	var text string
	for _, f := range ex.Facts {
		if f.Subject == "Dana" && f.Predicate == "works_at" && f.Object == "Google" && f.InvalidAt == nil {
			text = f.Text
		}
	}
	if !strings.Contains(text, "Dana left") || !strings.Contains(text, "Google") {
		t.Fatalf("(Dana works_at Google) text %q, want the sentence that says she left", text)
	}
}

// checkTriples fails for each wanted triple missing or with the wrong
// ending, and for each triple that must never be extracted.
func checkTriples(t *testing.T, ex *lore.Extraction, want, never []triple) {
	t.Helper()
	for _, w := range want {
		f := findFact(ex, w.s, w.p, w.o)
		if f == nil {
			t.Errorf("missing (%s, %s, %s); got:%s", w.s, w.p, w.o, describe(ex))
			continue
		}
		if w.ended != (f.InvalidAt != nil) {
			t.Errorf("(%s, %s, %s) InvalidAt=%v, want ended=%v", w.s, w.p, w.o, f.InvalidAt, w.ended)
		}
	}
	for _, n := range never {
		if f := findFact(ex, n.s, n.p, n.o); f != nil {
			t.Errorf("unexpected (%s, %s, %s) %q", n.s, n.p, n.o, f.Text)
		}
	}
}

// tripleCase is one message batch and the triples it must and must never
// give, with the stored facts the extractor is shown.
type tripleCase struct {
	name, text  string
	cands       []*lore.Fact
	want, never []triple
}

// runTripleCases runs each case as a subtest at the time at.
func runTripleCases(t *testing.T, at time.Time, cases []tripleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkTriples(t, extractMsgs(t, tc.text, at, tc.cands), tc.want, tc.never)
		})
	}
}
