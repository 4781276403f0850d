package ingest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
)

// stuckExtractor never finishes: a worker running it holds its job until
// the process dies.
type stuckExtractor struct{}

func (stuckExtractor) Extract(ctx context.Context, _ lore.ExtractRequest) (*lore.Extraction, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// crashChildEnv names the store a re-executed test binary works as the
// process that gets killed.
const crashChildEnv = "LORE_INGEST_CRASH_CHILD_DB"

// TestCrashChild is the child of TestRestartTakesBackLeasedJobs: it works
// the queue with an extractor that never finishes, until it is killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashChildEnv)
	if path == "" {
		t.Skip("run by TestRestartTakesBackLeasedJobs as its child process")
	}
	st, idx := openSQLite(t, path)
	cfg := testConfig()
	cfg.InstanceID, cfg.Lease, cfg.Workers, cfg.PerTenantConcurrency = "instance-a", 5*time.Minute, 4, 4
	s := &Service{Store: st, Index: idx, Extractor: stuckExtractor{}, Config: cfg, Logger: quietLogger()}
	_ = s.RunWorkers(context.Background())
}

// TestRestartTakesBackLeasedJobs kills a real process with SIGKILL while
// its workers hold jobs on a five-minute lease, restarts the queue under
// the same instance id, and requires every job done within 10 seconds.
func TestRestartTakesBackLeasedJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	st, idx := openSQLite(t, path)
	queue := &Service{Store: st, Index: idx, Extractor: rules.New(), Config: testConfig(), Logger: quietLogger()}
	const jobs = 6
	var ids []string
	for i := range jobs {
		at := time.Date(2024, 5, 1, 10, i, 0, 0, time.UTC)
		res, err := queue.Add(ctx, AddRequest{Scope: alice(), Infer: true, Messages: msgs(at, "user", "I moved to Lisbon and I love surfing.")})
		if err != nil {
			t.Fatalf("Add %d: %v", i, err)
		}
		ids = append(ids, res.JobID)
	}

	child := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	child.Env = append(os.Environ(), crashChildEnv+"="+path)
	if err := child.Start(); err != nil {
		t.Fatalf("start child: %v", err)
	}
	running := waitFor(t, 30*time.Second, func() int { return countJobs(t, st, ids, lore.JobRunning) }, func(n int) bool { return n >= 4 })
	if err := child.Process.Kill(); err != nil {
		t.Fatalf("kill child: %v", err)
	}
	_ = child.Wait()
	t.Logf("killed the child holding %d running jobs", running)

	cfg := testConfig()
	cfg.InstanceID, cfg.Lease = "instance-a", 5*time.Minute
	restarted := &Service{Store: st, Index: idx, Extractor: rules.New(), Config: cfg, Logger: quietLogger()}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = restarted.RunWorkers(wctx); close(done) }()
	defer func() { stop(); <-done }()
	start := time.Now()
	waitFor(t, 10*time.Second, func() int { return countJobs(t, st, ids, lore.JobDone) }, func(n int) bool { return n == jobs })
	t.Logf("all %d jobs done %v after the restart", jobs, time.Since(start).Round(time.Millisecond))
}

// countJobs counts the jobs among ids in a state.
func countJobs(t *testing.T, q lore.JobQueue, ids []string, status lore.JobStatus) int {
	t.Helper()
	n := 0
	for _, id := range ids {
		job, err := q.GetJob(context.Background(), lore.DefaultTenant, id)
		if err != nil {
			t.Fatalf("GetJob %s: %v", id, err)
		}
		if job.Status == status {
			n++
		}
	}
	return n
}

// waitFor polls get until ok holds, failing the test after limit.
func waitFor(t *testing.T, limit time.Duration, get func() int, ok func(int) bool) int {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		n := get()
		if ok(n) {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %d, condition not met", limit, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
