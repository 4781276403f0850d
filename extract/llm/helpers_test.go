package llm_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/llm/llmtest"
)

// testModel is the model name the fixtures were recorded for.
const testModel = "lore-test-model"

var t0 = time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)

func day(y int, m time.Month, d int) *time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return &t
}

// conversation is the fixture conversation: Alice moved from Berlin to
// Lisbon, still drinks coffee, and her sister visits. Ids are shaped like
// real ones so a test can tell whether any reached a prompt.
func conversation() lore.ExtractRequest {
	scope := lore.Scope{TenantID: "acme", UserID: "alice"}
	return lore.ExtractRequest{
		Scope: scope,
		Episodes: []*lore.Episode{
			{ID: "ep-5b2f0c1e-user-1", Scope: scope, Role: "user", Speaker: "Alice", OccurredAt: t0,
				Content: "I moved to Lisbon last month and started at Acme Robotics as a firmware engineer."},
			{ID: "ep-9d41aa07-asst-2", Scope: scope, Role: "assistant", OccurredAt: t0.Add(time.Minute),
				Content: "Congratulations! Lisbon is a great city for a surfer like you."},
			{ID: "ep-c3e88b52-user-3", Scope: scope, Role: "user", Speaker: "Alice", OccurredAt: t0.Add(2 * time.Minute),
				Content: "Thanks! I still drink way too much coffee. My sister Maria visits me next week."},
		},
		Entities: []*lore.Entity{
			{ID: "ent-0a1b2c3d-alice", Scope: scope, Name: "alice", Type: lore.UserEntityType, Aliases: []string{"user", "i", "me", "myself"}},
			{ID: "ent-4e5f6a7b-berlin", Scope: scope, Name: "Berlin", Type: "place"},
			{ID: "ent-8c9d0e1f-coffee", Scope: scope, Name: "coffee", Type: "thing"},
		},
		Facts: []*lore.Fact{
			{ID: "fact-11aa22bb-lives", Scope: scope, Subject: "alice", Predicate: "lives_in", Object: "Berlin",
				Text: "Alice lives in Berlin.", ValidAt: day(2021, time.June, 1)},
			{ID: "fact-33cc44dd-likes", Scope: scope, Subject: "alice", Predicate: "likes", Object: "coffee",
				Text: "Alice likes coffee."},
		},
	}
}

// rawIDs are every id of a request, none of which may reach the model.
func rawIDs(req lore.ExtractRequest) []string {
	var ids []string
	for _, ep := range req.Episodes {
		ids = append(ids, ep.ID)
	}
	for _, e := range req.Entities {
		ids = append(ids, e.ID)
	}
	for _, f := range req.Facts {
		ids = append(ids, f.ID)
	}
	return ids
}

// newExtractor returns an extractor against srv with fast retries and a
// log the test can read.
func newExtractor(t *testing.T, srv *llmtest.Server, mods ...func(*llm.Config)) (*llm.Extractor, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	cfg := llm.Config{
		BaseURL:   srv.URL,
		APIKey:    "test-key",
		Model:     testModel,
		Timeout:   2 * time.Second,
		RetryBase: time.Millisecond,
		RetryMax:  5 * time.Millisecond,
		Logger:    slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	for _, m := range mods {
		m(&cfg)
	}
	x, err := llm.New(cfg)
	if err != nil {
		t.Fatalf("llm.New: %v", err)
	}
	return x, &logs
}

// factBy returns the extracted fact with the predicate and object, or nil.
func factBy(ext *lore.Extraction, predicate, object string) *lore.ExtractedFact {
	for i, f := range ext.Facts {
		if f.Predicate == predicate && strings.EqualFold(f.Object, object) {
			return &ext.Facts[i]
		}
	}
	return nil
}

func entityBy(ext *lore.Extraction, name string) *lore.ExtractedEntity {
	for i, e := range ext.Entities {
		if strings.EqualFold(e.Name, name) {
			return &ext.Entities[i]
		}
	}
	return nil
}

func sameIDs(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}
