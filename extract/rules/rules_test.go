package rules

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

type fixture struct {
	Episodes []struct {
		ID         string    `json:"id"`
		Role       string    `json:"role"`
		Name       string    `json:"name"`
		Content    string    `json:"content"`
		OccurredAt time.Time `json:"occurred_at"`
	} `json:"episodes"`
	WantFacts []struct {
		Subject        string `json:"subject"`
		Predicate      string `json:"predicate"`
		Object         string `json:"object"`
		Episode        string `json:"episode"`
		ObjectIsEntity bool   `json:"object_is_entity"`
		ValidAt        string `json:"valid_at"`
	} `json:"want_facts"`
	WantEntities []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"want_entities"`
	Never []struct {
		Subject   string `json:"subject"`
		Predicate string `json:"predicate"`
		Object    string `json:"object"`
	} `json:"never"`
}

func loadFixture(t *testing.T) (fixture, []*lore.Episode) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "extract", "rules_basic.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx fixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	var eps []*lore.Episode
	for _, e := range fx.Episodes {
		eps = append(eps, &lore.Episode{ID: e.ID, Role: e.Role, Speaker: e.Name, Content: e.Content, OccurredAt: e.OccurredAt})
	}
	return fx, eps
}

func findFact(ex *lore.Extraction, subject, predicate, object string) *lore.ExtractedFact {
	for i, f := range ex.Facts {
		if strings.EqualFold(f.Subject, subject) && f.Predicate == predicate && strings.EqualFold(f.Object, object) {
			return &ex.Facts[i]
		}
	}
	return nil
}

func TestExtractFixture(t *testing.T) {
	fx, eps := loadFixture(t)
	ex, err := New().Extract(context.Background(), lore.ExtractRequest{Scope: lore.Scope{TenantID: "t", UserID: "u"}, Episodes: eps})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Extractor != Version {
		t.Errorf("Extractor=%q, want %q", ex.Extractor, Version)
	}
	for _, w := range fx.WantFacts {
		t.Run(w.Predicate+"/"+w.Object, func(t *testing.T) {
			f := findFact(ex, w.Subject, w.Predicate, w.Object)
			if f == nil {
				var got []string
				for _, f := range ex.Facts {
					got = append(got, f.Subject+" "+f.Predicate+" "+f.Object)
				}
				t.Fatalf("missing fact (%s, %s, %s); got:\n%s", w.Subject, w.Predicate, w.Object, strings.Join(got, "\n"))
			}
			if len(f.EpisodeIDs) == 0 || f.EpisodeIDs[0] != w.Episode {
				t.Errorf("EpisodeIDs=%v, want [%s]", f.EpisodeIDs, w.Episode)
			}
			if f.ObjectIsEntity != w.ObjectIsEntity {
				t.Errorf("ObjectIsEntity=%v, want %v", f.ObjectIsEntity, w.ObjectIsEntity)
			}
			if w.ValidAt != "" {
				if f.ValidAt == nil || f.ValidAt.Format(time.DateOnly) != w.ValidAt {
					t.Errorf("ValidAt=%v, want %s", f.ValidAt, w.ValidAt)
				}
			}
			if f.Text == "" || f.Confidence <= 0 || f.Confidence > 1 {
				t.Errorf("Text=%q Confidence=%v, want a sentence and 0<confidence<=1", f.Text, f.Confidence)
			}
			if _, err := lore.NormalizePredicate(f.Predicate); err != nil {
				t.Errorf("predicate %q is not normalizable: %v", f.Predicate, err)
			}
		})
	}
	for _, w := range fx.WantEntities {
		found := false
		for _, e := range ex.Entities {
			if strings.EqualFold(e.Name, w.Name) {
				found = true
				if e.Type != w.Type {
					t.Errorf("entity %q type=%q, want %q", w.Name, e.Type, w.Type)
				}
			}
		}
		if !found {
			t.Errorf("missing entity %q", w.Name)
		}
	}
	for _, n := range fx.Never {
		if f := findFact(ex, n.Subject, n.Predicate, n.Object); f != nil {
			t.Errorf("unexpected fact %+v (from the assistant or a bad match)", *f)
		}
	}
}

func TestExtractSpeakerNames(t *testing.T) {
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	eps := []*lore.Episode{
		{ID: "D1:1", Role: "user", Speaker: "Caroline", Content: "I went to a LGBTQ support group yesterday and it was so powerful.", OccurredAt: at},
		{ID: "D1:2", Role: "user", Speaker: "Melanie", Content: "Wow Caroline! I painted a lake sunrise last week with Anna.", OccurredAt: at},
	}
	ex, err := New().Extract(context.Background(), lore.ExtractRequest{Episodes: eps})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, subject, predicate, object, validAt string
	}{
		{"went to with yesterday", "Caroline", "went_to", "LGBTQ support group", "2023-05-07"},
		{"painted last week", "Melanie", "painted", "lake sunrise", "2023-05-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := findFact(ex, tt.subject, tt.predicate, tt.object)
			if f == nil {
				var got []string
				for _, f := range ex.Facts {
					got = append(got, f.Subject+" "+f.Predicate+" "+f.Object)
				}
				t.Fatalf("missing (%s, %s, %s); got %q", tt.subject, tt.predicate, tt.object, got)
			}
			if f.ValidAt == nil || f.ValidAt.Format(time.DateOnly) != tt.validAt {
				t.Errorf("ValidAt=%v, want %s", f.ValidAt, tt.validAt)
			}
		})
	}
	for _, f := range ex.Facts {
		if f.Predicate == "mentioned" {
			t.Errorf("fact %q: \"mentioned\" echo facts are gone", f.Text)
		}
	}
	if f := findFact(ex, "Caroline", "went_to", "LGBTQ support group"); f != nil {
		if want := "Caroline went to a LGBTQ support group on 7 May 2023 and it was so powerful."; f.Text != want {
			t.Errorf("Text=%q, want %q", f.Text, want)
		}
	}
	for _, e := range ex.Entities {
		if e.Name == "Wow" || e.Name == "I" {
			t.Errorf("entity %q is not a name", e.Name)
		}
	}
}

func TestExtractMergesRepeatsInBatch(t *testing.T) {
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	eps := []*lore.Episode{
		{ID: "a", Role: "user", Content: "I live in Porto.", OccurredAt: at},
		{ID: "b", Role: "user", Content: "As I said, I live in Porto.", OccurredAt: at},
	}
	ex, err := New().Extract(context.Background(), lore.ExtractRequest{Episodes: eps})
	if err != nil {
		t.Fatal(err)
	}
	f := findFact(ex, "user", "lives_in", "Porto")
	if f == nil {
		t.Fatal("missing lives_in Porto")
	}
	if len(f.EpisodeIDs) != 2 {
		t.Errorf("EpisodeIDs=%v, want both episodes", f.EpisodeIDs)
	}
	n := 0
	for _, g := range ex.Facts {
		if g.Predicate == "lives_in" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("lives_in facts=%d, want 1", n)
	}
}

func TestExtractHonoursCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New().Extract(ctx, lore.ExtractRequest{Episodes: []*lore.Episode{{ID: "x", Role: "user", Content: "I live in Rome."}}})
	if err == nil {
		t.Fatal("Extract on a cancelled context returned no error")
	}
}

func TestCleanObject(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"clause break", "hiking and biking with friends", "hiking"},
		{"punctuation", "Boston, it is lovely", "Boston"},
		{"article", "a new bike", "new bike"},
		{"filler", "pottery a lot", "pottery"},
		{"six words", "one two three four five six seven eight", "one two three four five six"},
		{"cut leaves no dangling word", "helpful responses from 3 members in the forum", "helpful responses from 3 members"},
		{"only function words", "with", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanObject(tt.in, nil, 0); got != tt.want {
				t.Errorf("cleanObject(%q)=%q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSplitSentences(t *testing.T) {
	got := splitSentences("I met Dr. Smith today. It went well! Did it?\nYes")
	want := []string{"I met Dr. Smith today.", "It went well!", "Did it?", "Yes"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("splitSentences=%q, want %q", got, want)
	}
	got = splitSentences("so no more Dona Cida :( can you help? it's 10:30 (ish) :-) ok")
	want = []string{"so no more Dona Cida :(", "can you help?", "it's 10:30 (ish) :-)", "ok"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("splitSentences=%q, want %q", got, want)
	}
}

func BenchmarkExtract(b *testing.B) {
	at := time.Date(2023, 5, 8, 0, 0, 0, 0, time.UTC)
	ep := &lore.Episode{ID: "x", Role: "user", Speaker: "Caroline", OccurredAt: at,
		Content: "I went to a LGBTQ support group yesterday and it was so powerful. My sister Emma moved to Berlin last week and I love painting."}
	x := New()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := x.Extract(context.Background(), lore.ExtractRequest{Episodes: []*lore.Episode{ep}}); err != nil {
			b.Fatal(err)
		}
	}
}
