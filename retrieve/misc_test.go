package retrieve

import (
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func TestDiversify(t *testing.T) {
	r := func(id, text string) Result { return Result{ID: id, Memory: text} }
	tests := []struct {
		name      string
		in        []Result
		k         int
		threshold float64
		want      []string
	}{
		{"near duplicate dropped", []Result{r("a", "Caroline moved to Boston"), r("b", "caroline moved to boston!"), r("c", "Melanie paints")}, 10, 0.9, []string{"a", "c"}},
		{"plural counts as same", []Result{r("a", "Melanie likes dogs"), r("b", "Melanie like dog")}, 10, 0.9, []string{"a"}},
		{"different kept", []Result{r("a", "Caroline moved to Boston"), r("b", "Caroline moved to Paris")}, 10, 0.9, []string{"a", "b"}},
		{"k after dedup", []Result{r("a", "x one"), r("b", "x one"), r("c", "y two"), r("d", "z three")}, 2, 0.9, []string{"a", "c"}},
		{"off", []Result{r("a", "same"), r("b", "same")}, 10, 0, []string{"a", "b"}},
		{"empty texts are not duplicates", []Result{r("a", "?"), r("b", "!")}, 10, 0.9, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, x := range diversify(tt.in, tt.k, tt.threshold, nil, deferral{Facts: true}) {
				got = append(got, x.ID)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("diversify = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDiversifyBySource(t *testing.T) {
	ep := func(id string) Result {
		return Result{ID: id, Memory: "turn " + id, Episode: &lore.Episode{ID: id}}
	}
	fact := func(id string, srcs ...string) Result {
		return Result{ID: id, Memory: "fact " + id, Fact: &lore.Fact{ID: id, SourceEpisodeIDs: srcs}}
	}
	tests := []struct {
		name string
		in   []Result
		k    int
		want []string
	}{
		{"fact after its turn deferred", []Result{ep("e1"), fact("f1", "e1"), ep("e2")}, 2, []string{"e1", "e2"}},
		{"turn after its fact deferred", []Result{fact("f1", "e1"), ep("e1"), ep("e2")}, 2, []string{"f1", "e2"}},
		{"deferred fill the end", []Result{ep("e1"), fact("f1", "e1"), ep("e2")}, 3, []string{"e1", "e2", "f1"}},
		{"partly new sources kept", []Result{ep("e1"), fact("f1", "e1", "e3"), ep("e2")}, 2, []string{"e1", "f1"}},
		{"no sources never deferred", []Result{fact("f1"), fact("f2"), ep("e1")}, 2, []string{"f1", "f2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, x := range diversify(tt.in, tt.k, 0.9, sourceIDs, deferral{Facts: true}) {
				got = append(got, x.ID)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("diversify = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestDiversifyBySourceShown checks that only the sources a fact shows
// cover a turn: a turn the fact merged from but does not show keeps its
// place.
func TestDiversifyBySourceShown(t *testing.T) {
	in := []Result{
		{ID: "f1", Memory: "fact one", Fact: &lore.Fact{ID: "f1", SourceEpisodeIDs: []string{"e1", "e2", "e3", "e4"}}},
		{ID: "e4", Memory: "turn four", Episode: &lore.Episode{ID: "e4"}},
		{ID: "e1", Memory: "turn one", Episode: &lore.Episode{ID: "e1"}},
		{ID: "e9", Memory: "turn nine", Episode: &lore.Episode{ID: "e9"}},
	}
	scores := map[string]float64{"e1": 0.9, "e2": 0.5, "e3": 0.4, "e4": 0.1}
	shown := func(r Result) []string {
		if r.Fact != nil {
			return factSources(r.Fact.SourceEpisodeIDs, scores, 3)
		}
		return sourceIDs(r)
	}
	var got []string
	for _, x := range diversify(in, 3, 0.9, shown, deferral{Facts: true}) {
		got = append(got, x.ID)
	}
	if want := "f1,e4,e9"; strings.Join(got, ",") != want {
		t.Fatalf("diversify = %v, want %s: e4 is not among the fact's three shown sources, e1 is", got, want)
	}
}

// TestDiversifyDeferral checks that a deferred result fills the places
// left at the end, and that facts from one turn do not defer each other.
func TestDiversifyDeferral(t *testing.T) {
	ep := func(id string, score float64) Result {
		return Result{ID: id, Memory: "turn " + id, Score: score, Episode: &lore.Episode{ID: id}}
	}
	fact := func(id string, score float64, srcs ...string) Result {
		return Result{ID: id, Memory: "fact " + id, Score: score, Fact: &lore.Fact{ID: id, SourceEpisodeIDs: srcs}}
	}
	tests := []struct {
		name string
		in   []Result
		d    deferral
		want []string
	}{
		{"deferred waits for the end", []Result{ep("e1", 0.9), fact("f1", 0.5, "e1"), ep("e2", 0.45), ep("e3", 0.2), ep("e4", 0.1)}, deferral{Facts: true}, []string{"e1", "e2", "e3", "e4", "f1"}},
		{"deferred passes noise (under 5 % of the best)", []Result{ep("e1", 0.9), fact("f1", 0.5, "e1"), ep("e2", 0.45), ep("e3", 0.04), ep("e4", 0.01)}, deferral{Facts: true}, []string{"e1", "e2", "f1", "e3", "e4"}},
		{"facts of one turn both kept", []Result{fact("f1", 0.9, "e1"), fact("f2", 0.8, "e1"), ep("e2", 0.7)}, deferral{Facts: true}, []string{"f1", "f2", "e2"}},
		{"facts never deferred", []Result{ep("e1", 0.9), fact("f1", 0.5, "e1"), ep("e2", 0.45)}, deferral{Facts: false}, []string{"e1", "f1", "e2"}},
		{"turn slots: a fact repeating a kept fact's turn waits", []Result{fact("f1", 0.9, "e1"), fact("f2", 0.8, "e1"), ep("e2", 0.7)}, deferral{Facts: true, Repeats: true}, []string{"f1", "e2", "f2"}},
		{"turn slots: a fact bringing a new turn stays", []Result{fact("f1", 0.9, "e1"), fact("f2", 0.8, "e1", "e3"), ep("e2", 0.7)}, deferral{Facts: true, Repeats: true}, []string{"f1", "f2", "e2"}},
		{"turn slots: a kept answer is never deferred", []Result{fact("f1", 0.9, "e1"), fact("f2", 0.8, "e1"), ep("e2", 0.7)}, deferral{Repeats: true, Keep: func(r Result) bool { return r.ID == "f2" }}, []string{"f1", "f2", "e2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, x := range diversify(tt.in, 10, 0.9, sourceIDs, tt.d) {
				got = append(got, x.ID)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("diversify = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDiversifyScoresDescend(t *testing.T) {
	in := []Result{
		{ID: "e1", Memory: "turn one", Score: 0.9, Episode: &lore.Episode{ID: "e1"}},
		{ID: "f1", Memory: "fact one", Score: 0.8, Fact: &lore.Fact{ID: "f1", SourceEpisodeIDs: []string{"e1"}}},
		{ID: "e2", Memory: "turn two", Score: 0.2, Episode: &lore.Episode{ID: "e2"}},
	}
	out := diversify(in, 3, 0.9, sourceIDs, deferral{Facts: true})
	if got := out[2].ID; got != "f1" {
		t.Fatalf("last=%s, want the deferred fact f1", got)
	}
	for i := 1; i < len(out); i++ {
		if out[i].Score > out[i-1].Score {
			t.Errorf("score[%d]=%v > score[%d]=%v, want scores that descend", i, out[i].Score, i-1, out[i-1].Score)
		}
	}
}

func TestFormatContext(t *testing.T) {
	may8 := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	jun1 := time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC)
	moved := Result{Type: lore.KindFact, Fact: &lore.Fact{Text: "Caroline moved to Boston", FirstSeen: may8, LastSeen: may8}}
	old := Result{Type: lore.KindFact, Fact: &lore.Fact{Text: "Caroline lives in Paris", FirstSeen: may8.AddDate(-1, 0, 0), InvalidAt: &jun1}}
	ep := Result{Type: lore.KindEpisode, Episode: &lore.Episode{Speaker: "Caroline", Role: "user", Content: "I  moved to\nBoston!", OccurredAt: may8}}
	anon := Result{Type: lore.KindEpisode, Episode: &lore.Episode{Role: "assistant", Content: "Noted.", OccurredAt: may8}}
	long := Result{Type: lore.KindEpisode, Episode: &lore.Episode{Role: "user", Content: strings.Repeat("é", 400), OccurredAt: may8}}
	tests := []struct {
		name     string
		results  []Result
		maxChars int
		want     string
	}{
		{
			name:    "sections and dates",
			results: []Result{ep, moved, anon},
			want: "Facts:\n- [2023-05-08] Caroline moved to Boston (fact)\n\n" +
				"Conversation excerpts:\n- [2023-05-08 13:56] Caroline: I moved to Boston!\n- [2023-05-08 13:56] assistant: Noted.",
		},
		{
			name:    "invalidated fact says so",
			results: []Result{old},
			want:    "Facts:\n- [2022-05-08] Caroline lives in Paris (fact, no longer true since 2023-06-01)",
		},
		{
			name:     "bounded at whole lines",
			results:  []Result{moved, ep},
			maxChars: 60,
			want:     "Facts:\n- [2023-05-08] Caroline moved to Boston (fact)",
		},
		{
			name:    "long memory clipped at a rune",
			results: []Result{long},
			want:    "Conversation excerpts:\n- [2023-05-08 13:56] user: " + strings.Repeat("é", 300) + "…",
		},
		{"empty", nil, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := formatContext(tt.results, tt.maxChars)
			if got != tt.want {
				t.Fatalf("formatContext =\n%q\nwant\n%q", got, tt.want)
			}
			if tt.maxChars > 0 && len(got) > tt.maxChars {
				t.Fatalf("len = %d, want at most %d", len(got), tt.maxChars)
			}
		})
	}
}
