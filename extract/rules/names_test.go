package rules

import (
	"testing"
	"time"
)

// extractCase is one extraction checked: the triples it must and must not
// give, and fact texts it must hold.
type extractCase struct {
	name, text string
	ents       []string // known people, among the request's candidates
	want       []triple
	never      []triple
	texts      []string
}

func runExtractCases(t *testing.T, cases []extractCase) {
	t.Helper()
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			ex := extractMsgsWith(t, tt.text, at, nil, tt.ents)
			checkTriples(t, ex, tt.want, tt.never)
			for _, want := range tt.texts {
				found := false
				for _, f := range ex.Facts {
					found = found || f.Text == want
				}
				if !found {
					t.Errorf("no fact with text %q; got:%s", want, describe(ex))
				}
			}
		})
	}
}

// TestLowerCaseNames covers names texted in lower case, informal role
// words and "shes".
func TestLowerCaseNames(t *testing.T) {
	runExtractCases(t, []extractCase{
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
	})
}

// TestJobsAndMoves covers titles said without an article, employers joined
// "as" a title, "last day at", "shifted to", diets from data/diets.txt and
// the homes of people visited.
func TestJobsAndMoves(t *testing.T) {
	runExtractCases(t, []extractCase{
		{
			name: "a title without an article", text: "I am chef in hotel restaurant in Umeda. || My wife Yui is happy. She is dental hygienist so she talks about teeth.",
			want: []triple{{s: "user", p: "works_as", o: "chef"}, {s: "Yui", p: "works_as", o: "dental hygienist"}},
		},
		{
			name: "no title without an occupation", text: "I am really tired of my manager. Yui is tired of the night shift nurse.",
			never: []triple{{s: "user", p: "works_as", o: "really tired of my manager"}, {s: "Yui", p: "works_as", o: "tired of the night shift nurse"}},
		},
		{
			name: "joined as, after a label", text: "News: I have left the county office and joined Mavuno Seeds as field agronomist, better pay",
			want: []triple{{s: "user", p: "works_at", o: "Mavuno Seeds"}, {s: "user", p: "works_as", o: "field agronomist"}},
		},
		{
			name: "last day at, then joining", text: "I'm a data analyst at Trellis Analytics in Pune || Life update:\n• Last day at Trellis was Friday.\n• Joining Parcelwala (logistics startup) as a product analyst on Dec 2.",
			want: []triple{{s: "user", p: "works_at", o: "Trellis Analytics", ended: true}, {s: "user", p: "works_at", o: "Parcelwala"},
				{s: "user", p: "works_as", o: "product analyst"}},
		},
		{
			name: "someone else's last day", text: "I'm a data analyst at Trellis Analytics in Pune || Sam's last day at Trellis was Friday.",
			want: []triple{{s: "user", p: "works_at", o: "Trellis Analytics"}},
		},
		{
			name: "joined a club as a member is no job", text: "I joined the choir as a bass singer",
			never: []triple{{s: "user", p: "works_at", o: "choir"}},
		},
		{
			name: "shifted to a place, not to a day", text: "Big news, I have shifted to Pune to stay with my son. || we shifted to thursdays for canasta",
			want:  []triple{{s: "user", p: "lives_in", o: "Pune"}},
			never: []triple{{s: "user", p: "lives_in", o: "Thursdays"}, {s: "user", p: "lives_in", o: "Pune to stay"}},
		},
		{
			name: "employers in lower case", text: "I am Wanjiru, agronomist with the county extension office here in Nakuru. || big change: I switched to a fintech startup last month, now I'm content lead || we joined a gym in town || I'm a nurse at the moment",
			want: []triple{{s: "user", p: "works_at", o: "county extension office"}, {s: "user", p: "works_at", o: "fintech startup"},
				{s: "user", p: "works_as", o: "content lead"}},
			never: []triple{{s: "user", p: "works_at", o: "gym"}, {s: "user", p: "works_at", o: "moment"}},
		},
		{
			name: "a post accepted, a move settled, a retirement", text: "big news. I accepted the post at Hospital General de Alicante and we signed for a flat || hiii. settled in Alicante finally, the flat still smells like paint || I retired last spring after thirty-one years as professor of marine biology at the University of Tromsø.",
			want: []triple{{s: "user", p: "works_at", o: "Hospital General de Alicante"}, {s: "user", p: "lives_in", o: "Alicante"},
				{s: "user", p: "works_as", o: "professor of marine biology", ended: true}, {s: "user", p: "works_at", o: "University of Tromsø", ended: true}},
			never: []triple{{s: "user", p: "lives_in", o: "Alicante finally"}},
		},
		{
			name: "everyday phrasings", text: "I've been a nurse for ten years. || I'm working as a paralegal these days. || I got a golden retriever puppy named Maple. || My boss is called Linda. || I'm a data analyst at Shopify. || I'm not at Shopify anymore, I'm at Stripe now.",
			want: []triple{{s: "user", p: "works_as", o: "nurse"}, {s: "user", p: "works_as", o: "paralegal"}, {s: "user", p: "has_puppy", o: "Maple"},
				{s: "user", p: "has_boss", o: "Linda"}, {s: "user", p: "works_at", o: "Shopify", ended: true}, {s: "user", p: "works_at", o: "Stripe"}},
			never: []triple{{s: "user", p: "is", o: "Shopify"}},
		},
		{
			name: "a diet from the list", text: "I'm eggetarian (no meat or fish, eggs are fine). My roommate Sneha is vegan.",
			want: []triple{{s: "user", p: "diet", o: "eggetarian"}, {s: "Sneha", p: "diet", o: "vegan"}},
		},
		{
			name: "the home of a person visited", text: "Our daughter Katrin is a doctor. || we visit Katrin in Munich four times a year, and we visit Rome in May",
			want:  []triple{{s: "Katrin", p: "lives_in", o: "Munich"}},
			never: []triple{{s: "Rome", p: "lives_in", o: "May"}},
		},
	})
}

// TestUnnamedAndPets covers people named by role alone, origins, pet
// breeds, activities quit, lower-case possessor chains and titles before a
// number.
func TestUnnamedAndPets(t *testing.T) {
	runExtractCases(t, []extractCase{
		{
			name: "people named by role alone", text: "my mum lives in Enugu. || also sundays im at my dads in cardiff every other weekend || my boss is a former nurse and my brother is plumber there",
			want: []triple{{s: "user", p: "has_mum", o: "user's mum"}, {s: "user's mum", p: "lives_in", o: "Enugu"},
				{s: "user's dad", p: "lives_in", o: "Cardiff"}, {s: "user's boss", p: "works_as", o: "nurse", ended: true},
				{s: "user's brother", p: "works_as", o: "plumber"}},
			texts: []string{"user's mum lives in Enugu"},
		},
		{
			name: "a role named before keeps its name", text: "My sister Emma is great. || My sister lives in Rome now.",
			want:  []triple{{s: "Emma", p: "lives_in", o: "Rome"}},
			never: []triple{{s: "user's sister", p: "lives_in", o: "Rome"}},
		},
		{
			name: "no place in a lower-case word", text: "my sister is in hospital",
			never: []triple{{s: "user", p: "has_sister", o: "user's sister"}},
		},
		{
			name: "origins", text: "haha not KL, i'm from penang! || Priya is from Chennai originally. || my mom comes from rosario every two weeks",
			want: []triple{{s: "user", p: "comes_from", o: "Penang"}, {s: "Priya", p: "comes_from", o: "Chennai"},
				{s: "user's mom", p: "comes_from", o: "Rosario"}},
		},
		{
			name: "breeds", text: "Bringing Duke, my black lab. || Instead I walk our dog Hana, a shiba inu, twice a day. || Our neighbour Ray has that beagle Rosie.",
			want: []triple{{s: "user", p: "has_dog", o: "Duke"}, {s: "Duke", p: "breed", o: "black lab"},
				{s: "Hana", p: "breed", o: "shiba inu"}, {s: "Rosie", p: "breed", o: "beagle"}},
			never: []triple{{s: "user", p: "has_dog", o: "Rosie"}, {s: "user", p: "has_dog", o: "Bringing Duke"}},
			texts: []string{"Duke is user's dog, a black lab", "Hana is user's dog, a shiba inu"},
		},
		{
			name: "quit an activity", text: "on saturdays i play futsal with my cousins || bad news i quit futsal, twisted my ankle",
			want: []triple{{s: "user", p: "plays", o: "futsal", ended: true}},
		},
		{
			name: "a lower-case possessor chain", text: "cooking w my housemate jess on sundays || jess's bf sam is a tram driver",
			want: []triple{{s: "Jess", p: "has_boyfriend", o: "Sam"}, {s: "Sam", p: "works_as", o: "tram driver"}},
		},
		{
			name: "a possessive texted without its apostrophe, and a pronoun's gender learned", text: "my flatmate euan is on drums || ok need gift ideas for euans girlfriend shona, its her birthday and hes useless. shes a vet nurse at a clinic in partick",
			want:  []triple{{s: "Euan", p: "has_girlfriend", o: "Shona"}, {s: "Shona", p: "works_as", o: "vet nurse"}},
			never: []triple{{s: "Euan", p: "works_as", o: "vet nurse"}},
		},
		{
			name: "a bare role after with", text: "My daughter Zosia studies in Wroclaw. She comes home with boyfriend Bartek for a weekend.",
			want: []triple{{s: "Zosia", p: "has_boyfriend", o: "Bartek"}},
		},
		{
			name: "a bare title before a number", text: "i am electrician 30 years, one man firm in tricity",
			want: []triple{{s: "user", p: "works_as", o: "electrician"}},
		},
	})
}

func TestStudentField(t *testing.T) {
	for title, want := range map[string]string{
		"2nd year geology student": "geology",
		"nursing student":          "nursing",
		"final-year law student":   "law",
		"PhD student":              "",
		"exchange student":         "",
		"student":                  "",
		"history teacher":          "",
	} {
		if got := studentField(title); got != want {
			t.Errorf("studentField(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestNamesEndingInNonASCIILetters: a name ending in a letter outside ASCII
// is kept whole ("Paweł", not "Pawe"), and named people who move from one
// place to another end the old home.
func TestNamesEndingInNonASCIILetters(t *testing.T) {
	runExtractCases(t, []extractCase{
		{
			name: "role name", text: "Also my son-in-law Paweł, he is ship electrician at the shipyard.",
			want:  []triple{{s: "user", p: "has_son_in_law", o: "Paweł"}},
			never: []triple{{s: "user", p: "has_son_in_law", o: "Pawe"}},
		},
		{
			name: "pair moved from A to B", text: "Big change in the family: Agnieszka and Paweł moved from Gdańsk to Szczecin in September.",
			want: []triple{{s: "Agnieszka", p: "lives_in", o: "Gdańsk", ended: true}, {s: "Agnieszka", p: "lives_in", o: "Szczecin"},
				{s: "Paweł", p: "lives_in", o: "Gdańsk", ended: true}, {s: "Paweł", p: "lives_in", o: "Szczecin"}},
		},
	})
}
