package ingest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
)

// TestProfileFromConversationAndQueries ingests a user's statements and
// checks the explicit entries, then infers from a search query through the
// job queue: the inferred entry is stored with the query's hash, never the
// query, and an inference never overrides what the user stated.
func TestProfileFromConversationAndQueries(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, idx := openSQLite(t, filepath.Join(dir, "lore.db"))
	s := &Service{Store: st, Index: idx, Extractor: rules.New(), Config: testConfig(), Logger: quietLogger()}
	runWorkers(t, s)
	alice := lore.Scope{TenantID: "acme", UserID: "alice"}
	day := func(d int) *time.Time { t := time.Date(2024, 5, d, 10, 0, 0, 0, time.UTC); return &t }
	if _, err := s.Add(ctx, AddRequest{Scope: alice, Infer: true, Sync: true, Messages: []Message{
		{Role: "user", Content: "I work as a nurse. I'm vegetarian, and I'm allergic to peanuts.", CreatedAt: day(1)},
		{Role: "assistant", Content: "You sound like a vegan to me, and a great climber.", CreatedAt: day(1)},
		{Role: "user", Content: "I'm a beginner climber.", CreatedAt: day(2)},
	}}); err != nil {
		t.Fatalf("Add: %v", err)
	}
	entries := func() []string {
		es, err := st.ProfileEntries(ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, fmt.Sprintf("%s=%s/%s", e.Key, e.Value, e.Source))
		}
		return out
	}
	want := []string{"allergy=peanut/explicit", "diet=vegetarian/explicit", "level_climbing=beginner/explicit", "occupation=nurse/explicit"}
	if got := entries(); !slices.Equal(got, want) {
		t.Fatalf("profile=%v, want %v (the assistant's words count for nothing)", got, want)
	}

	const query = "Any good steakhouse options? Also cheap flights to Reykjavik please"
	id, err := s.InferProfileFromQuery(ctx, alice, query)
	if err != nil || id == "" {
		t.Fatalf("InferProfileFromQuery: id=%q err=%v, want a job", id, err)
	}
	waitJob(t, st, "acme", id, lore.JobDone)
	want = []string{"allergy=peanut/explicit", "diet=vegetarian/explicit", "level_climbing=beginner/explicit", "occupation=nurse/explicit", "place=Reykjavik/inferred"}
	if got := entries(); !slices.Equal(got, want) {
		t.Fatalf("profile after the query=%v, want %v", got, want)
	}
	es, _ := st.ProfileEntries(ctx, alice)
	for _, e := range es {
		if e.Key == "place" && !slices.Equal(e.Evidence, []string{lore.QueryEvidence(query)}) {
			t.Errorf("place evidence=%v, want the query hash", e.Evidence)
		}
	}
	if id, _ := s.InferProfileFromQuery(ctx, alice, "When did I start at the hospital?"); id != "" {
		t.Errorf("a query with no cue queued job %s, want none", id)
	}
	// The tenant switch.
	if err := st.SetMeta(ctx, ProfileInferenceOff+"acme", "true"); err != nil {
		t.Fatal(err)
	}
	if id, _ := s.InferProfileFromQuery(ctx, alice, "vegan recipes for dinner"); id != "" {
		t.Errorf("inference switched off for the tenant queued job %s, want none", id)
	}
	// The raw query is nowhere on disk.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"lore.db", "lore.db-wal"} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		for _, part := range []string{"steakhouse", "cheap flights", "Any good"} {
			if bytes.Contains(raw, []byte(part)) {
				t.Errorf("%s holds the query text %q", name, part)
			}
		}
	}
}
