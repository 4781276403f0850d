package retrieve

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func ids(es []*lore.Entity) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

func TestLinkEntities(t *testing.T) {
	york := &lore.Entity{ID: "york", Name: "York", NormalizedName: "york", Mentions: 9}
	newYork := &lore.Entity{ID: "ny", Name: "New York", NormalizedName: "new york", Mentions: 2}
	mel := &lore.Entity{ID: "mel", Name: "Melanie", NormalizedName: "melanie", Aliases: []string{"mel"}, Mentions: 5}
	caro := &lore.Entity{ID: "caro", Name: "Caroline", NormalizedName: "caroline", Mentions: 7}
	stray := &lore.Entity{ID: "stray", Name: "Boston", NormalizedName: "boston", Mentions: 99}
	tests := []struct {
		name   string
		ngrams []string
		found  []*lore.Entity
		limit  int
		want   []string
	}{
		{"longer n-gram first", []string{"new york", "new", "york"}, []*lore.Entity{york, newYork}, 5, []string{"ny", "york"}},
		{"alias links", []string{"mel", "trip"}, []*lore.Entity{mel}, 5, []string{"mel"}},
		{"then mentions", []string{"melanie", "caroline"}, []*lore.Entity{mel, caro}, 5, []string{"caro", "mel"}},
		{"unnamed entity dropped", []string{"caroline"}, []*lore.Entity{stray, caro}, 5, []string{"caro"}},
		{"limit", []string{"melanie", "caroline"}, []*lore.Entity{mel, caro}, 1, []string{"caro"}},
		{"duplicates once", []string{"caroline"}, []*lore.Entity{caro, caro}, 5, []string{"caro"}},
		{"none", []string{"x"}, nil, 5, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ids(linkEntities(tt.ngrams, tt.found, tt.limit)); !slices.Equal(got, tt.want) {
				t.Fatalf("linkEntities = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestExpansionTerms(t *testing.T) {
	mel := &lore.Entity{ID: "mel", Name: "Melanie", Aliases: []string{"mel", "mellie"}}
	user := &lore.Entity{ID: "u", Name: "Caroline"}
	boston := &lore.Entity{ID: "b", Name: "The Boston Museum"}
	tests := []struct {
		name      string
		query     []string
		linked    []*lore.Entity
		connected []*lore.Entity
		limit     int
		want      []string
	}{
		{"aliases of linked", []string{"where", "is", "mel"}, []*lore.Entity{mel}, nil, 10, []string{"mellie", "melanie"}},
		{"connected after linked", []string{"my", "trip"}, []*lore.Entity{mel}, []*lore.Entity{user, boston}, 10, []string{"mel", "mellie", "melanie", "caroline", "boston", "museum"}},
		{"bounded", []string{"my", "trip"}, []*lore.Entity{mel}, []*lore.Entity{user}, 2, []string{"mel", "mellie"}},
		{"nothing new", []string{"melanie", "mel", "mellie"}, []*lore.Entity{mel}, nil, 10, nil},
		{"relatives first", []string{"my", "grandparents", "trip"}, []*lore.Entity{mel}, nil, 10, []string{"grandma", "grandpa", "grandmother", "grandfather", "granny", "mel", "mellie", "melanie"}},
		{"relative synonyms minus the query's", []string{"mom", "and", "dad"}, nil, nil, 10, []string{"mother", "mum", "father"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := expansionTerms(tt.query, tt.linked, tt.connected, tt.limit); !slices.Equal(got, tt.want) {
				t.Fatalf("expansionTerms = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestGraphScores(t *testing.T) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	fact := func(id string, count int, age time.Duration) *lore.Fact {
		return &lore.Fact{ID: id, Count: count, LastSeen: now.Add(-age)}
	}
	const halfLife = 30
	day := 24 * time.Hour
	tests := []struct {
		name   string
		hits   []lore.GraphHit
		higher string // must outscore lower
		lower  string
	}{
		{"one hop beats two", []lore.GraphHit{{Fact: fact("near", 1, 0), Hops: 1}, {Fact: fact("far", 1, 0), Hops: 2}}, "near", "far"},
		{"stated more often", []lore.GraphHit{{Fact: fact("often", 5, 0), Hops: 1}, {Fact: fact("once", 1, 0), Hops: 1}}, "often", "once"},
		{"recent", []lore.GraphHit{{Fact: fact("new", 1, day), Hops: 1}, {Fact: fact("old", 1, 300*day), Hops: 1}}, "new", "old"},
		{"joins two seeds", []lore.GraphHit{
			{Fact: fact("bridge", 1, 0), Hops: 1, SeedID: "a"}, {Fact: fact("bridge", 1, 0), Hops: 1, SeedID: "b"},
			{Fact: fact("single", 3, 0), Hops: 1, SeedID: "a"},
		}, "bridge", "single"},
	}
	hub := []lore.GraphHit{{Fact: fact("specific", 1, 0), Hops: 1, SeedID: "rare"}}
	for i := range 36 {
		hub = append(hub, lore.GraphHit{Fact: fact(fmt.Sprintf("hub%d", i), 1, 0), Hops: 1, SeedID: "hub"})
	}
	tests = append(tests, struct {
		name   string
		hits   []lore.GraphHit
		higher string
		lower  string
	}{"specific entity beats hub", hub, "specific", "hub0"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := graphScores(tt.hits, now, halfLife)
			if s[tt.higher] <= s[tt.lower] {
				t.Fatalf("score[%s]=%v, score[%s]=%v; want the first higher", tt.higher, s[tt.higher], tt.lower, s[tt.lower])
			}
		})
	}
	if s := graphScores([]lore.GraphHit{{Fact: fact("x", 1, 0), Hops: 1}}, now, halfLife); !near(s["x"], math.Tanh(1)) {
		t.Fatalf("fresh one-hop fact stated once scored %v, want tanh(1)", s["x"])
	}
	if s := graphScores(hub, now, halfLife); !near(s["hub0"], math.Tanh(0.5)) {
		t.Fatalf("fact of an entity with 36 facts scored %v, want tanh(sqrt(9/36))", s["hub0"])
	}
	capped := []lore.GraphHit{{Fact: fact("y", 50, 0), Hops: 1, SeedID: "a"}, {Fact: fact("y", 50, 0), Hops: 1, SeedID: "b"}}
	if s := graphScores(capped, now, halfLife); s["y"] >= 1 || s["y"] < 0.99 {
		t.Fatalf("score %v, want just under 1", s["y"])
	}
}

func TestRecency(t *testing.T) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		seen time.Time
		half float64
		want float64
	}{
		{"now", now, 30, 1},
		{"one half-life", now.AddDate(0, 0, -30), 30, 0.75},
		{"future", now.AddDate(0, 0, 3), 30, 1},
		{"zero time", time.Time{}, 30, 1},
		{"off", now.AddDate(-5, 0, 0), 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := recency(tt.seen, now, tt.half); !near(got, tt.want) {
				t.Fatalf("recency = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSpanScore(t *testing.T) {
	d := func(day int) time.Time { return time.Date(2023, 5, day, 0, 0, 0, 0, time.UTC) }
	week := []TimeSpan{{Text: "last week", Start: d(8), End: d(15)}}
	tests := []struct {
		name       string
		start, end time.Time
		spans      []TimeSpan
		want       float64
	}{
		{"inside", d(10), d(10), week, 1},
		{"at start", d(8), d(8), week, 1},
		{"a day after", d(16), d(16), week, 0.8668778997501817}, // e^(-1/7)
		{"one width before", d(1), d(1), week, 0.36787944117144233},
		{"interval overlapping", d(1), d(9), week, 1},
		{"zero time", time.Time{}, time.Time{}, week, 0},
		{"no spans", d(10), d(10), nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := spanScore(tt.start, tt.end, tt.spans); !near(got, tt.want) {
				t.Fatalf("spanScore = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSecondHopStages(t *testing.T) {
	f := func(id, subj, obj string) *lore.Fact { return &lore.Fact{ID: id, SubjectID: subj, ObjectID: obj} }
	hits := []lore.GraphHit{
		{Fact: f("f1", "seed", "emma"), Hops: 1, SeedID: "seed"},
		{Fact: f("f2", "user", "seed"), Hops: 1, SeedID: "seed"},
		{Fact: f("f3", "seed", ""), Hops: 1, SeedID: "seed"},
		{Fact: f("f4", "emma", "seed"), Hops: 1, SeedID: "seed"},
		{Fact: f("f5", "other", "hub"), Hops: 1, SeedID: "other"},
	}
	next, seedOf := frontier(hits, []string{"seed", "other"})
	if want := []string{"emma", "user", "hub"}; !slices.Equal(next, want) {
		t.Fatalf("frontier = %v, want %v", next, want)
	}
	if seedOf["hub"] != "other" || seedOf["emma"] != "seed" {
		t.Fatalf("seedOf = %v, want hub→other, emma→seed", seedOf)
	}

	ents := []*lore.Entity{
		{ID: "user", Type: lore.UserEntityType, Mentions: 3},
		{ID: "hub", Type: "person", Mentions: 500},
		{ID: "emma", Type: "person", Mentions: 4},
		{ID: "acme", Type: "organization", Mentions: 2},
	}
	tests := []struct {
		name  string
		next  []string
		hub   int
		limit int
		want  []string
	}{
		{"user and hubs skipped", []string{"user", "hub", "emma", "acme"}, 50, 8, []string{"emma", "acme"}},
		{"no hub bound", []string{"hub", "emma"}, 0, 8, []string{"hub", "emma"}},
		{"limit keeps order", []string{"acme", "emma"}, 50, 1, []string{"acme"}},
		{"unknown ids skipped", []string{"ghost", "emma"}, 50, 8, []string{"emma"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pickBridges(tt.next, ents, tt.hub, tt.limit); !slices.Equal(got, tt.want) {
				t.Fatalf("pickBridges = %v, want %v", got, tt.want)
			}
		})
	}

	more := []lore.GraphHit{
		{Fact: f("f1", "seed", "emma"), Hops: 1, SeedID: "emma"}, // already a one-hop hit
		{Fact: f("f9", "emma", "acme"), Hops: 1, SeedID: "emma"},
		{Fact: f("f10", "emma", "x"), Hops: 1, SeedID: "emma"},
	}
	got := appendSecondHop(slices.Clone(hits[:2]), more, seedOf, 3)
	if len(got) != 3 || got[2].Fact.ID != "f9" || got[2].Hops != 2 || got[2].SeedID != "seed" {
		t.Fatalf("appendSecondHop = %+v, want f1, f2, then f9 at two hops from seed (limit 3)", got)
	}
}
