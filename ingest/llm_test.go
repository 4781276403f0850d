package ingest_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/llm/llmtest"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
)

// llmRig is ingest.Service over the embedded store with the LLM extractor
// talking to a replay server.
type llmRig struct {
	svc   *ingest.Service
	store *sqlite.Store
	index lore.Index
	srv   *llmtest.Server
	llm   *llm.Extractor
}

func newLLMRig(t *testing.T) *llmRig {
	t.Helper()
	st, idx := sqlitetest.Open(t)
	srv := llmtest.New(t, llmtest.FixtureDir())
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	x, err := llm.New(llm.Config{
		BaseURL: srv.URL, Model: "lore-test-model", MaxRetries: -1, Timeout: 5 * time.Second,
		Cache: llm.NewMetaCache(st), Logger: quiet,
	})
	if err != nil {
		t.Fatalf("llm.New: %v", err)
	}
	svc := &ingest.Service{
		Store: st, Index: idx, Extractor: x, Logger: quiet,
		Config: ingest.Config{Workers: 2, MaxAttempts: 2, BackoffBase: time.Millisecond, BackoffMax: 2 * time.Millisecond, PollInterval: 5 * time.Millisecond},
	}
	return &llmRig{svc: svc, store: st, index: idx, srv: srv, llm: x}
}

var aliceScope = lore.Scope{TenantID: "acme", UserID: "alice"}

func at(month time.Month, day, hour, minute int) *time.Time {
	t := time.Date(2024, month, day, hour, minute, 0, 0, time.UTC)
	return &t
}

func userSays(when *time.Time, content string) ingest.Message {
	return ingest.Message{Role: "user", Name: "Alice", Content: content, CreatedAt: when}
}

// addSync adds messages and extracts within the call.
func (r *llmRig) addSync(t *testing.T, msgs ...ingest.Message) *ingest.AddResult {
	t.Helper()
	res, err := r.svc.Add(context.Background(), ingest.AddRequest{Scope: aliceScope, Messages: msgs, Infer: true, Sync: true})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	return res
}

// facts returns the scope's facts with the predicate, invalidated ones too.
func (r *llmRig) facts(t *testing.T, predicate string) []*lore.Fact {
	t.Helper()
	fs, err := r.store.FindFacts(context.Background(), lore.FactFilter{Scope: aliceScope, Predicate: predicate, IncludeInvalidated: true})
	if err != nil {
		t.Fatalf("FindFacts: %v", err)
	}
	return fs
}

func (r *llmRig) history(t *testing.T, id string) []lore.EventKind {
	t.Helper()
	hist, err := r.store.History(context.Background(), aliceScope, id)
	if err != nil {
		t.Fatalf("History: %v", err)
	}
	var kinds []lore.EventKind
	for _, h := range hist {
		kinds = append(kinds, h.Event)
	}
	return kinds
}

// TestLLMExtractionMergesAndInvalidates runs two conversations through the
// LLM extractor: the second states the coffee habit again (a duplicate,
// merged) and a move (a contradiction, closing the Berlin fact).
func TestLLMExtractionMergesAndInvalidates(t *testing.T) {
	r := newLLMRig(t)
	// Two messages at different times, so the facts' LastSeen, and with it
	// the order of the candidates in the next prompt, is fixed.
	first := r.addSync(t,
		userSays(at(1, 10, 10, 0), "I live in Berlin."),
		userSays(at(1, 10, 10, 5), "And I love coffee, I drink it all day."))
	berlin, coffee := r.facts(t, "lives_in"), r.facts(t, "likes")
	if len(berlin) != 1 || berlin[0].Object != "Berlin" || len(coffee) != 1 || coffee[0].Object != "coffee" {
		t.Fatalf("after the first conversation: lives_in=%v likes=%v, want Berlin and coffee", berlin, coffee)
	}
	if want := "llm/lore-test-model/" + llm.PromptVersion; berlin[0].Extractor != want {
		t.Errorf("fact extractor=%q, want %q", berlin[0].Extractor, want)
	}

	second := r.addSync(t,
		userSays(at(3, 4, 9, 0), "Big news: I moved to Lisbon last week!"),
		userSays(at(3, 4, 9, 2), "Still drinking way too much coffee though."))

	lives := r.facts(t, "lives_in")
	if len(lives) != 2 {
		t.Fatalf("lives_in facts=%d, want 2 (Berlin closed, Lisbon current)", len(lives))
	}
	for _, f := range lives {
		switch f.Object {
		case "Berlin":
			if f.InvalidAt == nil || !f.InvalidAt.Equal(time.Date(2024, 2, 26, 0, 0, 0, 0, time.UTC)) || f.ExpiredAt == nil {
				t.Errorf("Berlin fact invalid_at=%v expired_at=%v, want closed at 2024-02-26 and expired", f.InvalidAt, f.ExpiredAt)
			}
			if got := r.history(t, f.ID); len(got) != 2 || got[0] != lore.EventAdd || got[1] != lore.EventInvalidate {
				t.Errorf("Berlin fact history=%v, want [ADD INVALIDATE]", got)
			}
		case "Lisbon":
			if !f.Current(time.Now()) || f.ValidAt == nil || !f.ValidAt.Equal(time.Date(2024, 2, 26, 0, 0, 0, 0, time.UTC)) {
				t.Errorf("Lisbon fact current=%v valid_at=%v, want current since 2024-02-26", f.Current(time.Now()), f.ValidAt)
			}
			if len(f.SourceEpisodeIDs) != 1 || f.SourceEpisodeIDs[0] != second.EpisodeIDs[0] {
				t.Errorf("Lisbon sources=%q, want [%s]", f.SourceEpisodeIDs, second.EpisodeIDs[0])
			}
		default:
			t.Errorf("unexpected lives_in fact %q", f.Object)
		}
	}

	likes := r.facts(t, "likes")
	if len(likes) != 1 {
		t.Fatalf("likes facts=%d, want 1 merged", len(likes))
	}
	c := likes[0]
	if c.Count != 2 || len(c.SourceEpisodeIDs) != 2 || !c.LastSeen.Equal(*at(3, 4, 9, 2)) {
		t.Errorf("coffee fact count=%d sources=%q last_seen=%v, want 2, [%s %s], 2024-03-04 09:02",
			c.Count, c.SourceEpisodeIDs, c.LastSeen, first.EpisodeIDs[1], second.EpisodeIDs[1])
	}
	if got := r.history(t, c.ID); len(got) != 2 || got[1] != lore.EventMerge {
		t.Errorf("coffee fact history=%v, want [ADD MERGE]", got)
	}

	// The second prompt offered the stored facts by handle only.
	reqs := r.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model calls=%d, want 2", len(reqs))
	}
	if stats := r.llm.Stats()["acme"]; stats.Calls != 2 {
		t.Errorf("stats=%+v, want 2 calls", stats)
	}
}

// TestLLMFailureKeepsEpisodes shows that when the model answers 500s or
// garbage, the episode is stored and searchable, the job fails with the
// reason, and retrying it once the model is back extracts the facts.
func TestLLMFailureKeepsEpisodes(t *testing.T) {
	garbage := "I cannot help with that."
	tests := []struct {
		name      string
		behavior  llmtest.Behavior
		wantError string
	}{
		{name: "500s", behavior: llmtest.Behavior{Status: 500}, wantError: "unavailable"},
		{name: "garbage", behavior: llmtest.Behavior{Reply: &garbage}, wantError: "not valid extraction JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newLLMRig(t)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- r.svc.RunWorkers(ctx) }()
			t.Cleanup(func() {
				cancel()
				<-done
			})

			r.srv.Always(tt.behavior)
			res, err := r.svc.Add(ctx, ingest.AddRequest{Scope: aliceScope, Infer: true,
				Messages: []ingest.Message{userSays(at(5, 2, 19, 30), "I started taking cello lessons.")}})
			if err != nil {
				t.Fatalf("Add: %v", err)
			}
			job := waitJob(t, r, res.JobID, lore.JobFailed)
			if job.Attempts != 2 || !strings.Contains(job.Error, tt.wantError) {
				t.Errorf("job attempts=%d error=%q, want 2 attempts and an error containing %q", job.Attempts, job.Error, tt.wantError)
			}

			eps, err := r.store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: aliceScope, IDs: res.EpisodeIDs})
			if err != nil || len(eps) != 1 {
				t.Fatalf("FindEpisodes=%d, %v; want the episode stored", len(eps), err)
			}
			hits, err := r.index.SearchText(ctx, lore.IndexQuery{Scope: aliceScope, Text: "cello lessons", Kinds: []lore.DocKind{lore.KindEpisode}})
			if err != nil || len(hits) != 1 || hits[0].ID != res.EpisodeIDs[0] {
				t.Fatalf("SearchText=%+v, %v; want the episode found", hits, err)
			}

			r.srv.Reset()
			if _, err := r.svc.RetryJob(ctx, aliceScope.TenantID, job.ID); err != nil {
				t.Fatalf("RetryJob: %v", err)
			}
			waitJob(t, r, job.ID, lore.JobDone)
			if got := r.facts(t, "takes_lessons_in"); len(got) != 1 || got[0].Object != "cello" {
				t.Errorf("facts after the retry=%v, want the cello lessons", got)
			}
		})
	}
}

// waitJob polls until the job reaches status, failing the test after 10s.
func waitJob(t *testing.T, r *llmRig, id string, status lore.JobStatus) *lore.Job {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		job, err := r.store.GetJob(context.Background(), aliceScope.TenantID, id)
		if err != nil {
			t.Fatalf("GetJob: %v", err)
		}
		if job.Status == status {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("job status=%s error=%q after 10s, want %s", job.Status, job.Error, status)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
