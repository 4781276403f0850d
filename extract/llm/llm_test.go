package llm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm/llmtest"
)

func TestExtractConversation(t *testing.T) {
	srv := llmtest.New(t, llmtest.FixtureDir())
	x, _ := newExtractor(t, srv)
	req := conversation()

	ext, err := x.Extract(context.Background(), req)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if want := "llm/" + testModel + "/v1"; ext.Extractor != want {
		t.Errorf("Extractor=%q, want %q", ext.Extractor, want)
	}
	if len(ext.Rejected) != 0 {
		t.Errorf("Rejected=%q, want none", ext.Rejected)
	}

	ep1, ep3 := req.Episodes[0].ID, req.Episodes[2].ID
	entities := []struct {
		name, typ string
		handle    int
		aliases   []string
	}{
		{"Alice", lore.UserEntityType, 1, nil},
		{"Lisbon", "place", 0, nil},
		{"Acme Robotics", "organization", 0, []string{"Acme"}},
		{"coffee", "thing", 3, nil},
		{"Maria", "person", 0, nil},
	}
	if len(ext.Entities) != len(entities) {
		t.Errorf("len(Entities)=%d, want %d: %+v", len(ext.Entities), len(entities), ext.Entities)
	}
	for _, w := range entities {
		e := entityBy(ext, w.name)
		if e == nil {
			t.Errorf("entity %q missing from %+v", w.name, ext.Entities)
			continue
		}
		if e.Type != w.typ || e.Handle != w.handle || !sameIDs(e.Aliases, w.aliases) {
			t.Errorf("entity %q = type %q handle %d aliases %q, want %q %d %q", w.name, e.Type, e.Handle, e.Aliases, w.typ, w.handle, w.aliases)
		}
	}

	facts := []struct {
		name              string
		predicate, object string
		subject, subjType string
		objIsEntity       bool
		objType           string
		resolution        lore.Resolution
		episodes          []string
		validAt           *time.Time
	}{
		{"move contradicts Berlin", "lives_in", "Lisbon", "Alice", "user", true, "place", lore.Resolution{Kind: "contradicts", Handle: 1}, []string{ep1}, day(2024, time.February, 1)},
		{"predicate normalized", "works_at", "Acme Robotics", "Alice", "user", true, "organization", lore.Resolution{Kind: "new"}, []string{ep1}, day(2024, time.February, 1)},
		{"literal object", "works_as", "firmware engineer", "Alice", "user", false, "", lore.Resolution{Kind: "new"}, []string{ep1}, nil},
		{"coffee is a duplicate", "likes", "coffee", "Alice", "user", true, "thing", lore.Resolution{Kind: "duplicate", Handle: 2}, []string{ep3}, nil},
		{"user as object", "sister_of", "Alice", "Maria", "person", true, "user", lore.Resolution{Kind: "new"}, []string{ep3}, nil},
		{"relative date resolved", "plans_to", "visit Alice", "Maria", "person", false, "", lore.Resolution{Kind: "new"}, []string{ep3}, day(2024, time.March, 11)},
	}
	if len(ext.Facts) != len(facts) {
		t.Errorf("len(Facts)=%d, want %d: %+v", len(ext.Facts), len(facts), ext.Facts)
	}
	for _, w := range facts {
		t.Run(w.name, func(t *testing.T) {
			f := factBy(ext, w.predicate, w.object)
			if f == nil {
				t.Fatalf("no fact %s %s in %+v", w.predicate, w.object, ext.Facts)
			}
			if f.Subject != w.subject || f.SubjectType != w.subjType {
				t.Errorf("subject=%q (%q), want %q (%q)", f.Subject, f.SubjectType, w.subject, w.subjType)
			}
			if f.ObjectIsEntity != w.objIsEntity || f.ObjectType != w.objType {
				t.Errorf("object_is_entity=%v type %q, want %v %q", f.ObjectIsEntity, f.ObjectType, w.objIsEntity, w.objType)
			}
			if f.Resolution != w.resolution {
				t.Errorf("resolution=%+v, want %+v", f.Resolution, w.resolution)
			}
			if !sameIDs(f.EpisodeIDs, w.episodes) {
				t.Errorf("episode ids=%q, want %q", f.EpisodeIDs, w.episodes)
			}
			switch {
			case (f.ValidAt == nil) != (w.validAt == nil):
				t.Errorf("valid_at=%v, want %v", f.ValidAt, w.validAt)
			case f.ValidAt != nil && !f.ValidAt.Equal(*w.validAt):
				t.Errorf("valid_at=%v, want %v", *f.ValidAt, *w.validAt)
			}
			if f.Text == "" || f.Confidence <= 0 || f.Confidence > 1 {
				t.Errorf("text=%q confidence=%v, want a sentence and a confidence in (0,1]", f.Text, f.Confidence)
			}
		})
	}

	if len(ext.Profile) != 2 {
		t.Fatalf("len(Profile)=%d, want 2: %+v", len(ext.Profile), ext.Profile)
	}
	for _, p := range ext.Profile {
		for _, id := range p.EpisodeIDs {
			if id == req.Episodes[1].ID {
				t.Errorf("profile %s=%q cites the assistant's message %s, want user messages only", p.Key, p.Value, id)
			}
		}
	}

	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("requests=%d, want 1", len(reqs))
	}
	if reqs[0].ResponseFormat != "json_schema" {
		t.Errorf("response_format=%q, want json_schema", reqs[0].ResponseFormat)
	}
	if reqs[0].Authorization != "Bearer test-key" {
		t.Errorf("Authorization=%q, want the API key as bearer token", reqs[0].Authorization)
	}
	for _, m := range reqs[0].Messages {
		for _, id := range rawIDs(req) {
			if strings.Contains(m.Content, id) {
				t.Errorf("the %s prompt holds raw id %q; want handles only", m.Role, id)
			}
		}
	}
	prompt := reqs[0].Messages[1].Content
	for _, want := range []string{"[1] Mon 2024-03-04 09:00 UTC, Alice (user)", "[2] Mon 2024-03-04 09:01 UTC, assistant", "[1] Alice lives in Berlin. (true since 2021-06-01)", "[3] coffee (thing)"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, prompt)
		}
	}
}
