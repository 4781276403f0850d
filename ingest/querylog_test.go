package ingest_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/llm/llmtest"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
)

// batchQueries are the searches of TestQueryLogBatchInference, in order.
// None holds a cue the offline rules read; the replayed reply
// (fixtures/llm/profile-vegan-lisbon.json) reads a vegan diet from the
// first and third, a place from the second, a weak guess under the floor
// and an entry with an unknown key.
var batchQueries = []string{
	"easy lentil dinners without any animal products",
	"trains from Lisbon to Sintra on weekends",
	"where to buy nutritional yeast and tempeh",
}

// TestQueryLogBatchInference runs issue 13's query learning end to end
// against replayed LLM replies: with a 30-day query log, searches are
// logged; a batch of three queues a profile_batch job; the job writes the
// profile-v1 reply's entries as inferred ones whose evidence is the hashes
// of the queries they came from, drops what is under the 0.5 floor or has
// no documented key, marks the queries read, and never overrides an
// explicit entry. With no log (the default) nothing is kept.
func TestQueryLogBatchInference(t *testing.T) {
	ctx := context.Background()
	st, idx := sqlitetest.Open(t)
	srv := llmtest.New(t, llmtest.FixtureDir())
	inf, err := llm.NewProfileInferrer(llm.Config{BaseURL: srv.URL, Model: "lore-test-model", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	days := 30
	svc := &ingest.Service{
		Store: st, Index: idx, Extractor: rules.New(), ProfileInferrer: inf,
		QueryLogDays: func(context.Context, string) (int, error) { return days, nil },
		Config:       ingest.Config{Workers: 1, MaxAttempts: 2, BackoffBase: time.Millisecond, BackoffMax: 2 * time.Millisecond, PollInterval: 5 * time.Millisecond, QueryLogBatch: 3},
	}
	sc := lore.Scope{TenantID: "acme", UserID: "alice"}
	// The user stated where she lives: no inference may replace it.
	if _, err := st.PutProfileEntry(ctx, sc, lore.ProfileEntry{Key: "location", Value: "Porto"}); err != nil {
		t.Fatal(err)
	}
	for _, q := range batchQueries {
		if _, err := svc.InferProfileFromQuery(ctx, sc, q); err != nil {
			t.Fatalf("InferProfileFromQuery(%q): %v", q, err)
		}
	}
	logged, err := st.QueryLog(ctx, sc, lore.QueryLogFilter{Pending: true})
	if err != nil || len(logged) != 3 {
		t.Fatalf("pending log=%d, %v; want the 3 queries", len(logged), err)
	}
	if logged[0].ExpiresAt.Sub(logged[0].CreatedAt) != 30*24*time.Hour {
		t.Errorf("expiry %v after logging, want 30 days", logged[0].ExpiresAt.Sub(logged[0].CreatedAt))
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- svc.RunWorkers(runCtx) }()
	defer func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("RunWorkers: %v", err)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pending, err := st.QueryLog(ctx, sc, lore.QueryLogFilter{Pending: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the batch job did not read the log within 10 s (%d pending; requests %d)", len(pending), len(srv.Requests()))
		}
		time.Sleep(20 * time.Millisecond)
	}
	got, err := st.ProfileEntries(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	var render []string
	for _, e := range got {
		render = append(render, e.Key+"="+e.Value+"/"+string(e.Source))
		if e.Key == "diet" {
			want := []string{lore.QueryEvidence(batchQueries[0]), lore.QueryEvidence(batchQueries[2])}
			if !slices.Equal(e.Evidence, want) || e.Confidence != 0.7 {
				t.Errorf("diet evidence=%v confidence=%v, want the hashes of queries 1 and 3 at 0.7", e.Evidence, e.Confidence)
			}
		}
	}
	want := []string{"diet=vegan/inferred", "location=Porto/explicit", "place=Lisbon/inferred"}
	if !slices.Equal(render, want) {
		t.Errorf("profile=%v, want %v (budget under the floor and the unknown key dropped, the stated location kept)", render, want)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Status != 200 {
		t.Errorf("model requests=%d, want one replayed call", len(reqs))
	}

	// With no log kept (the default), a search leaves nothing behind.
	days = 0
	bob := lore.Scope{TenantID: "acme", UserID: "bob"}
	if _, err := svc.InferProfileFromQuery(ctx, bob, "trains from Lisbon to Sintra on weekends"); err != nil {
		t.Fatal(err)
	}
	if l, err := st.QueryLog(ctx, bob, lore.QueryLogFilter{}); err != nil || len(l) != 0 {
		t.Errorf("bob's log=%d, %v; want nothing kept without a policy", len(l), err)
	}
}
