package retrieve

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestStaleTurns: a turn whose best fact for the query ended is stale, with
// the turn that ended it as its closer; a turn whose best fact is current
// is not; a fact stored already ended stands for the earlier turns naming
// its object.
func TestStaleTurns(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	ep := func(id string, day int, text string) *lore.Episode {
		return &lore.Episode{ID: id, Scope: scope, OccurredAt: dayN(day), Content: text}
	}
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}}
	for _, e := range []*lore.Episode{
		ep("e1", 1, "I live in Ottawa and work at Rexall"),
		ep("e2", 50, "We moved from Ottawa to Toronto"),
		ep("e3", 2, "I drive a 2012 Honda Civic"),
		ep("e4", 60, "Sold the Civic!"),
	} {
		c.episodes[e.ID], c.kind[e.ID] = e, lore.KindEpisode
	}
	for _, f := range []*lore.Fact{
		{ID: "ottawa", Scope: scope, SubjectID: "u", Predicate: "lives_in", Object: "Ottawa", FirstSeen: dayN(1), InvalidAt: tp(dayN(50)), SourceEpisodeIDs: []string{"e1"}},
		{ID: "rexall", Scope: scope, SubjectID: "u", Predicate: "works_at", Object: "Rexall", FirstSeen: dayN(1), SourceEpisodeIDs: []string{"e1"}},
		{ID: "toronto", Scope: scope, SubjectID: "u", Predicate: "lives_in", Object: "Toronto", FirstSeen: dayN(50), ValidAt: tp(dayN(50)), SourceEpisodeIDs: []string{"e2"}},
		{ID: "civic", Scope: scope, SubjectID: "u", Predicate: "owns", Object: "Civic", FirstSeen: dayN(60), InvalidAt: tp(dayN(60)), SourceEpisodeIDs: []string{"e4"}},
	} {
		c.facts[f.ID], c.kind[f.ID] = f, lore.KindFact
	}
	at := asOf{T: dayN(100), Now: dayN(100), Explicit: true}

	// "Which city do I live in?": the Ottawa fact is e1's best.
	got := staleTurns(c, map[string]float64{"ottawa": 0.9, "rexall": 0.2, "toronto": 0.8, "civic": 0.1}, at)
	if cl := got["e1"]; len(cl) != 1 || cl[0] != "e2" {
		t.Errorf("e1 closers=%v, want [e2]", cl)
	}
	if cl := got["e3"]; len(cl) != 1 || cl[0] != "e4" {
		t.Errorf("e3 closers=%v, want [e4] (the Civic named, the fact stored already ended)", cl)
	}
	if _, ok := got["e2"]; ok {
		t.Error("the closing turn is stale")
	}
	// "Where do I work?": Rexall, still current, is e1's best.
	got = staleTurns(c, map[string]float64{"ottawa": 0.2, "rexall": 0.9, "toronto": 0.1}, at)
	if _, ok := got["e1"]; ok {
		t.Error("e1 stale although its best fact for the query is current")
	}
	// As of a day before the move, Ottawa had not ended.
	got = staleTurns(c, map[string]float64{"ottawa": 0.9}, asOf{T: dayN(10), Now: dayN(100), Explicit: true})
	if _, ok := got["e1"]; ok {
		t.Error("e1 stale before the move")
	}
}

func TestStaleBelow(t *testing.T) {
	res := func(ids ...string) []Result {
		var out []Result
		for i, id := range ids {
			out = append(out, Result{ID: id, Score: 1 - 0.1*float64(i)})
		}
		return out
	}
	ids := func(rs []Result) string {
		s := ""
		for _, r := range rs {
			s += r.ID + " "
		}
		return s
	}
	for _, tc := range []struct {
		name  string
		in    []Result
		stale map[string][]string
		ratio float64
		want  string
	}{
		{"moved below its closer", res("old", "x", "new", "y"), map[string][]string{"old": {"new"}}, 0.5, "x new old y "},
		{"closer already above", res("new", "old", "x"), map[string][]string{"old": {"new"}}, 0.5, "new old x "},
		{"closer absent", res("old", "x"), map[string][]string{"old": {"new"}}, 0.5, "old x "},
		{"closer too weak", res("old", "a", "b", "c", "d", "e", "new"), map[string][]string{"old": {"new"}}, 0.5, "old a b c d e new "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := staleBelow(tc.in, tc.stale, tc.ratio)
			if got := ids(out); got != tc.want {
				t.Fatalf("order %q, want %q", got, tc.want)
			}
			for i := 1; i < len(out); i++ {
				if out[i].Score > out[i-1].Score {
					t.Fatalf("scores not descending: %v", out)
				}
			}
		})
	}
}

// TestDiversifyFactCover: a turn a kept fact cites is deferred as said only
// when the fact says enough of it.
func TestDiversifyFactCover(t *testing.T) {
	turn := &lore.Episode{ID: "e1", Content: "calc. my mom keeps calling too lol. she's a nurse in Halifax"}
	fact := &lore.Fact{ID: "f1", Text: "user's mom keeps calling too lol.", SourceEpisodeIDs: []string{"e1"}}
	in := []Result{
		{ID: "f1", Memory: fact.Text, Score: 0.9, Fact: fact},
		{ID: "x", Memory: "something else entirely", Score: 0.8, Episode: &lore.Episode{ID: "x", Content: "something else entirely"}},
		{ID: "e1", Memory: turn.Content, Score: 0.7, Episode: turn},
	}
	for _, tc := range []struct {
		cover float64
		want  string
	}{{0, "f1 x e1 "}, {0.7, "f1 x e1 "}} {
		out := diversify(in, 2, 0.9, sourceIDs, deferral{Facts: true, Margin: -1, Cover: tc.cover})
		got := ""
		for _, r := range out {
			got += r.ID + " "
		}
		want := map[float64]string{0: "f1 x ", 0.7: "f1 x "}[tc.cover]
		if got != want {
			t.Errorf("cover %v: %q, want %q", tc.cover, got, want)
		}
	}
	// With room for all three, the turn comes last when covered (deferred
	// to the end) and in its place when not.
	in = append(in, Result{ID: "y", Memory: "unrelated words here", Score: 0.6, Episode: &lore.Episode{ID: "y", Content: "unrelated words here"}})
	for cover, want := range map[float64]string{0: "f1 x y e1 ", 0.7: "f1 x e1 y "} {
		out := diversify(in, 4, 0.9, sourceIDs, deferral{Facts: true, Margin: -1, Cover: cover})
		got := ""
		for _, r := range out {
			got += r.ID + " "
		}
		if got != want {
			t.Errorf("cover %v: %q, want %q", cover, got, want)
		}
	}
}

// TestApplyEndedShare: the turn that ended a fact receives share of the
// ended fact's score; nothing moves before the end.
func TestApplyEndedShare(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}}
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
	applyEndedShare(c, f, asOf{T: dayN(100), Now: dayN(100), Explicit: true}, 1)
	if f.Scores["e4"] != 0.9 || f.Scores["e3"] != 0.7 || f.Details["e4"][SignalEnded] != 0.4 {
		t.Errorf("after the end: scores %v details %v, want e4 0.9", f.Scores, f.Details)
	}
	f = newFused()
	applyEndedShare(c, f, asOf{T: dayN(30), Now: dayN(100), Explicit: true}, 1)
	if f.Scores["e4"] != 0.5 {
		t.Errorf("before the end: e4 %v, want 0.5", f.Scores["e4"])
	}
}

// TestEndedShareLaterValue: a value stated months after the old one ended
// ("he's my boyfriend now" after "Theo and I broke up") did not end it and
// gets no share; the break-up turn does.
func TestEndedShareLaterValue(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}}
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
	applyEndedShare(c, f, asOf{T: dayN(300), Now: dayN(300)}, 1)
	if f.Scores["e3"] != 0.3 {
		t.Errorf("the later value's turn got a share: %v", f.Scores["e3"])
	}
	if f.Scores["e2"] != 1.0 {
		t.Errorf("the break-up turn: %v, want 1.0", f.Scores["e2"])
	}
}

// TestRefersBack: a turn saying "her" right after the same speaker named
// the entity refers back to it; a turn of the other side, or one long
// after, does not.
func TestRefersBack(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	at := dayN(1)
	ep := func(id, role string, min int, text string) *lore.Episode {
		return &lore.Episode{ID: id, Scope: scope, Role: role, OccurredAt: at.Add(time.Duration(min) * time.Minute), Content: text}
	}
	eps := map[string]*lore.Episode{}
	for _, e := range []*lore.Episode{
		ep("e1", "user", 0, "My daughter Sofia is in 2nd grade"),
		ep("e2", "assistant", 1, "How did it go? Is she happy there?"),
		ep("e3", "user", 2, "her teacher Mr. Okafor says she's doing well"),
		ep("e4", "user", 120, "her bike is broken"),
		ep("e5", "user", 3, "the weather is nice"),
	} {
		eps[e.ID] = e
	}
	names := func(e *lore.Episode) bool { return containsRun(words(e.Content), []string{"sofia"}) }
	for id, want := range map[string]bool{"e3": true, "e2": false, "e4": false, "e5": false} {
		if got := refersBack(eps[id], eps, names); got != want {
			t.Errorf("%s: refersBack=%v, want %v", id, got, want)
		}
	}
}
