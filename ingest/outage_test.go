package ingest

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
)

// downIndex fails every call with EUNAVAILABLE, counting them, until up
// is set; then it is the index it wraps.
type downIndex struct {
	lore.Index
	up    atomic.Bool
	calls atomic.Int64
}

func (d *downIndex) check() error {
	if d.up.Load() {
		return nil
	}
	d.calls.Add(1)
	return lore.Errorf(lore.EUNAVAILABLE, "index server is down")
}

func (d *downIndex) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	if err := d.check(); err != nil {
		return err
	}
	return d.Index.Upsert(ctx, docs)
}

func (d *downIndex) SearchText(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	return d.Index.SearchText(ctx, q)
}

func (d *downIndex) SearchVector(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	return d.Index.SearchVector(ctx, q)
}

// TestOutageSpendsNoAttempts: jobs that meet an unavailable index many
// more times than MaxAttempts are not dead-lettered, and all finish within
// about OutageRetry once it is back.
func TestOutageSpendsNoAttempts(t *testing.T) {
	ctx := context.Background()
	st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
	down := &downIndex{Index: idx}
	cfg := testConfig()
	cfg.MaxAttempts, cfg.OutageRetry = 2, 100*time.Millisecond
	s := &Service{Store: st, Index: down, Extractor: rules.New(), Config: cfg, Logger: quietLogger()}
	var ids []string
	for i := range 3 {
		res, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: true,
			Messages: msgs(time.Date(2024, 5, 1, 10, i, 0, 0, time.UTC), "user", "I live in Oslo.")})
		if err != nil {
			t.Fatalf("Add: %v", err)
		}
		ids = append(ids, res.JobID)
	}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = s.RunWorkers(wctx); close(done) }()
	defer func() { stop(); <-done }()

	waitFor(t, 20*time.Second, func() int { return int(down.calls.Load()) }, func(n int) bool { return n >= 4*cfg.MaxAttempts*len(ids) })
	if n := countJobs(t, st, ids, lore.JobFailed); n != 0 {
		t.Fatalf("%d jobs dead-lettered during the outage, want 0", n)
	}
	for _, id := range ids {
		job, err := st.GetJob(ctx, lore.DefaultTenant, id)
		if err != nil {
			t.Fatal(err)
		}
		if job.Attempts > 1 {
			t.Errorf("job %s spent %d attempts on the outage, want at most the one running", id, job.Attempts)
		}
	}
	down.up.Store(true)
	back := time.Now()
	waitFor(t, 5*time.Second, func() int { return countJobs(t, st, ids, lore.JobDone) }, func(n int) bool { return n == len(ids) })
	t.Logf("%d failed tries during the outage; all jobs done %v after the dependency returned", down.calls.Load(), time.Since(back).Round(time.Millisecond))
}
