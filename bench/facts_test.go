package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func TestPassAt(t *testing.T) {
	exp, stale := []string{"Stripe"}, []string{"Shopify"}
	for _, tc := range []struct {
		name   string
		texts  []string
		k      int
		expect bool
	}{
		{"first is the answer", []string{"user works at Stripe", "user worked at Shopify"}, 1, true},
		{"case-insensitive", []string{"USER WORKS AT STRIPE"}, 1, true},
		{"answer second, fails at 1", []string{"I like tea", "user works at Stripe"}, 1, false},
		{"answer second, passes at 3", []string{"I like tea", "user works at Stripe"}, 3, true},
		{"stale above the answer fails", []string{"user works at Shopify", "user works at Stripe"}, 3, false},
		{"stale below the answer passes", []string{"user works at Stripe", "user works at Shopify"}, 3, true},
		{"a result with both is an answer", []string{"left Shopify for Stripe", "user works at Shopify"}, 1, true},
		{"answer beyond k fails", []string{"a", "b", "c", "user works at Stripe"}, 3, false},
		{"no results", nil, 3, false},
		{"unrelated only", []string{"a", "b"}, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := passAt(tc.texts, exp, stale, tc.k); got != tc.expect {
				t.Errorf("passAt(%q, k=%d)=%v, want %v", tc.texts, tc.k, got, tc.expect)
			}
		})
	}
	t.Run("blank strings match nothing", func(t *testing.T) {
		if passAt([]string{"anything"}, []string{" "}, nil, 1) {
			t.Error("a blank expected string matched")
		}
		if !passAt([]string{"x", "Rome"}, []string{"rome"}, []string{""}, 3) {
			t.Error("a blank stale string blocked the answer")
		}
	})
}

func TestParseFactSetErrors(t *testing.T) {
	valid := func(q string) string {
		return `{"users": [{"id": "u", "sessions": [{"time": "2024-01-01T00:00:00Z", "messages": [{"role": "user", "content": "hi"}]}], "questions": [` + q + `]}]}`
	}
	for _, tc := range []struct{ name, data, want string }{
		{"not JSON", `{`, "facts:"},
		{"no users", `{"users": []}`, "no users"},
		{"no sessions", `{"users": [{"id": "u"}]}`, "no sessions"},
		{"untimed session", `{"users": [{"id": "u", "sessions": [{"messages": [{"role": "user", "content": "hi"}]}]}]}`, "no time"},
		{"bad kind", valid(`{"id": "q", "kind": "hop3", "query": "x", "expected": ["y"]}`), `kind "hop3"`},
		{"no expected", valid(`{"id": "q", "kind": "direct", "query": "x", "expected": [" "]}`), "no expected"},
		{"no query", valid(`{"id": "q", "kind": "direct", "expected": ["y"]}`), "no query"},
		{"twice", valid(`{"id": "q", "kind": "direct", "query": "x", "expected": ["y"]}, {"id": "q", "kind": "direct", "query": "x", "expected": ["y"]}`), "twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFactSet([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err=%v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestAskedAt(t *testing.T) {
	set, err := LoadFactSet("../fixtures/bench/facts_small.json")
	if err != nil {
		t.Fatal(err)
	}
	maya := set.Users[0]
	if got, want := maya.askedAt(maya.Questions[0]), time.Date(2024, 5, 11, 9, 30, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("without query_time: %v, want the last session plus a day, %v", got, want)
	}
	if got, want := maya.askedAt(maya.Questions[3]), time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("with query_time: %v, want %v", got, want)
	}
}

// TestFactsRunnerEndToEnd runs the small fixture through the real ingest
// and retrieve on the embedded store, with no embedder, and one message
// over the size limit.
func TestFactsRunnerEndToEnd(t *testing.T) {
	set, err := LoadFactSet("../fixtures/bench/facts_small.json")
	if err != nil {
		t.Fatal(err)
	}
	set.Users[1].Sessions[0].Messages = append(set.Users[1].Sessions[0].Messages,
		FactMessage{Role: "user", Content: strings.Repeat("very long ", 60)})
	svc, pipe := newServices(t, 400)
	// With no embedder, only the expansion search finds anything for
	// maya-5, whose words match nothing stored; it is kept on here so the
	// miss has top results to record.
	pipe.Config.SelfNoExpansion = false
	var misses bytes.Buffer
	r := &FactsRunner{Ingest: svc, Pipeline: pipe, Misses: &misses}
	rep, err := r.Run(context.Background(), set)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rep.Users != 2 || rep.Questions != 7 || rep.Messages != 9 {
		t.Errorf("users=%d questions=%d messages=%d, want 2, 7, 9", rep.Users, rep.Questions, rep.Messages)
	}
	if rep.Failures.Records != 1 || len(rep.Failures.Errors) != 1 || !strings.Contains(rep.Failures.Errors[0], "leo/s1/m3") {
		t.Errorf("failures=%+v, want the long message leo/s1/m3", rep.Failures)
	}
	if rep.NoGraph.Signals.Graph || rep.NoGraph.Signals.EntityExpansion || !rep.Default.Signals.Graph {
		t.Errorf("signals default=%+v no graph=%+v, want graph on and off", rep.Default.Signals, rep.NoGraph.Signals)
	}
	for _, s := range []FactsScores{rep.Default, rep.NoGraph} {
		want := map[string]int{"update": 2, "hop1": 2, "entity": 1, "asof": 1, "direct": 1}
		for k, n := range want {
			if s.ByKind[k].Questions != n {
				t.Errorf("kind %s: %d questions, want %d", k, s.ByKind[k].Questions, n)
			}
		}
		if s.Overall.Questions != 7 || s.Overall.Pass1 > s.Overall.Pass3 {
			t.Errorf("overall=%+v, want 7 questions and pass@1 <= pass@3", s.Overall)
		}
		// The dog's name is in a user turn that BM25 alone finds; the
		// mountain was never mentioned.
		if s.ByKind["hop1"].Pass3 < 0.5 || s.ByKind["direct"].Pass3 != 0 {
			t.Errorf("by kind=%+v, want leo-2 passed at 3 and maya-5 missed", s.ByKind)
		}
	}
	var lines []factsMiss
	sc := bufio.NewScanner(&misses)
	for sc.Scan() {
		var m factsMiss
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("miss line %q: %v", sc.Text(), err)
		}
		lines = append(lines, m)
	}
	n := rep.Default.Overall.Questions
	failed1 := n - int(math.Round(rep.Default.Overall.Pass1*float64(n)))
	if len(lines) != failed1 {
		t.Errorf("%d miss lines, want one per question failed at 1 (%d)", len(lines), failed1)
	}
	found := false
	for _, m := range lines {
		if len(m.Top) > missTop {
			t.Errorf("%s: %d top results, want at most %d", m.ID, len(m.Top), missTop)
		}
		if m.ID == "maya-5" {
			found = m.User == "maya" && m.Expected[0] == "Kilimanjaro" && len(m.Top) > 0 && m.Top[0].Memory != ""
		}
	}
	if !found {
		t.Errorf("misses %+v: want maya-5 with its expected answer and top results", lines)
	}
	var md bytes.Buffer
	rep.WriteMarkdown(&md)
	for _, want := range []string{"| hop1 | 2 |", "| **overall** | 7 |", "1 records failed"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
}

// TestFactsRunnerReuse checks that Reuse asks the questions again on a
// user already ingested in full, and ingests again a user whose stored
// episodes do not match the set.
func TestFactsRunnerReuse(t *testing.T) {
	set, err := LoadFactSet("../fixtures/bench/facts_small.json")
	if err != nil {
		t.Fatal(err)
	}
	svc, pipe := newServices(t, 0)
	ctx := context.Background()
	r := &FactsRunner{Ingest: svc, Pipeline: pipe, Reuse: true}
	first, err := r.Run(ctx, set)
	if err != nil {
		t.Fatal(err)
	}
	// Edit the first user's first message and give the second one more
	// message: the first is reused as stored, the second ingested again.
	orig := set.Users[0].Sessions[0].Messages[0].Content
	set.Users[0].Sessions[0].Messages[0].Content = "edited after the first run"
	set.Users[1].Sessions[0].Messages = append(set.Users[1].Sessions[0].Messages, FactMessage{Role: "user", Content: "one more message"})
	if _, err := r.Run(ctx, set); err != nil {
		t.Fatal(err)
	}
	contents := func(user string) []string {
		eps, err := svc.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: lore.Scope{TenantID: "bench-facts", UserID: user}, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range eps {
			out = append(out, e.Content)
		}
		return out
	}
	got0 := strings.Join(contents(set.Users[0].ID), "\n")
	if !strings.Contains(got0, orig) || strings.Contains(got0, "edited after the first run") {
		t.Errorf("user %s was ingested again; want it reused as stored", set.Users[0].ID)
	}
	if got1 := strings.Join(contents(set.Users[1].ID), "\n"); !strings.Contains(got1, "one more message") {
		t.Errorf("user %s was reused with a message missing; want it ingested again", set.Users[1].ID)
	}
	if first.Questions == 0 {
		t.Error("no questions asked")
	}
}
