package ingest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite"
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
	ids := queueJobs(t, queue, jobs)

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

// queueJobs adds n messages of alice's for extraction and returns their
// jobs' ids.
func queueJobs(t *testing.T, s *Service, n int) []string {
	t.Helper()
	var ids []string
	for i := range n {
		at := time.Date(2024, 5, 1, 10, i, 0, 0, time.UTC)
		res, err := s.Add(context.Background(), AddRequest{Scope: alice(), Infer: true, Messages: msgs(at, "user", "I moved to Lisbon and I love surfing.")})
		if err != nil {
			t.Fatalf("Add %d: %v", i, err)
		}
		ids = append(ids, res.JobID)
	}
	return ids
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

// lossyQueue is a store whose replies get lost the way a dropped
// connection loses them: a claim that committed but reports a failure, a
// claim the driver retried by itself (the first job stays claimed, the
// caller sees only the second), and a final save that never reached it.
type lossyQueue struct {
	*sqlite.Store
	mu                                     sync.Mutex
	failedClaims, retriedClaims, lostSaves int
}

func (q *lossyQueue) take(n *int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if *n > 0 {
		*n--
		return true
	}
	return false
}

func (q *lossyQueue) ClaimJob(ctx context.Context, req lore.ClaimRequest) (*lore.Job, error) {
	job, err := q.Store.ClaimJob(ctx, req)
	if err != nil {
		return job, err
	}
	if q.take(&q.failedClaims) {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "connection reset after the claim committed")
	}
	if q.take(&q.retriedClaims) {
		return q.Store.ClaimJob(ctx, req)
	}
	return job, nil
}

func (q *lossyQueue) SaveJob(ctx context.Context, job *lore.Job) error {
	if job.Status != lore.JobRunning && q.take(&q.lostSaves) {
		return lore.Errorf(lore.EUNAVAILABLE, "connection reset before the save committed")
	}
	return q.Store.SaveJob(ctx, job)
}

// TestLostRepliesDoNotStrandJobs: jobs whose claim or save reply was lost
// stay "running" under this process's name with nobody on them. With an
// hour-long lease they would wait an hour; the worker hands them back
// itself and every job is done within seconds.
func TestLostRepliesDoNotStrandJobs(t *testing.T) {
	st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
	q := &lossyQueue{Store: st, failedClaims: 2, retriedClaims: 1, lostSaves: 2}
	cfg := testConfig()
	cfg.InstanceID, cfg.Lease, cfg.OutageRetry, cfg.Workers = "instance-lossy", time.Hour, 100*time.Millisecond, 2
	s := &Service{Store: q, Index: idx, Extractor: rules.New(), Config: cfg, Logger: quietLogger()}
	const jobs = 8
	ids := queueJobs(t, s, jobs)
	runWorkers(t, s)
	start := time.Now()
	waitFor(t, 10*time.Second, func() int { return countJobs(t, st, ids, lore.JobDone) }, func(n int) bool { return n == jobs })
	t.Logf("all %d jobs done %v after the workers started", jobs, time.Since(start).Round(time.Millisecond))
	if q.failedClaims+q.retriedClaims+q.lostSaves != 0 {
		t.Errorf("faults left unused: %d claims, %d retried claims, %d saves", q.failedClaims, q.retriedClaims, q.lostSaves)
	}
}
