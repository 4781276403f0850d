package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func TestPerTenantConcurrency(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	running, peak := map[string]int{}, map[string]int{}
	peakTotal, total := 0, 0
	ext := stubExtractor{fn: func(_ context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		tenant := req.Scope.TenantID
		mu.Lock()
		running[tenant]++
		total++
		peak[tenant] = max(peak[tenant], running[tenant])
		peakTotal = max(peakTotal, total)
		mu.Unlock()
		// Hold the slot long enough for the other workers to try to take
		// more jobs of the same tenant.
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		running[tenant]--
		total--
		mu.Unlock()
		return &lore.Extraction{Extractor: "stub/v1"}, nil
	}}
	s, st, _ := newTestService(t, ext)
	s.Config.Workers = 4
	s.Config.PerTenantConcurrency = 1
	var jobs []*AddResult
	for i := range 6 {
		for _, tenant := range []string{"a", "b"} {
			res, err := s.Add(ctx, AddRequest{Scope: lore.Scope{TenantID: tenant, UserID: "u"}, Infer: true, Messages: msgs(time.Now(), "user", fmt.Sprintf("message %d", i))})
			if err != nil {
				t.Fatalf("Add: %v", err)
			}
			jobs = append(jobs, res)
		}
	}
	runWorkers(t, s)
	for i, res := range jobs {
		waitJob(t, st, []string{"a", "b"}[i%2], res.JobID, lore.JobDone)
	}
	mu.Lock()
	defer mu.Unlock()
	if peak["a"] != 1 || peak["b"] != 1 {
		t.Fatalf("peak concurrency per tenant=%v, want 1 each", peak)
	}
	if peakTotal != 2 {
		t.Fatalf("peak concurrency overall=%d, want 2 (both tenants at once)", peakTotal)
	}
}

func TestBackoff(t *testing.T) {
	s := &Service{Config: Config{BackoffBase: time.Second, BackoffMax: 10 * time.Second}}
	tests := []struct {
		name     string
		attempts int
		want     time.Duration // the un-jittered delay; the result is in [want/2, want]
	}{
		{"first retry", 1, time.Second},
		{"second retry doubles", 2, 2 * time.Second},
		{"fourth retry", 4, 8 * time.Second},
		{"capped", 5, 10 * time.Second},
		{"far past the cap", 60, 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 50 {
				if got := s.backoff(tt.attempts); got < tt.want/2 || got > tt.want {
					t.Fatalf("backoff(%d)=%v, want within [%v, %v]", tt.attempts, got, tt.want/2, tt.want)
				}
			}
		})
	}
}

func TestCheckEmbedder(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	a := &Service{Store: st, Embedder: hashEmbedder{name: "hash-a", dim: 32}}
	if err := (&Service{Store: st}).CheckEmbedder(ctx); err != nil {
		t.Fatalf("CheckEmbedder without embedder: %v, want nil", err)
	}
	if _, err := st.GetMeta(ctx, metaEmbedder); lore.ErrorCode(err) != lore.ENOTFOUND {
		t.Fatalf("meta after a check without embedder: err=%v, want ENOTFOUND", err)
	}
	if err := a.CheckEmbedder(ctx); err != nil {
		t.Fatalf("first CheckEmbedder: %v", err)
	}
	raw, _ := st.GetMeta(ctx, metaEmbedder)
	var rec lore.EmbedderInfo
	if err := json.Unmarshal([]byte(raw), &rec); err != nil || rec != a.Embedder.Info() {
		t.Fatalf("recorded %q (%v), want %+v", raw, err, a.Embedder.Info())
	}
	if err := a.CheckEmbedder(ctx); err != nil {
		t.Fatalf("second CheckEmbedder with the same embedder: %v", err)
	}
	tests := []struct {
		name string
		emb  hashEmbedder
	}{
		{"other model", hashEmbedder{name: "hash-b", dim: 32}},
		{"other dimension", hashEmbedder{name: "hash-a", dim: 64}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := (&Service{Store: st, Embedder: tt.emb}).CheckEmbedder(ctx)
			if lore.ErrorCode(err) != lore.ECONFLICT || !strings.Contains(lore.ErrorMessage(err), "lore reindex") || !strings.Contains(lore.ErrorMessage(err), "hash-a") {
				t.Fatalf("err=%v, want ECONFLICT naming hash-a and `lore reindex`", err)
			}
		})
	}
}

func TestReindexEmbedsEverything(t *testing.T) {
	ctx := context.Background()
	s, _, idx := newTestService(t, oneFact("likes", "jazz", "Alice likes jazz", lore.Resolution{Kind: "new"}, nil))
	s.Config.EmbedBatchSize = 2
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	res, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: true, Sync: true, Messages: msgs(at, "user", "I like jazz", "assistant", "Nice", "user", "Yes jazz")})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	for _, id := range res.EpisodeIDs {
		if d, _ := idx.doc(id); d.Vector != nil {
			t.Fatalf("episode %s has a vector before an embedder was set", id)
		}
	}
	s.Embedder = hashEmbedder{name: "hash", dim: 16}
	n, err := s.Reindex(ctx, alice())
	if err != nil {
		t.Fatalf("Reindex: %v", err)
	}
	if n != 4 {
		t.Fatalf("Reindex wrote %d documents, want 4 (3 episodes, 1 fact)", n)
	}
	for _, id := range append(slices.Clone(res.EpisodeIDs), res.Events[0].ID) {
		if d, ok := idx.doc(id); !ok || len(d.Vector) != 16 {
			t.Fatalf("doc %s after reindex: found=%v len(vector)=%d, want 16", id, ok, len(d.Vector))
		}
	}
	d, _ := idx.doc(res.EpisodeIDs[0])
	if !strings.Contains(d.Text, "Alice likes jazz") {
		t.Fatalf("reindexed episode text=%q, want its fact's sentence in it", d.Text)
	}
	if err := s.CheckEmbedder(ctx); err != nil {
		t.Fatalf("CheckEmbedder after reindex: %v, want the new embedder recorded", err)
	}
	if _, err := s.Reindex(ctx, lore.Scope{}); lore.ErrorCode(err) != lore.EINVALID {
		t.Fatalf("Reindex without user: err=%v, want EINVALID", err)
	}
}

func TestEntityResolution(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		embedder  lore.Embedder
		entity    lore.ExtractedEntity
		wantSame  bool
		wantAlias string
	}{
		{"handle names the candidate", nil, lore.ExtractedEntity{Name: "Rob", Type: "person", Handle: 1}, true, "rob"},
		{"alias of the candidate", nil, lore.ExtractedEntity{Name: "Bobby", Type: "person"}, true, ""},
		{"similar name embedding", hashEmbedder{name: "hash", dim: 256}, lore.ExtractedEntity{Name: "Robert Smith Jr", Type: "person"}, true, "robert smith jr"},
		{"similar name of another type", hashEmbedder{name: "hash", dim: 256}, lore.ExtractedEntity{Name: "Robert Smith Jr", Type: "organization"}, false, ""},
		{"unrelated name", hashEmbedder{name: "hash", dim: 256}, lore.ExtractedEntity{Name: "Carol", Type: "person"}, false, ""},
		{"unknown handle", nil, lore.ExtractedEntity{Name: "Dave", Type: "person", Handle: 9}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, st, _ := newTestService(t, nil)
			s.Config.EntitySimilarity = 0.8
			bob, err := st.MergeEntity(ctx, &lore.Entity{Scope: alice().WithDefaults(), Name: "Robert Smith", Type: "person", Aliases: []string{"bobby"}})
			if err != nil {
				t.Fatal(err)
			}
			s.Embedder = tt.embedder
			var cands []string
			s.Extractor = stubExtractor{fn: func(_ context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
				for _, e := range req.Entities {
					cands = append(cands, e.Name)
				}
				return &lore.Extraction{Entities: []lore.ExtractedEntity{tt.entity}}, nil
			}}
			addSync(t, s, "I met Robert Smith and "+tt.entity.Name+" today", t0)
			if !slices.Contains(cands, "Robert Smith") {
				t.Fatalf("candidates=%q, want Robert Smith found by name in the text", cands)
			}
			got, err := st.FindEntities(ctx, lore.EntityFilter{Scope: alice().WithDefaults(), Names: []string{tt.entity.Name}})
			if err != nil {
				t.Fatal(err)
			}
			if same := len(got) == 1 && got[0].ID == bob.ID; same != tt.wantSame {
				t.Fatalf("extracted %q resolved to the candidate=%v (%v), want %v", tt.entity.Name, same, got, tt.wantSame)
			}
			if tt.wantAlias != "" && !slices.Contains(got[0].Aliases, tt.wantAlias) {
				t.Fatalf("aliases=%q, want %q added", got[0].Aliases, tt.wantAlias)
			}
			if tt.wantSame && got[0].Mentions != 2 {
				t.Fatalf("mentions=%d, want 2", got[0].Mentions)
			}
		})
	}
}

func TestCandidatesByEmbedding(t *testing.T) {
	s, _, _ := newTestService(t, oneFact("plays", "chess club", "Alice plays at the chess club", lore.Resolution{Kind: "new"}, nil))
	s.Embedder = hashEmbedder{name: "hash", dim: 256}
	addSync(t, s, "I play at the chess club", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	var ents, facts []string
	s.Extractor = stubExtractor{fn: func(_ context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		for _, e := range req.Entities {
			ents = append(ents, e.Name)
		}
		for _, f := range req.Facts {
			facts = append(facts, f.Text)
		}
		return &lore.Extraction{}, nil
	}}
	// Neither "chess club" nor the user's name appears; the sentence is
	// near the stored fact's text.
	addSync(t, s, "Alice plays at the chess tournament", time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC))
	if !slices.Contains(ents, "chess club") || !slices.Equal(facts, []string{"Alice plays at the chess club"}) {
		t.Fatalf("candidates entities=%q facts=%q, want chess club and its fact", ents, facts)
	}
}

func TestNgrams(t *testing.T) {
	tests := []struct {
		name string
		text string
		max  int
		want []string
	}{
		{"unigrams", "Hi, Bob!", 1, []string{"hi", "bob"}},
		{"bigrams keep order", "New York City", 2, []string{"new", "new york", "york", "york city", "city"}},
		{"duplicates once", "bob bob", 2, []string{"bob", "bob bob"}},
		{"punctuation splits", "AT&T; O'Brien", 1, []string{"at&t", "o'brien"}},
		{"possessive names the owner", "Emma's dog", 2, []string{"emma", "emma dog", "dog"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ngrams(tt.text, tt.max); !slices.Equal(got, tt.want) {
				t.Fatalf("ngrams(%q, %d)=%q, want %q", tt.text, tt.max, got, tt.want)
			}
		})
	}
}

// failingIndex fails Upsert while fail is set.
type failingIndex struct {
	*memIndex
	mu   sync.Mutex
	fail bool
}

func (f *failingIndex) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	f.mu.Lock()
	fail := f.fail
	f.mu.Unlock()
	if fail {
		return lore.Errorf(lore.EUNAVAILABLE, "embedding endpoint is down")
	}
	return f.memIndex.Upsert(ctx, docs)
}

func (f *failingIndex) set(fail bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = fail
}

func TestFailuresAfterStoringLeaveAJob(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		infer     bool
		sync      bool
		indexDown bool
		extractor error
		wantErr   string // the error code Add returns, "" for none
		wantKind  string
		wantFacts int
	}{
		{"verbatim with the index down", false, false, true, nil, "", JobKindIndex, 0},
		{"async with the index down", true, false, true, nil, "", JobKindExtract, 1},
		{"sync with the model down", true, true, false, lore.Errorf(lore.EUNAVAILABLE, "model down"), lore.EUNAVAILABLE, JobKindExtract, 1},
		{"sync with the index down", true, true, true, nil, lore.EUNAVAILABLE, JobKindExtract, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			fails := 0
			if tt.extractor != nil {
				fails = 1
			}
			s, st, mi := newTestService(t, flakyExtractor(fails, tt.extractor, &calls))
			idx := &failingIndex{memIndex: mi, fail: tt.indexDown}
			s.Index = idx
			res, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: tt.infer, Sync: tt.sync, Messages: msgs(time.Now(), "user", "I like jazz")})
			if got := lore.ErrorCode(err); got != tt.wantErr {
				t.Fatalf("Add error code=%q (%v), want %q", got, err, tt.wantErr)
			}
			if len(st.jobs) != 1 || st.jobs[0].Kind != tt.wantKind {
				t.Fatalf("jobs=%d, want one %s job", len(st.jobs), tt.wantKind)
			}
			if err == nil && res.JobID != st.jobs[0].ID {
				t.Fatalf("result job id=%q, want %q", res.JobID, st.jobs[0].ID)
			}
			if err != nil && !strings.Contains(lore.ErrorMessage(err), st.jobs[0].ID) {
				t.Fatalf("error message %q does not name the job %s", lore.ErrorMessage(err), st.jobs[0].ID)
			}
			jobID := st.jobs[0].ID
			idx.set(false)
			runWorkers(t, s)
			waitJob(t, st, lore.DefaultTenant, jobID, lore.JobDone)
			epID := st.episodes[0].ID
			if d, ok := mi.doc(epID); !ok || !strings.Contains(d.Text, "I like jazz") {
				t.Fatalf("episode doc=%+v found=%v, want it indexed after the job", d, ok)
			}
			if facts, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults()}); len(facts) != tt.wantFacts {
				t.Fatalf("facts=%d, want %d", len(facts), tt.wantFacts)
			}
		})
	}
}

func TestLeaseRenewedWhileRunning(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	ext := stubExtractor{fn: func(context.Context, lore.ExtractRequest) (*lore.Extraction, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		// Run for several leases.
		time.Sleep(3 * time.Second)
		return &lore.Extraction{Extractor: "stub/v1"}, nil
	}}
	s, st, idx := newTestService(t, ext)
	// Renewals come every third of the lease; a second of lease leaves a
	// loaded CI machine ample slack to renew in time.
	s.Config.Lease = time.Second
	res, err := s.Add(context.Background(), AddRequest{Scope: alice(), Infer: true, Messages: msgs(time.Now(), "user", "slow")})
	if err != nil {
		t.Fatal(err)
	}
	// A second process works the same queue and would take the job over if
	// its lease lapsed.
	other := &Service{Store: st, Index: idx, Extractor: ext, Config: s.Config, Logger: quietLogger()}
	runWorkers(t, s)
	runWorkers(t, other)
	job := waitJob(t, st, lore.DefaultTenant, res.JobID, lore.JobDone)
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 || job.Attempts != 1 {
		t.Fatalf("extractor calls=%d attempts=%d, want 1 and 1", calls, job.Attempts)
	}
}

// idleCounter counts claims that found no due job.
type idleCounter struct {
	*memStore
	mu    sync.Mutex
	idle  int
	first chan struct{} // closed when idle reaches want
	want  int
}

func (c *idleCounter) ClaimJob(ctx context.Context, req lore.ClaimRequest) (*lore.Job, error) {
	job, err := c.memStore.ClaimJob(ctx, req)
	if lore.ErrorCode(err) == lore.ENOTFOUND {
		c.mu.Lock()
		if c.idle++; c.idle == c.want {
			close(c.first)
		}
		c.mu.Unlock()
	}
	return job, err
}

func TestAddWakesIdleWorkers(t *testing.T) {
	var mu sync.Mutex
	running, peak := 0, 0
	ext := stubExtractor{fn: func(context.Context, lore.ExtractRequest) (*lore.Extraction, error) {
		mu.Lock()
		running++
		peak = max(peak, running)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return &lore.Extraction{Extractor: "stub/v1"}, nil
	}}
	s, st, _ := newTestService(t, ext)
	store := &idleCounter{memStore: st, first: make(chan struct{}), want: 3}
	s.Store = store
	s.Config.Workers = 3
	s.Config.PerTenantConcurrency = 3
	// Workers that only polled would not see the jobs within the test.
	s.Config.PollInterval = time.Hour
	runWorkers(t, s)
	<-store.first // every worker found the queue empty and went to sleep
	res, err := s.Add(context.Background(), AddRequest{Scope: alice(), Infer: true, Messages: msgs(time.Now(), "user", "wake up")})
	if err != nil {
		t.Fatal(err)
	}
	waitJob(t, st, lore.DefaultTenant, res.JobID, lore.JobDone)

	// Jobs enqueued behind the Service's back and one wake-up: the worker
	// that wakes passes it on, so the jobs run side by side.
	var ids []string
	for i := range 3 {
		job := &lore.Job{Scope: alice().WithDefaults(), Kind: JobKindExtract, EpisodeIDs: res.EpisodeIDs, Status: lore.JobQueued, MaxAttempts: 1, NextRunAt: time.Now()}
		if err := st.EnqueueJob(context.Background(), job); err != nil {
			t.Fatalf("EnqueueJob %d: %v", i, err)
		}
		ids = append(ids, job.ID)
	}
	mu.Lock()
	peak = 0
	mu.Unlock()
	s.notify()
	for _, id := range ids {
		waitJob(t, st, lore.DefaultTenant, id, lore.JobDone)
	}
	mu.Lock()
	defer mu.Unlock()
	if peak < 2 {
		t.Fatalf("peak concurrency=%d, want the wake-up passed on to more than one worker", peak)
	}
}
