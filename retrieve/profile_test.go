package retrieve_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

func TestUniqueAnswer(t *testing.T) {
	for _, c := range []struct {
		query  string
		unique bool
	}{
		{"What is the capital of France?", true},
		{"When did I start at Stripe?", true},
		{"How many kids does Emma have?", true},
		{"Where did I put my passport?", true},
		{"Who won the match last night?", true},
		{"What is my sister's phone number?", true},
		{"Any dinner ideas for tonight?", false},
		{"What should I cook for dinner?", false},
		{"Recommend a weekend trip", false},
		{"Where should we eat tonight?", false},
		{"Can you suggest a climbing gym?", false},
		{"What can I make with what's in the fridge?", false},
		// Any question asking for no advice is a lookup, whatever its shape.
		{"What did I build for my neighbor?", true},
		{"What camera did I buy?", true},
		{"Why did the trip get cancelled?", true},
		{"Is the museum open on Mondays?", true},
		{"my passport number?", true},
		// Recalling advice given is a lookup, not a request for advice.
		{"Can you remind me of the hotel you recommended?", true},
		{"What advice did Tim give John about endorsements?", true},
		{"What does Joanna recommend for a comfy living room?", true},
		// Advice, opinions and choices stay open.
		{"I'm planning a trip to Denver. Any suggestions?", false},
		{"Do you think it might be my living room?", false},
		{"How can I keep my kitchen clean?", false},
		{"Not sure which one to choose, what do you think?", false},
		// A keyword search asks for no single value.
		{"vegan lentil recipes", false},
	} {
		if got := retrieve.UniqueAnswer(c.query); got != c.unique {
			t.Errorf("UniqueAnswer(%q)=%v, want %v", c.query, got, c.unique)
		}
	}
}

func TestProfileConfigValidate(t *testing.T) {
	for _, c := range []struct {
		cfg retrieve.ProfileConfig
		ok  bool
	}{
		{retrieve.DefaultConfig().Profile, true},
		{retrieve.ProfileConfig{Blend: true, Alpha: 0.85}, true},
		{retrieve.ProfileConfig{Blend: true, Alpha: 0.5}, true},
		{retrieve.ProfileConfig{Blend: true, Alpha: 0.49}, false},
		{retrieve.ProfileConfig{Blend: true, Alpha: 1.2}, false},
		{retrieve.ProfileConfig{Rerank: true, RerankWeight: 1}, false},
	} {
		err := c.cfg.Validate()
		if (err == nil) != c.ok {
			t.Errorf("Validate(%+v)=%v, want ok=%v", c.cfg, err, c.ok)
		}
		if err != nil && (lore.ErrorCode(err) != lore.EINVALID || !strings.Contains(err.Error(), "0.5")) && c.cfg.Blend {
			t.Errorf("Validate(%+v)=%v, want EINVALID naming the 0.5 bound", c.cfg, err)
		}
	}
}

// dinnerWorld is a user with dinner memories of both kinds and a profile.
func dinnerWorld(t *testing.T, diet string, extra int) (*world, lore.Scope) {
	w := newWorld(t, hashEmbedder{Dim: 64})
	sc := lore.Scope{TenantID: "t", UserID: "u"}
	for i, text := range []string{
		"Dinner idea: grilled ribeye steak with garlic butter",
		"Dinner idea: mushroom risotto with parmesan",
		"Dinner idea: BBQ pork ribs with coleslaw",
		"Dinner idea: chickpea and spinach curry",
		"Dinner idea: roast chicken with potatoes",
		"Dinner idea: lentil shepherd's pie",
		"Dinner idea: beef burgers on the grill",
		"Dinner idea: tofu stir fry with vegetables",
		"Dinner idea: lamb kebabs with rice",
		"Dinner idea: halloumi and vegetable skewers",
	}[:10] {
		w.episode(sc, i, "", text, nil)
	}
	for i := range extra {
		w.episode(sc, 20+i, "", fmt.Sprintf("Note %d about the weekend plans", i), nil)
	}
	if _, err := w.store.PutProfileEntry(w.ctx, sc, lore.ProfileEntry{Key: "diet", Value: diet}); err != nil {
		t.Fatal(err)
	}
	return w, sc
}

func TestProfileRerank(t *testing.T) {
	w, sc := dinnerWorld(t, "vegetarian", 0)
	p := w.pipeline()
	p.Profiles = w.store
	req := retrieve.Request{Scope: sc, Query: "any dinner ideas?", TopK: 5, Explain: true}
	plain := search(t, p, req)
	if len(plain.Profile) != 1 || !strings.HasPrefix(plain.Context, "About the user:\n- diet: vegetarian (stated)") {
		t.Fatalf("profile=%v context=%q, want the profile and its section", plain.Profile, plain.Context)
	}
	p.Config.Profile.Rerank = true
	got := search(t, p, req)
	for i, r := range got.Results {
		for _, meat := range []string{"steak", "ribs", "chicken", "beef", "lamb"} {
			if strings.Contains(r.Memory, meat) && (i < 4 || r.ScoreDetails[retrieve.SignalProfile] >= 1) {
				t.Errorf("result %d %q is meat, want the vegetarian's top four meatless and meat lowered", i, r.Memory)
			}
		}
		if i > 0 && got.Results[i-1].Score < r.Score {
			t.Errorf("results not in score order at %d", i)
		}
		if _, ok := r.ScoreDetails[retrieve.SignalProfile]; !ok {
			t.Errorf("result %q has no profile factor in its details", r.Memory)
		}
	}
	// A unique-answer query comes back exactly as without the profile.
	fact := retrieve.Request{Scope: sc, Query: "When did I have the mushroom risotto?", TopK: 5}
	p.Config.Profile.Rerank = false
	before := search(t, p, fact)
	p.Config.Profile.Rerank, p.Config.Profile.Blend = true, true
	after := search(t, p, fact)
	if !slices.Equal(resultIDs(before.Results), resultIDs(after.Results)) {
		t.Errorf("a unique-answer query moved: %v → %v", memories(before.Results), memories(after.Results))
	}
}

func TestProfileRerankNeedsTenCandidates(t *testing.T) {
	w := newWorld(t, nil)
	sc := lore.Scope{TenantID: "t", UserID: "u"}
	w.episode(sc, 0, "", "Dinner idea: grilled ribeye steak", nil)
	w.episode(sc, 1, "", "Dinner idea: mushroom risotto", nil)
	if _, err := w.store.PutProfileEntry(w.ctx, sc, lore.ProfileEntry{Key: "diet", Value: "vegetarian"}); err != nil {
		t.Fatal(err)
	}
	p := w.pipeline()
	p.Profiles = w.store
	p.Config.Profile.Rerank = true
	got := search(t, p, retrieve.Request{Scope: sc, Query: "dinner idea steak", Explain: true})
	for _, r := range got.Results {
		if _, ok := r.ScoreDetails[retrieve.SignalProfile]; ok {
			t.Errorf("%q was reranked among %d candidates, want no rerank under 10", r.Memory, len(got.Results))
		}
	}
}

func TestProfileBlendRefusesLowAlpha(t *testing.T) {
	w, sc := dinnerWorld(t, "vegetarian", 0)
	p := w.pipeline()
	p.Profiles = w.store
	p.Config.Profile.Blend, p.Config.Profile.Alpha = true, 0.3
	_, err := p.Search(w.ctx, retrieve.Request{Scope: sc, Query: "dinner ideas"})
	if lore.ErrorCode(err) != lore.EINVALID {
		t.Fatalf("Search with alpha 0.3: err=%v, want EINVALID", err)
	}
	p.Config.Profile.Alpha = 0.85
	if _, err := p.Search(w.ctx, retrieve.Request{Scope: sc, Query: "dinner ideas"}); err != nil {
		t.Fatalf("Search with alpha 0.85: %v", err)
	}
}

// rewriterFunc is a QueryRewriter from a function.
type rewriterFunc func(ctx context.Context, q string, p []lore.ProfileEntry) (string, error)

func (f rewriterFunc) RewriteQuery(ctx context.Context, q string, p []lore.ProfileEntry) (string, error) {
	return f(ctx, q, p)
}

func TestProfileRewriteFallsBack(t *testing.T) {
	w, sc := dinnerWorld(t, "vegetarian", 0)
	p := w.pipeline()
	p.Profiles = w.store
	req := retrieve.Request{Scope: sc, Query: "any ideas for tonight?", TopK: 5}
	plain := search(t, p, req)
	p.Config.Profile.Rewrite = true
	calls := 0
	p.Rewriter = rewriterFunc(func(context.Context, string, []lore.ProfileEntry) (string, error) {
		calls++
		return "", errors.New("model down")
	})
	if got := search(t, p, req); !slices.Equal(resultIDs(got.Results), resultIDs(plain.Results)) || calls != 1 {
		t.Errorf("failed rewrite: %v (calls %d), want the plain answer %v", memories(got.Results), calls, memories(plain.Results))
	}
	p.Rewriter = rewriterFunc(func(_ context.Context, q string, prof []lore.ProfileEntry) (string, error) {
		calls++
		return q + " " + prof[0].Value + " mushroom risotto", nil
	})
	got := search(t, p, req)
	if len(got.Results) == 0 || !strings.Contains(got.Results[0].Memory, "risotto") {
		t.Errorf("rewritten search: %v, want the rewrite's words to count", memories(got.Results))
	}
	// Unique-answer queries are never rewritten.
	before := calls
	search(t, p, retrieve.Request{Scope: sc, Query: "When did I make the risotto?"})
	if calls != before {
		t.Errorf("a unique-answer query was sent to the rewriter")
	}
}
