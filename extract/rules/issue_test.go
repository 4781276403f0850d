package rules

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// triple is a fact expected (or forbidden) in an extraction; ended says it
// must carry InvalidAt = the message time, current that it must not.
type triple struct {
	s, p, o string
	ended   bool
}

// extractOne extracts from one message of speaker, with a reply from other
// in the batch so "you" has someone to mean.
func extractOne(t *testing.T, speaker, other, text string, at time.Time) *lore.Extraction {
	t.Helper()
	eps := []*lore.Episode{{ID: "m", Role: "user", Speaker: speaker, Content: text, OccurredAt: at}}
	if other != "" {
		eps = append(eps, &lore.Episode{ID: "r", Role: "user", Speaker: other, Content: "Okay!", OccurredAt: at})
	}
	ex, err := New().Extract(context.Background(), lore.ExtractRequest{Episodes: eps})
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

func describe(ex *lore.Extraction) string {
	var b strings.Builder
	for _, f := range ex.Facts {
		end := ""
		if f.InvalidAt != nil {
			end = " (ended)"
		}
		b.WriteString("\n  (" + f.Subject + ", " + f.Predicate + ", " + f.Object + ")" + end + " " + f.Text)
	}
	return b.String()
}

func TestExtractIssueExamples(t *testing.T) {
	at := time.Date(2024, 3, 11, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name, speaker, other, text string
		want                       []triple
		never                      []triple
		none                       bool
	}{
		{name: "greeting", text: "Hi! Good to see you, how have you been?", none: true},
		{name: "question", text: "Do you know a good restaurant in Rome?", none: true},
		{name: "thanks", text: "Thanks so much, that's awesome!", none: true},
		{name: "reaction", speaker: "Audrey", other: "Andrew", text: "Wow, Andrew! That's awesome! Sounds fun.", none: true},
		{name: "farewell", speaker: "Andrew", other: "Audrey", text: "Ttyl, Bye!", none: true},
		{name: "diet taken up", text: "thx. also unrelated but i went fully vegan in june, mira cooks amazing lentil stuff.", want: []triple{{s: "user", p: "diet", o: "vegan"}}},
		{name: "offer accepted", text: "Important update: I have accepted an offer from TransIndia Movers as regional head for South.", want: []triple{{s: "user", p: "works_at", o: "TransIndia Movers"}}},
		{name: "statement before an emoticon", text: "moved to Vila Madalena last week, so no more Dona Cida :( can you help me write a card for her?", want: []triple{{s: "user", p: "lives_in", o: "Vila Madalena"}}},
		{
			name: "possessor chain", text: "My brother Jake's daughter Lily just turned five.",
			want:  []triple{{s: "user", p: "has_brother", o: "Jake"}, {s: "Jake", p: "has_daughter", o: "Lily"}},
			never: []triple{{s: "user", p: "has_daughter", o: "Lily"}},
		},
		{
			name: "a daughter named Lily is Jake's", text: "My brother Jake has a daughter named Lily.",
			want:  []triple{{s: "user", p: "has_brother", o: "Jake"}, {s: "Jake", p: "has_daughter", o: "Lily"}},
			never: []triple{{s: "user", p: "has_daughter", o: "Lily"}},
		},
		{
			name: "Toby is the girlfriend's dog, not the girlfriend", speaker: "Andrew", other: "Audrey",
			text:  "My girlfriend and I took Toby to the park. Toby is my girlfriend's dog and he loves it.",
			never: []triple{{s: "Andrew", p: "has_girlfriend", o: "Toby"}},
		},
		{
			name: "a dog named Toby", speaker: "Andrew", other: "Audrey", text: "We adopted a dog named Toby last week!",
			want: []triple{{s: "Andrew", p: "has_dog", o: "Toby"}},
		},
		{name: "no longer", text: "I no longer eat meat.", want: []triple{{s: "user", p: "eats", o: "meat", ended: true}}},
		{name: "left", text: "I left Spotify.", want: []triple{{s: "user", p: "works_at", o: "Spotify", ended: true}}},
		{name: "quit", text: "I quit my job at Acme.", want: []triple{{s: "user", p: "works_at", o: "Acme", ended: true}}},
		{name: "stopped", text: "I stopped playing tennis.", want: []triple{{s: "user", p: "plays", o: "tennis", ended: true}}},
		{name: "used to", text: "I used to live in Paris.", want: []triple{{s: "user", p: "lives_in", o: "Paris", ended: true}}},
		{
			name: "don't live anymore", text: "I don't live in Berlin anymore.",
			want: []triple{{s: "user", p: "lives_in", o: "Berlin", ended: true}},
		},
		{name: "not anymore", text: "Yeah, I'm not vegan anymore.", want: []triple{{s: "user", p: "diet", o: "vegan", ended: true}}},
		{
			name: "switched from to", text: "I switched from VS Code to Neovim.",
			want: []triple{{s: "user", p: "uses_editor", o: "VS Code", ended: true}, {s: "user", p: "uses_editor", o: "Neovim"}},
		},
		{name: "sold", text: "We sold our old Honda.", want: []triple{{s: "user", p: "owns", o: "old Honda", ended: true}}},
		{name: "broke up", text: "I broke up with Sam last month.", want: []triple{{s: "user", p: "dates", o: "Sam", ended: true}}},
		{
			name: "moved from to", text: "Sam and I moved from Ottawa to Toronto.",
			want: []triple{{s: "user", p: "lives_in", o: "Ottawa", ended: true}, {s: "user", p: "lives_in", o: "Toronto"}},
		},
		{
			name: "quit then starting", text: "I finally quit Shopify. Starting at Stripe on Monday",
			want: []triple{{s: "user", p: "works_at", o: "Shopify", ended: true}, {s: "user", p: "works_at", o: "Stripe"}},
		},
		{
			name: "job title and employer", text: "I'm a staff nurse at St. Mary's Hospital, so nights are rough.",
			want: []triple{{s: "user", p: "works_as", o: "staff nurse"}, {s: "user", p: "works_at", o: "St. Mary's Hospital"}},
		},
		{
			name: "work at as", text: "I work at Initech as a QA engineer.",
			want: []triple{{s: "user", p: "works_at", o: "Initech"}, {s: "user", p: "works_as", o: "qa engineer"}},
		},
		{name: "not a job", text: "I'm a huge fan of jazz.", never: []triple{{s: "user", p: "works_as", o: "huge fan of jazz"}}},
		{name: "used to be", text: "I used to be a teacher in Leeds.", want: []triple{{s: "user", p: "works_as", o: "teacher", ended: true}}},
		{name: "X and I broke up", text: "Priya and I broke up in May.", want: []triple{{s: "user", p: "dates", o: "Priya", ended: true}}},
		{
			name: "no longer my role", text: "Marta isn't my flatmate anymore.",
			want: []triple{{s: "user", p: "has_flatmate", o: "Marta", ended: true}},
		},
		{
			name: "third person starts and leaves", text: "My husband Omar just started at Globex. His old boss Ines left Initech.",
			want: []triple{{s: "user", p: "has_husband", o: "Omar"}, {s: "Omar", p: "works_at", o: "Globex"}, {s: "Ines", p: "works_at", o: "Initech", ended: true}},
		},
		{
			name: "advice then what the speaker did", text: "Don't laugh, but I switched from Emacs to Helix.",
			want: []triple{{s: "user", p: "uses_editor", o: "Emacs", ended: true}, {s: "user", p: "uses_editor", o: "Helix"}},
		},
		{name: "advice alone", text: "Don't give up on your dreams, keep pushing!", none: true},
		{
			name: "X is at Org now", text: "My sister Dana is at Google now.",
			want: []triple{{s: "user", p: "has_sister", o: "Dana"}, {s: "Dana", p: "works_at", o: "Google"}},
		},
		{name: "X is now at Org", text: "Dana's now at Stripe, she loves it.", want: []triple{{s: "Dana", p: "works_at", o: "Stripe"}}},
		{name: "I'm at Org now", text: "I'm at Stripe now.", want: []triple{{s: "user", p: "works_at", o: "Stripe"}}},
		{name: "at a place is an errand", text: "Dana is at Costco.", never: []triple{{s: "Dana", p: "works_at", o: "Costco"}}},
		{name: "catching up", speaker: "Nate", other: "Jo", text: "Hey Jo! Been ages since we last talked.", none: true},
		{name: "a picture", speaker: "Nate", other: "Jo", text: "Here's a pic of the cake I baked for my mom's birthday!", none: true},
		{name: "a gerund subject", speaker: "Tim", other: "John", text: "Learning German has been tough but worth it.", none: true},
		{name: "liking the listener's things", speaker: "Jo", other: "Nate", text: "So cute! I love your turtles so much!", none: true},
		{name: "liking what was shown", speaker: "Jo", other: "Nate", text: "Wow, that looks amazing! I love how it turned out.", none: true},
		{name: "a taste of one's own", speaker: "Jo", other: "Nate", text: "Wow, that looks amazing! I love hiking in the rain.", want: []triple{{s: "Jo", p: "likes", o: "hiking in the rain"}}},
		{
			name: "since we last spoke, news", speaker: "Nate", other: "Jo",
			text: "Since we last spoke, I adopted a puppy named Biscuit.",
			want: []triple{{s: "Nate", p: "has_puppy", o: "Biscuit"}},
		},
		{name: "is officially my role", text: "Kofi is officially my husband!", want: []triple{{s: "user", p: "has_husband", o: "Kofi"}}},
		{
			name: "my role is name", text: "My landlord is Mr. Ito, he's very strict.",
			want: []triple{{s: "user", p: "has_landlord", o: "Mr. Ito"}},
		},
		{
			name: "a one-holder role's holder retired", text: "My GP, Dr. Whitcombe, wants me to walk more. Sadly Dr. Whitcombe has retired.",
			want: []triple{{s: "user", p: "has_doctor", o: "Dr. Whitcombe", ended: true}},
		},
		{
			name: "a place before a role with its own name", text: "can u help me plan a trip? im in leipzig, my girlfriend jana wants to go somewhere by train.",
			want:  []triple{{s: "user", p: "has_girlfriend", o: "Jana"}},
			never: []triple{{s: "user", p: "has_girlfriend", o: "Leipzig"}, {s: "user", p: "dates", o: "Leipzig"}},
		},
		{
			name: "a friend who retired stays one", text: "My friend Tom retired last year.",
			want: []triple{{s: "user", p: "has_friend", o: "Tom"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := extractOne(t, tt.speaker, tt.other, tt.text, at)
			if tt.none && len(ex.Facts) > 0 {
				t.Fatalf("facts from %q, want none:%s", tt.text, describe(ex))
			}
			for _, w := range tt.want {
				f := findFact(ex, w.s, w.p, w.o)
				if f == nil {
					t.Errorf("missing (%s, %s, %s); got:%s", w.s, w.p, w.o, describe(ex))
					continue
				}
				switch {
				case w.ended && (f.InvalidAt == nil || !f.InvalidAt.Equal(at)):
					t.Errorf("(%s, %s, %s) InvalidAt=%v, want %v", w.s, w.p, w.o, f.InvalidAt, at)
				case !w.ended && f.InvalidAt != nil:
					t.Errorf("(%s, %s, %s) InvalidAt=%v, want current", w.s, w.p, w.o, f.InvalidAt)
				}
			}
			for _, n := range tt.never {
				if f := findFact(ex, n.s, n.p, n.o); f != nil {
					t.Errorf("unexpected (%s, %s, %s) %q", n.s, n.p, n.o, f.Text)
				}
			}
		})
	}
}

func TestExtractStandaloneTexts(t *testing.T) {
	at := time.Date(2023, 1, 20, 16, 4, 0, 0, time.UTC)
	tests := []struct {
		name, speaker, other, text, want string
	}{
		{"speaker named, filler and address stripped, date resolved", "Jon", "Gina",
			"Hey Gina! Good to see you too. Lost my job as a banker yesterday, so I'm gonna take a shot at starting my own business.",
			"Jon lost their job as a banker on 19 January 2023, so Jon is gonna take a shot at starting their own business."},
		{"no speaker name", "", "", "Oh, I really love hiking in the mountains.", "user really loves hiking in the mountains."},
		{"we", "Melanie", "Caroline", "Yeah, we went camping with the kids last weekend.",
			"Melanie and others went camping with the kids on the weekend of 14 January 2023."},
		{"an opening adverb keeps the sentence's own subject", "", "", "Also my wife Ana just started a pottery class.",
			"user's wife Ana just started a pottery class."},
		{"a date with 's", "Jon", "Gina", "Tomorrow's gonna be an awesome night and I'm not gonna forget a second of it!",
			"21 January 2023 is gonna be an awesome night and Jon is not gonna forget a second of it."},
		{"a plural subject with I", "John", "Tim", "The atmosphere was electric, and my teammates and I were thrilled.",
			"The atmosphere was electric, and John's teammates and John were thrilled."},
		{"you after a conjunction", "Joanna", "Nate", "I took a road trip for research for my next movie while you were winning.",
			"Joanna took a road trip for research for their next movie while Nate was winning."},
		{"an emoji ends a sentence", "Gina", "Jon", "So happy for you! Inspiring 💪 I emailed some wholesalers and one replied and said yes.",
			"Gina emailed some wholesalers and one replied and said yes."},
		{"you is the other speaker", "Gina", "Jon", "I got the shoes you told me about at the Nike store.", "Gina got the shoes Jon told them about at the Nike store."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := extractOne(t, tt.speaker, tt.other, tt.text, at)
			var texts []string
			for _, f := range ex.Facts {
				texts = append(texts, f.Text)
				if f.Text == tt.want {
					return
				}
			}
			t.Errorf("texts=%q, want one %q", texts, tt.want)
		})
	}
}

// TestExtractNoEcho checks that no fact copies its message: a fact's text
// never holds the first 60 characters of the message verbatim, and no
// "X mentioned Y" fact is made.
func TestExtractNoEcho(t *testing.T) {
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	msgs := []string{
		"I went to a LGBTQ support group yesterday and it was so powerful.",
		"The transgender stories were so inspiring! I was so happy and thankful for all the support.",
		"Painting is a fun way to express my feelings and get creative, it helps me relax after a long day.",
		"My sister Emma moved to Berlin last week and I love painting with her.",
		"Ttyl, Bye!",
	}
	for _, m := range msgs {
		ex := extractOne(t, "Caroline", "Melanie", m, at)
		prefix := strings.ToLower(m)
		if len(prefix) > 60 {
			prefix = prefix[:60]
		}
		for _, f := range ex.Facts {
			if strings.Contains(strings.ToLower(f.Text), prefix) {
				t.Errorf("fact %q echoes %q", f.Text, m)
			}
			if f.Predicate == "mentioned" || strings.Contains(f.Text, " mentioned ") {
				t.Errorf("fact %q is a mention echo", f.Text)
			}
		}
	}
}

// TestNewHolderReplaces: "new" before a role people hold one of at a time
// marks the fact as replacing the old holder; a new friend replaces nobody.
func TestNewHolderReplaces(t *testing.T) {
	at := time.Date(2024, 3, 11, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		text, pred, obj string
		replaces        bool
	}{
		{"Also my new doctor here is Dr. Ramesh Iyer, I need to send him my old reports.", "has_doctor", "Dr. Ramesh Iyer", true},
		{"Morning. New GP here is Dr Patel, good bloke.", "has_doctor", "Dr Patel", true},
		{"The new landlord is Sakamoto Realty, a company, not a person.", "has_landlord", "Sakamoto Realty", true},
		{"Madame Roux, my new accountant, is very good with computers.", "has_accountant", "Madame Roux", true},
		{"My new roommate is Sam, he's a chem PhD.", "has_roommate", "Sam", true},
		{"My roommate Priya is doing law at UdeM.", "has_roommate", "Priya", false},
		{"My new friend is Ana, we met at yoga.", "has_friend", "Ana", false},
	}
	for _, tt := range tests {
		ex := extractOne(t, "", "", tt.text, at)
		found := false
		for _, f := range ex.Facts {
			if f.Predicate == tt.pred && f.Object == tt.obj {
				found = true
				if f.Replaces != tt.replaces {
					t.Errorf("%q: (%s %s) replaces=%v, want %v", tt.text, tt.pred, tt.obj, f.Replaces, tt.replaces)
				}
			}
		}
		if !found {
			t.Errorf("%q: no (%s %s) in%s", tt.text, tt.pred, tt.obj, describe(ex))
		}
	}
}

// TestPronounAfterUnknownLead: a sentence that opens with a name nobody has
// named is about that name; its "he" is not the last person named before.
func TestPronounAfterUnknownLead(t *testing.T) {
	at := time.Date(2024, 3, 11, 10, 0, 0, 0, time.UTC)
	ex := extractMsgs(t, "My daughter Zosia comes home with her boyfriend Bartek. Bartek is an electrician. || Reks will be happy with the leftover sausages anyway, he is our dog, very old now.", at, nil)
	if findFact(ex, "user", "has_dog", "Bartek") != nil {
		t.Errorf("Bartek made the user's dog:%s", describe(ex))
	}
	if findFact(ex, "user", "has_dog", "Reks") == nil {
		t.Errorf("no (user, has_dog, Reks):%s", describe(ex))
	}
}

// TestPronounAfterBareRole: "Daughter Dana studies …" names an antecedent
// for a later "her", though "my" was left out.
func TestPronounAfterBareRole(t *testing.T) {
	at := time.Date(2024, 3, 11, 10, 0, 0, 0, time.UTC)
	ex := extractMsgs(t, "Budget question. Daughter Dana studies architecture in Prague, 2nd year. || Also her boyfriend Tomáš is a sound engineer.", at, nil)
	if findFact(ex, "Dana", "has_boyfriend", "Tomáš") == nil {
		t.Errorf("no (Dana, has_boyfriend, Tomáš):%s", describe(ex))
	}
}

// TestPronounAfterPossessorChain: in "Yasmine's fiancé Karim is a
// firefighter, so he …" and "my sister's boyfriend Tom …, and he …" the
// pronoun is the person the chain names, not its possessor or someone named
// in an earlier message.
func TestPronounAfterPossessorChain(t *testing.T) {
	at := time.Date(2024, 3, 11, 10, 0, 0, 0, time.UTC)
	ex := extractMsgs(t, "Yasmine's fiancé Karim is a firefighter, so he keeps trying to get me to do circuit training. || My sister's boyfriend Tom is a nurse and he works nights.", at, nil)
	for _, f := range ex.Facts {
		if strings.Contains(f.Text, "Yasmine's keeps") || strings.Contains(f.Text, "Karim works nights") {
			t.Errorf("pronoun resolved to the wrong person: %q%s", f.Text, describe(ex))
		}
	}
	var karim, tom bool
	for _, f := range ex.Facts {
		karim = karim || strings.Contains(f.Text, "so Karim keeps trying")
		tom = tom || strings.Contains(f.Text, "and Tom works nights")
	}
	if !karim || !tom {
		t.Errorf("want \"so Karim keeps trying\" and \"and Tom works nights\":%s", describe(ex))
	}
}
