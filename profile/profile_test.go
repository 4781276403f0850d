package profile

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func TestRulesTable(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.stated) < 10 || len(r.query) < 5 || len(r.facts) < 5 {
		t.Errorf("rules: %d stated, %d query, %d fact; want the whole table", len(r.stated), len(r.query), len(r.facts))
	}
}

func render(es []lore.ProfileEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, fmt.Sprintf("%s=%s", e.Key, e.Value))
	}
	slices.Sort(out)
	return out
}

func TestFromStatement(t *testing.T) {
	r := MustNew()
	at := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name, text string
		want       []string
	}{
		{"vegetarian", "I'm vegetarian, so no steak for me.", []string{"diet=vegetarian"}},
		{"not vegetarian", "I'm not vegetarian.", nil},
		{"no meat", "I don't eat meat.", []string{"diet=vegetarian"}},
		{"beginner climber", "I'm a beginner climber.", []string{"level_climbing=beginner"}},
		{"nurse", "I work as a nurse at the city hospital.", []string{"occupation=nurse"}},
		{"allergies", "I'm allergic to peanuts and shellfish.", []string{"allergy=peanut", "allergy=shellfish"}},
		{"city", "I live in Denver with my wife.", []string{"location=Denver"}},
		{"lower-case city is no name", "i live in a small flat", nil},
		{"trip", "We're going to Lisbon in May!", []string{"place=Lisbon"}},
		{"month is no place", "I'm going to May's party.", nil},
		{"dog", "We have a golden retriever dog called Max.", []string{"pet=dog"}},
		{"someone else's diet", "My sister is vegetarian.", nil},
		{"meat lover", "Honestly I'm a huge meat lover.", []string{"diet=omnivore"}},
		{"curly quote", "I’m vegan these days.", []string{"diet=vegan"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := r.FromStatement(c.text, "ep1", at)
			if !slices.Equal(render(got), c.want) {
				t.Errorf("FromStatement(%q)=%v, want %v", c.text, render(got), c.want)
			}
			for _, e := range got {
				if e.Source != lore.ProfileExplicit || !slices.Equal(e.Evidence, []string{"ep1"}) || !e.UpdatedAt.Equal(at) {
					t.Errorf("entry %+v, want explicit with evidence ep1 at %v", e, at)
				}
			}
		})
	}
}

func TestFromQuery(t *testing.T) {
	r := MustNew()
	cases := []struct {
		name, query string
		want        []string
	}{
		{"vegetarian recipes", "quick vegetarian recipes for a weeknight", []string{"diet=vegetarian"}},
		{"climbing gyms", "best climbing gyms near me", []string{"interest=climbing"}},
		{"beginners", "climbing for beginners: what shoes?", []string{"level_climbing=beginner"}},
		{"flights", "cheap flights to Lisbon in May", []string{"place=Lisbon"}},
		{"cheap dinners", "cheap dinners for a family of four", []string{"budget=low"}},
		{"dog", "is chocolate bad for my dog", []string{"pet=dog"}},
		{"factual", "When did I start at Stripe?", nil},
		{"no cue", "what did we talk about yesterday", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := r.FromQuery(c.query, time.Now())
			if !slices.Equal(render(got), c.want) {
				t.Errorf("FromQuery(%q)=%v, want %v", c.query, render(got), c.want)
			}
			for _, e := range got {
				if e.Source != lore.ProfileInferred || e.Confidence > 0.75 || len(e.Evidence) != 1 || !strings.HasPrefix(e.Evidence[0], lore.QueryEvidencePrefix) {
					t.Errorf("entry %+v, want inferred, at most 0.75, evidence the query hash", e)
				}
				for _, w := range strings.Fields(strings.ToLower(c.query)) {
					if len(w) > 4 && strings.Contains(e.Evidence[0], w) {
						t.Errorf("evidence %q holds query text %q", e.Evidence[0], w)
					}
				}
			}
		})
	}
}

func TestFromFact(t *testing.T) {
	r := MustNew()
	for _, c := range []struct {
		pred, obj string
		want      string
	}{
		{"works_as", "staff nurse", "occupation=staff nurse"},
		{"allergic_to", "peanuts", "allergy=peanut"},
		{"lives_in", "Denver", "location=Denver"},
		{"likes", "jazz", ""},
		{"works_as", "one of the people who run the whole night shift", ""},
	} {
		e, ok := r.FromFact(&lore.Fact{Predicate: c.pred, Object: c.obj, Confidence: 0.85}, []string{"ep"}, []string{"I live with it: " + c.obj}, time.Now())
		got := ""
		if ok {
			got = e.Key + "=" + e.Value
		}
		if got != c.want {
			t.Errorf("FromFact(%s %q)=%q, want %q", c.pred, c.obj, got, c.want)
		}
	}
}

func TestStatementBlocks(t *testing.T) {
	r := MustNew()
	for _, text := range []string{
		"My students think I'm a vegetarian, I'm not sure why.",
		"The crew always jokes that I'm vegan.",
		"My assistant thinks I'm vegetarian.",
		"I wish I was vegan.",
	} {
		if got := r.FromStatement(text, "", time.Now()); len(got) != 0 {
			t.Errorf("FromStatement(%q)=%v, want nothing", text, render(got))
		}
	}
}

func TestFromFactBlocked(t *testing.T) {
	r := MustNew()
	f := &lore.Fact{Predicate: "diet", Object: "vegetarian", Confidence: 0.85}
	if _, ok := r.FromFact(f, []string{"ep"}, []string{"My students think I'm a vegetarian."}, time.Now()); ok {
		t.Errorf("FromFact fed a diet someone else thinks the user has")
	}
	if _, ok := r.FromFact(f, []string{"ep"}, []string{"Since last year I'm a vegetarian."}, time.Now()); !ok {
		t.Errorf("FromFact refused a stated diet")
	}
}

func TestAliasesKeepTheirKeys(t *testing.T) {
	r := MustNew()
	got := render(r.FromStatement("I work as a photographer. I'm a beginner photographer.", "", time.Now()))
	want := []string{"level_photography=beginner", "occupation=photographer"}
	if !slices.Equal(got, want) {
		t.Errorf("FromStatement=%v, want %v (the activity alias is for levels, not jobs)", got, want)
	}
}

// BenchmarkFromQuery is the work query inference adds after each search
// before it queues a job: the cue rules over one query.
func BenchmarkFromQuery(b *testing.B) {
	r := MustNew()
	qs := []string{"Any dinner ideas for tonight?", "best climbing gyms downtown", "cheap flights to Lisbon in May", "When did I start at the hospital?"}
	at := time.Now()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r.FromQuery(qs[i%len(qs)], at)
	}
}

// TestRuleStems: every rule has stems to prefilter on, and the prefilter
// never hides a match (every rule's own examples in the other tests pass
// through it; here, a rule must not lose a match the bare regexp finds).
func TestRuleStems(t *testing.T) {
	r := MustNew()
	texts := []string{"for my dog", "I have a bad peanut allergy", "I'm a beginner climber", "trip to Oslo", "I live in Paris",
		"climbing for beginners", "vegan protein", "I just started running", "I can't stand olives", "I've been climbing for ten years"}
	for _, ru := range append(append([]rule{}, r.stated...), r.query...) {
		if len(ru.stems) == 0 {
			t.Errorf("rule %s %s has no stem", ru.key, ru.re)
		}
		for _, text := range texts {
			if ru.re.MatchString(text) && len(r.apply(nil, ru, text, lore.ProfileExplicit, nil, time.Now(), nil)) == 0 && !strings.Contains(ru.value, "$") {
				t.Errorf("rule %s %s matches %q but the prefilter dropped it", ru.key, ru.re, text)
			}
		}
	}
}

func TestPossessionsAndIdentity(t *testing.T) {
	r := MustNew()
	at := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name, text string
		want       []string
	}{
		{"model", "Is the flash compatible with my Sony A7R IV?", []string{"owns=sony a7r iv"}},
		{"gear", "What's the best way to clean my camera lens quickly?", []string{"owns=camera lens"}},
		{"bought", "I recently bought a new utensil holder to keep countertops clutter-free.", []string{"owns=utensil holder"}},
		{"plural head", "I noticed scratches on my granite countertops near the sink.", []string{"owns=granite countertops"}},
		{"room", "How do I keep my living room dust-free?", []string{"owns=living room"}},
		{"not a thing", "I have a question about my trip to see my friend.", nil},
		{"someone else's", "My sister's car broke down.", nil},
		{"wish", "I wish my kitchen were bigger.", nil},
		{"self-description", "As a Sony camera user, I want a better bag.", []string{"identity=sony camera user"}},
		{"idiom", "As a result, I stayed home.", nil},
		{"role", "As an aspiring stand-up comedian, I need advice.", []string{"identity=aspiring stand-up comedian"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := r.FromStatement(c.text, "ep1", at)
			if !slices.Equal(render(got), c.want) {
				t.Errorf("FromStatement(%q)=%v, want %v", c.text, render(got), c.want)
			}
			for _, e := range got {
				if e.Source != lore.ProfileExplicit || !slices.Equal(e.Evidence, []string{"ep1"}) {
					t.Errorf("entry %+v: want explicit with evidence ep1", e)
				}
			}
		})
	}
}

// BenchmarkFromStatement is the work ingestion adds per user message: the
// stated rules, possessions and self-descriptions over its sentences.
func BenchmarkFromStatement(b *testing.B) {
	r := MustNew()
	msgs := []string{"I'm looking to upgrade my camera flash. Can you recommend some good options that are compatible with my Sony A7R IV?",
		"I also need some help with organizing my kitchen utensils, can you give me some tips on how to maximize the space in my utensil holder?",
		"As an aspiring stand-up comedian, I'm looking for some advice on how to improve my craft.",
		"I'm vegetarian and I live in Denver with my wife and our dog."}
	at := time.Now()
	for i := 0; b.Loop(); i++ {
		r.FromStatement(msgs[i%len(msgs)], "ep", at)
	}
}
