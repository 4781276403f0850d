package retrieve

import (
	"testing"

	"github.com/lore-memory/lore"
)

// TestApplyEndedShare: the turn that ended a fact receives share of the
// ended fact's score; nothing moves before the end.
func TestApplyEndedShare(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	c := newTestCandidates()
	for _, e := range []*lore.Episode{
		{ID: "e3", Scope: scope, OccurredAt: dayN(2), Content: "I drive a 2012 Honda Civic"},
		{ID: "e4", Scope: scope, OccurredAt: dayN(60), Content: "Sold the Civic!"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	civic := &lore.Fact{ID: "civic", Scope: scope, SubjectID: "u", Predicate: "owns", Object: "Civic", FirstSeen: dayN(60), InvalidAt: tp(dayN(60)), SourceEpisodeIDs: []string{"e4"}}
	c.facts["civic"], c.kind["civic"] = civic, lore.KindFact
	newFused := func() fused {
		return fused{Scores: map[string]float64{"e3": 0.7, "e4": 0.5, "civic": 0.4}, Details: map[string]map[string]float64{}}
	}
	f := newFused()
	applyEndedShare(c, f, asOf{T: dayN(100), Now: dayN(100), Explicit: true}, 1, nil)
	if f.Scores["e4"] != 0.9 || f.Scores["e3"] != 0.7 || f.Details["e4"][SignalEnded] != 0.4 {
		t.Errorf("after the end: scores %v details %v, want e4 0.9", f.Scores, f.Details)
	}
	f = newFused()
	applyEndedShare(c, f, asOf{T: dayN(30), Now: dayN(100), Explicit: true}, 1, nil)
	if f.Scores["e4"] != 0.5 {
		t.Errorf("before the end: e4 %v, want 0.5", f.Scores["e4"])
	}
}

// TestEndedShareLaterValue: a value stated months after the old one ended
// ("he's my boyfriend now" after "Theo and I broke up") did not end it and
// gets no share; nor does the break-up turn, since the story went on after
// it. Without the later value the break-up turn gets its share.
func TestEndedShareLaterValue(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	c := newTestCandidates()
	for _, e := range []*lore.Episode{
		{ID: "e1", Scope: scope, OccurredAt: dayN(1), Content: "my boyfriend Theo is a chef"},
		{ID: "e2", Scope: scope, OccurredAt: dayN(40), Content: "Theo and I broke up"},
		{ID: "e3", Scope: scope, OccurredAt: dayN(200), Content: "he's my boyfriend now"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	for _, f := range []*lore.Fact{
		{ID: "theo", Scope: scope, SubjectID: "u", Predicate: "dates", Object: "Theo", FirstSeen: dayN(1), ValidAt: tp(dayN(1)), InvalidAt: tp(dayN(40)), SourceEpisodeIDs: []string{"e1", "e2"}},
		{ID: "ravi", Scope: scope, SubjectID: "u", Predicate: "dates", Object: "Ravi", FirstSeen: dayN(200), ValidAt: tp(dayN(200)), SourceEpisodeIDs: []string{"e3"}},
	} {
		c.facts[f.ID], c.kind[f.ID] = f, lore.KindFact
	}
	f := fused{Scores: map[string]float64{"e1": 0.5, "e2": 0.4, "e3": 0.3, "theo": 0.6, "ravi": 0.2}, Details: map[string]map[string]float64{}}
	applyEndedShare(c, f, asOf{T: dayN(300), Now: dayN(300)}, 1, nil)
	if f.Scores["e3"] != 0.3 {
		t.Errorf("the later value's turn got a share: %v", f.Scores["e3"])
	}
	if f.Scores["e2"] != 0.4 {
		t.Errorf("the break-up turn, with a later value: %v, want 0.4", f.Scores["e2"])
	}
	delete(c.facts, "ravi")
	f = fused{Scores: map[string]float64{"e1": 0.5, "e2": 0.4, "e3": 0.3, "theo": 0.6}, Details: map[string]map[string]float64{}}
	applyEndedShare(c, f, asOf{T: dayN(300), Now: dayN(300)}, 1, nil)
	if f.Scores["e2"] != 1.0 {
		t.Errorf("the break-up turn, no later value: %v, want 1.0", f.Scores["e2"])
	}
}

// TestEndedShareSuperseded: the turn that ended Berlin by moving to Munich
// gets no share once Munich has itself been replaced; the turn that
// replaced Munich does.
func TestEndedShareSuperseded(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	c := newTestCandidates()
	for _, e := range []*lore.Episode{
		{ID: "munich", Scope: scope, OccurredAt: dayN(10), Content: "I moved from Berlin to Munich"},
		{ID: "vienna", Scope: scope, OccurredAt: dayN(100), Content: "we relocated to Vienna"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	for _, f := range []*lore.Fact{
		{ID: "berlin", Scope: scope, SubjectID: "u", Predicate: "lives_in", Object: "Berlin", FirstSeen: dayN(10), InvalidAt: tp(dayN(10)), SourceEpisodeIDs: []string{"munich"}},
		{ID: "munich-f", Scope: scope, SubjectID: "u", Predicate: "lives_in", Object: "Munich", FirstSeen: dayN(10), ValidAt: tp(dayN(10)), InvalidAt: tp(dayN(100)), SourceEpisodeIDs: []string{"munich"}},
		{ID: "vienna-f", Scope: scope, SubjectID: "u", Predicate: "lives_in", Object: "Vienna", FirstSeen: dayN(100), ValidAt: tp(dayN(100)), SourceEpisodeIDs: []string{"vienna"}},
	} {
		c.facts[f.ID], c.kind[f.ID] = f, lore.KindFact
	}
	f := fused{Scores: map[string]float64{"munich": 0.5, "vienna": 0.3, "berlin": 0.6, "munich-f": 0.5, "vienna-f": 0.4}, Details: map[string]map[string]float64{}}
	applyEndedShare(c, f, asOf{T: dayN(200), Now: dayN(200)}, 1, nil)
	if f.Scores["munich"] != 0.5 {
		t.Errorf("the Berlin-to-Munich turn got a share: %v", f.Scores["munich"])
	}
	if f.Scores["vienna"] <= 0.3 {
		t.Errorf("the Vienna turn got no share: %v", f.Scores["vienna"])
	}
}

// TestEndedShareAskedAttribute: a query asking for an attribute lifts only
// the turns that ended facts stating it; the correction of a city is no
// answer to "what does he do?".
func TestEndedShareAskedAttribute(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	c := newTestCandidates()
	for _, e := range []*lore.Episode{
		{ID: "city", Scope: scope, OccurredAt: dayN(60), Content: "Per is in Tromsø, not Trondheim"},
		{ID: "job", Scope: scope, OccurredAt: dayN(70), Content: "Per quit the ferry company"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	for _, f := range []*lore.Fact{
		{ID: "lives", Scope: scope, SubjectID: "per", Predicate: "lives_in", Object: "Trondheim", FirstSeen: dayN(60), InvalidAt: tp(dayN(60)), SourceEpisodeIDs: []string{"city"}},
		{ID: "works", Scope: scope, SubjectID: "per", Predicate: "works_as", Object: "ferry captain", FirstSeen: dayN(70), InvalidAt: tp(dayN(70)), SourceEpisodeIDs: []string{"job"}},
	} {
		c.facts[f.ID], c.kind[f.ID] = f, lore.KindFact
	}
	newFused := func() fused {
		return fused{Scores: map[string]float64{"city": 0.1, "job": 0.1, "lives": 0.5, "works": 0.5}, Details: map[string]map[string]float64{}}
	}
	at := asOf{T: dayN(100), Now: dayN(100)}
	f := newFused()
	applyEndedShare(c, f, at, 1, []string{"what", "does", "my", "ex", "husband", "do", "for", "a", "living"})
	if f.Scores["city"] != 0.1 || f.Scores["job"] != 0.6 {
		t.Errorf("job question: city %v (want 0.1), job %v (want 0.6)", f.Scores["city"], f.Scores["job"])
	}
	f = newFused()
	applyEndedShare(c, f, at, 1, []string{"tell", "me", "about", "per"})
	if f.Scores["city"] != 0.6 || f.Scores["job"] != 0.6 {
		t.Errorf("open question: city %v, job %v, want both 0.6", f.Scores["city"], f.Scores["job"])
	}
	// "Where is Per originally from?" names its topic (comes_from): the
	// "where" of the question does not make the move an answer.
	f = newFused()
	applyEndedShare(c, f, at, 1, []string{"where", "is", "per", "originally", "from"})
	if f.Scores["city"] != 0.1 || f.Scores["job"] != 0.1 {
		t.Errorf("origin question: city %v, job %v, want both 0.1", f.Scores["city"], f.Scores["job"])
	}
}

// TestEndedShareSelfQuery: for a query about the user alone, another
// person's move lends its turn nothing; the user's own move does.
func TestEndedShareSelfQuery(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}, self: &lore.Entity{ID: "u"}}
	for _, e := range []*lore.Episode{
		{ID: "hers", Scope: scope, OccurredAt: dayN(50), Content: "Abena has moved from Leeds to London"},
		{ID: "mine", Scope: scope, OccurredAt: dayN(60), Content: "we moved from Accra to Kumasi"},
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	for _, f := range []*lore.Fact{
		{ID: "leeds", Scope: scope, SubjectID: "abena", Predicate: "lives_in", Object: "Leeds", FirstSeen: dayN(1), InvalidAt: tp(dayN(50)), SourceEpisodeIDs: []string{"hers"}},
		{ID: "accra", Scope: scope, SubjectID: "u", Predicate: "lives_in", Object: "Accra", FirstSeen: dayN(1), InvalidAt: tp(dayN(60)), SourceEpisodeIDs: []string{"mine"}},
	} {
		c.facts[f.ID], c.kind[f.ID] = f, lore.KindFact
	}
	f := fused{Scores: map[string]float64{"hers": 0.3, "mine": 0.3, "leeds": 0.5, "accra": 0.5}, Details: map[string]map[string]float64{}}
	applyEndedShare(c, f, asOf{T: dayN(100), Now: dayN(100)}, 1, words("Which city do I live in?"))
	if f.Scores["hers"] != 0.3 {
		t.Errorf("another person's move lent its turn %v", f.Scores["hers"]-0.3)
	}
	if f.Scores["mine"] != 0.8 {
		t.Errorf("the user's move: %v, want 0.8", f.Scores["mine"])
	}
}

// newTestCandidates is an empty candidate set.
func newTestCandidates() *candidateSet {
	return &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}}
}
