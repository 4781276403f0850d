package retrieve

import (
	"reflect"
	"slices"
	"testing"

	"github.com/lore-memory/lore"
)

func TestRoleChains(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        []roleChain
	}{
		{"my role", "Where does my sister live?", []roleChain{{Owner: ownerUser, Roles: [][]string{{"sister", "live"}}}}},
		{"two hops", "What does my sister's husband do?", []roleChain{{Owner: ownerUser, Roles: [][]string{{"sister"}, {"husband"}}}}},
		{"our multi-word role", "Who is our book club host?", []roleChain{{Owner: ownerUser, Roles: [][]string{{"book", "club", "host"}}}}},
		{"named owner", "What is Caroline's dog called?", []roleChain{{Owner: ownerName, OwnerName: "caroline", Roles: [][]string{{"dog", "called"}}}}},
		{"pronoun", "Where does her brother work?", []roleChain{{Owner: ownerPronoun, Roles: [][]string{{"brother", "work"}}}}},
		{"curly apostrophe", "Where does my sister’s husband work?", []roleChain{{Owner: ownerUser, Roles: [][]string{{"sister"}, {"husband", "work"}}}}},
		{"contraction is no possessive", "Where's the party?", nil},
		{"no role", "What did I eat?", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := roleChains(tc.query); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("roleChains(%q) = %+v, want %+v", tc.query, got, tc.want)
			}
		})
	}
}

func TestRolePredicates(t *testing.T) {
	for _, tc := range []struct {
		phrase []string
		want   []string // must all be among the predicates
	}{
		{[]string{"sister"}, []string{"has_sister"}},
		{[]string{"mom"}, []string{"has_mom", "has_mother"}},
		{[]string{"sisters"}, []string{"has_sister"}},
		{[]string{"parents"}, []string{"has_mother", "has_father", "has_dad"}},
		{[]string{"husband"}, []string{"has_husband", "married_to", "has_spouse"}},
		{[]string{"coworker"}, []string{"has_coworker", "has_colleague"}},
		// "I'm seeing someone new, his name is Dev" gives only (user dates Dev).
		{[]string{"boyfriend"}, []string{"has_boyfriend", "dates"}},
		{[]string{"gf"}, []string{"has_girlfriend", "dates"}},
		{[]string{"book", "club", "host"}, []string{"has_book_club_host"}},
		{[]string{"yoga", "teachers"}, []string{"has_yoga_teacher"}},
	} {
		got := rolePredicates(tc.phrase)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("rolePredicates(%q) = %q, want %q among them", tc.phrase, got, w)
			}
		}
	}
}

func TestScoreMentions(t *testing.T) {
	eps := map[string]*lore.Episode{
		"job":   {ID: "job", Content: "Nomsa just started at the hospital in Umhlanga"},
		"home":  {ID: "home", Content: "my sister Nomsa lives in Durban"},
		"other": {ID: "other", Content: "We moved to Stellenbosch for work"},
	}
	kind := map[string]lore.DocKind{"job": lore.KindEpisode, "home": lore.KindEpisode, "other": lore.KindEpisode}
	m := &mentions{names: [][]string{{"nomsa"}}, topic: []string{"work"}, scores: map[string]float64{"home": 0.9}}
	// The dense signal finds the job turn closest to "where does my sister work?".
	scoreMentions(m, eps, kind, map[string]float64{"job": 0.8, "home": 0.5, "other": 0.7})
	if _, ok := m.scores["other"]; ok {
		t.Errorf("a turn not naming Nomsa got %v", m.scores["other"])
	}
	if got := m.scores["job"]; got != 1 {
		t.Errorf("job turn = %v, want 1 (the closest dense match)", got)
	}
	if got := m.scores["home"]; got != 0.9 {
		t.Errorf("home turn = %v, want its higher score 0.9 kept", got)
	}
}

func TestNamedEntities(t *testing.T) {
	linked := []*lore.Entity{
		{ID: "u", Type: lore.UserEntityType, Mentions: 3},
		{ID: "jonas", Type: "person", Mentions: 4},
		{ID: "caroline", Type: "person", Mentions: 400},
		{ID: "mochi", Type: "pet", Mentions: 2},
		{ID: "rome", Type: "place", Mentions: 2},
	}
	var got []string
	for _, e := range namedEntities(linked, 50) {
		got = append(got, e.ID)
	}
	if want := []string{"jonas", "mochi"}; !slices.Equal(got, want) {
		t.Fatalf("namedEntities = %v, want %v", got, want)
	}
}
