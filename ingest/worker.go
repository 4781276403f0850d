package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/lore-memory/lore"
)

// RunWorkers works the durable job queue with Config.Workers goroutines
// until ctx is done, then waits for them and returns nil. It resumes where
// a previous process stopped: queued and retrying jobs, and running jobs
// whose lease expired, are claimed again. Failures are stored on the job,
// never only logged.
func (s *Service) RunWorkers(ctx context.Context) error {
	if s.Store == nil || s.Index == nil || s.Extractor == nil {
		return lore.Errorf(lore.EINVALID, "ingest: Store, Index and Extractor are required to run workers")
	}
	cfg := s.cfg()
	if leases, ok := s.Store.(lore.JobLeases); ok && cfg.InstanceID != "" {
		// This process held these when it last stopped; nobody works on
		// them now, so they need not wait for their leases to lapse.
		n, err := leases.ReleaseJobs(ctx, cfg.InstanceID, s.now())
		if err != nil {
			s.logger().Error("ingest: release the jobs of the previous run", "instance", cfg.InstanceID, "err", err)
		} else if n > 0 {
			s.logger().Info("ingest: released the jobs of the previous run", "instance", cfg.InstanceID, "jobs", n)
		}
	}
	lim := &tenantLimiter{limit: cfg.PerTenantConcurrency, running: map[string]int{}, held: map[string]struct{}{},
		sweepEvery: cfg.OutageRetry}
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Go(func() { s.work(ctx, lim) })
	}
	wg.Wait()
	// Profile inferences started after answered searches queue their
	// jobs before the store goes.
	s.inferring.Wait()
	return nil
}

// tenantLimiter counts the jobs running per tenant in this process. Claims
// go through its lock so that two workers cannot both take a tenant's last
// free slot.
//
// It also knows which jobs this process holds, so that it can hand back
// the ones it holds in the store only: a claim whose reply was lost (the
// connection dropped after the store committed it) or a job whose final
// save failed stays "running" under this process's name with nobody
// working on it. Such orphans are released as soon as the store answers
// again after a failure, and every sweepEvery otherwise (a driver that
// retried a claim by itself reports no failure), instead of waiting out
// their lease. sweepEvery is Config.OutageRetry: the queue promises to
// resume within it once a dependency is back.
type tenantLimiter struct {
	mu      sync.Mutex
	limit   int
	running map[string]int
	held    map[string]struct{} // ids of the jobs this process is running

	// suspect is set when a claim or save failed: orphans may exist.
	suspect    bool
	sweepEvery time.Duration
	nextSweep  time.Time
}

// claim takes the next due job of a tenant below its limit, or returns nil.
// It first releases this process's orphaned jobs when a sweep is due.
func (l *tenantLimiter) claim(ctx context.Context, q lore.JobQueue, req lore.ClaimRequest, log *slog.Logger) (*lore.Job, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(ctx, q, req, log)
	for t, n := range l.running {
		if n >= l.limit {
			req.SkipTenants = append(req.SkipTenants, t)
		}
	}
	slices.Sort(req.SkipTenants)
	job, err := q.ClaimJob(ctx, req)
	if lore.ErrorCode(err) == lore.ENOTFOUND {
		return nil, nil
	} else if err != nil {
		l.suspect = true
		return nil, err
	}
	l.running[job.Scope.TenantID]++
	l.held[job.ID] = struct{}{}
	return job, nil
}

// sweep releases the running jobs the store has under req.Owner that this
// process does not hold. Called with l.mu held, so no claim of this process
// is in flight.
func (l *tenantLimiter) sweep(ctx context.Context, q lore.JobQueue, req lore.ClaimRequest, log *slog.Logger) {
	leases, ok := q.(lore.JobLeases)
	if !ok || req.Owner == "" || (!l.suspect && req.Now.Before(l.nextSweep)) {
		return
	}
	n, err := leases.ReleaseJobs(ctx, req.Owner, req.Now, slices.Collect(maps.Keys(l.held))...)
	if err != nil {
		l.suspect = true
		return
	}
	l.suspect, l.nextSweep = false, req.Now.Add(l.sweepEvery)
	if n > 0 {
		log.WarnContext(ctx, "ingest: released jobs whose claim or save reply was lost", "instance", req.Owner, "jobs", n)
	}
}

// release gives back a job's slot. saved reports whether its outcome
// reached the store; if not, the next claim sweeps for it.
func (l *tenantLimiter) release(job *lore.Job, saved bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running[job.Scope.TenantID]--; l.running[job.Scope.TenantID] <= 0 {
		delete(l.running, job.Scope.TenantID)
	}
	delete(l.held, job.ID)
	l.suspect = l.suspect || !saved
}

// work is one worker's loop: claim a due job, run it, and when none is due
// sleep until the poll interval passes or Add signals new work.
func (s *Service) work(ctx context.Context, lim *tenantLimiter) {
	cfg := s.cfg()
	var pause time.Duration // grows while jobs meet an unavailable dependency
	for ctx.Err() == nil {
		job, err := lim.claim(ctx, s.Store, lore.ClaimRequest{Now: s.now(), Lease: cfg.Lease, Owner: cfg.InstanceID,
			MaxPerTenant: cfg.PerTenantConcurrency}, s.logger())
		if err != nil && ctx.Err() == nil {
			// The store is unreachable; there is no job to record this on,
			// so it is logged, and the worker tries again after a poll.
			s.logger().Error("ingest: claim job", "err", err)
		}
		if job != nil {
			// More may be due: pass the wake-up on, so a burst of Adds
			// fans out over the idle workers instead of queueing on one.
			s.notify()
			outage, saved := s.runJob(ctx, job)
			lim.release(job, saved)
			if !outage {
				pause = 0
				continue
			}
			// The next job would most likely meet the same outage: wait a
			// little, longer each time, but never past OutageRetry, so
			// the queue resumes soon after the dependency does.
			pause = min(max(2*pause, cfg.PollInterval), cfg.OutageRetry)
			t := time.NewTimer(pause)
			select {
			case <-ctx.Done():
			case <-t.C:
			}
			t.Stop()
			continue
		}
		t := time.NewTimer(cfg.PollInterval)
		select {
		case <-ctx.Done():
		case <-s.wakeCh():
		case <-t.C:
		}
		t.Stop()
	}
}

// runJob runs one claimed job and stores its outcome. A job whose scope is
// erased meanwhile is stopped and fenced (see startJob) and leaves nothing.
// It reports whether the job failed because a dependency is unavailable,
// and whether its outcome was saved.
func (s *Service) runJob(ctx context.Context, job *lore.Job) (outage, saved bool) {
	// The job's logs carry the id of the request that enqueued it.
	ctx = lore.WithRequestID(ctx, job.RequestID)
	hbCtx, stopHeartbeat := context.WithCancel(ctx)
	var hb sync.WaitGroup
	running := *job
	hb.Go(func() { s.heartbeat(hbCtx, &running) })
	jobCtx, done, err := s.startJob(ctx, job)
	var events []lore.MemoryEvent
	if err == nil {
		events, err = s.runExtractJob(jobCtx, job)
	}
	erased := done(err)
	stopHeartbeat()
	hb.Wait()
	if erased {
		return false, true
	}
	// The outcome is saved even when ctx was cancelled mid-run, so a
	// shutdown hands the job back at once instead of after its lease.
	saveCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	s.settle(job, events, err, ctx.Err() != nil)
	s.logger().InfoContext(saveCtx, "ingest: job settled", "job", job.ID, "kind", job.Kind, "tenant", job.Scope.TenantID,
		"status", job.Status, "attempts", job.Attempts, "events", len(job.Events))
	if s.Observer != nil {
		s.Observer.JobSettled(job, err != nil && ctx.Err() != nil)
	}
	saved = true
	if serr := s.Store.SaveJob(saveCtx, job); serr != nil {
		// The job runs again once the store answers (the claim gate's
		// sweep) or its lease lapses; nothing is lost.
		s.logger().ErrorContext(saveCtx, "ingest: save job", "job", job.ID, "tenant", job.Scope.TenantID, "status", job.Status, "err", serr)
		saved = false
	}
	return err != nil && ctx.Err() == nil && isOutage(err), saved
}

// extractorFailure marks an error of the extractor itself. A model
// endpoint that fails (5xx, rate limits) keeps the usual attempts and
// backoff: retrying it every few seconds for a day would only spend quota.
type extractorFailure struct{ error }

func (e extractorFailure) Unwrap() error { return e.error }

// isOutage reports whether err is Lore's own store, index or embedder
// being unavailable, which the queue waits out (Config.OutageRetry).
func isOutage(err error) bool {
	var ef extractorFailure
	return lore.ErrorCode(err) == lore.EUNAVAILABLE && !errors.As(err, &ef)
}

// heartbeat renews a running job's lease every third of Config.Lease until
// ctx is done, so that a slow extraction is not taken for a crashed one and
// run twice.
func (s *Service) heartbeat(ctx context.Context, job *lore.Job) {
	lease := s.cfg().Lease
	t := time.NewTicker(lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		until := s.now().Add(lease)
		job.LeaseUntil = &until
		job.UpdatedAt = s.now()
		if err := s.Store.SaveJob(ctx, job); err != nil && ctx.Err() == nil {
			// The job itself goes on; at worst its lease lapses and it runs
			// again, which merging makes harmless.
			s.logger().WarnContext(ctx, "ingest: renew job lease", "job", job.ID, "tenant", job.Scope.TenantID, "err", err)
		}
	}
}

// settle sets a job's state from the outcome of one run.
func (s *Service) settle(job *lore.Job, events []lore.MemoryEvent, err error, interrupted bool) {
	now := s.now()
	job.UpdatedAt = now
	job.LeaseUntil = nil
	maxAttempts := job.MaxAttempts
	if maxAttempts <= 0 {
		maxAttempts = s.cfg().MaxAttempts
	}
	switch {
	case err == nil:
		job.Status = lore.JobDone
		job.Events = events
		job.Error = ""
	case interrupted:
		// A shutdown is not the job's failure: it goes back to the queue
		// without spending an attempt.
		job.Status = lore.JobQueued
		job.Attempts = max(job.Attempts-1, 0)
		job.NextRunAt = now
		job.Error = "interrupted by shutdown: " + err.Error()
	case isOutage(err) && now.Sub(job.CreatedAt) < s.cfg().OutagePatience:
		// A dependency is down: the job waits for it without spending an
		// attempt, and tries again soon enough to resume promptly.
		job.Status = lore.JobRetrying
		job.Attempts = max(job.Attempts-1, 0)
		job.NextRunAt = now.Add(min(s.backoff(job.Attempts+1), s.cfg().OutageRetry))
		job.Error = err.Error()
	case retryable(err) && job.Attempts < maxAttempts:
		job.Status = lore.JobRetrying
		job.NextRunAt = now.Add(s.backoff(job.Attempts))
		job.Error = err.Error()
	default:
		job.Status = lore.JobFailed
		job.Error = err.Error()
		s.logger().Warn("ingest: job failed", "job", job.ID, "tenant", job.Scope.TenantID, "attempts", job.Attempts, "err", err, "request_id", job.RequestID)
	}
}

// retryable reports whether a failure may go away by itself: a dependency
// that is down or rate-limiting (EUNAVAILABLE) or an unexpected internal
// error. Bad input (EINVALID and the rest) fails the same way every time.
func retryable(err error) bool {
	switch lore.ErrorCode(err) {
	case lore.EUNAVAILABLE, lore.EINTERNAL:
		return true
	}
	return false
}

// backoff returns the delay before attempt+1: BackoffBase doubled per
// attempt made, capped at BackoffMax, with the upper half jittered so that
// jobs failing together do not retry together.
func (s *Service) backoff(attempts int) time.Duration {
	cfg := s.cfg()
	d := cfg.BackoffBase
	for i := 1; i < attempts && d < cfg.BackoffMax; i++ {
		d *= 2
	}
	d = min(d, cfg.BackoffMax)
	half := d / 2
	return half + rand.N(d-half+1)
}

// runExtractJob loads a job's episodes and extracts from them, or, for an
// index job, indexes them.
func (s *Service) runExtractJob(ctx context.Context, job *lore.Job) ([]lore.MemoryEvent, error) {
	if job.Kind == JobKindProfile {
		return s.runProfileJob(ctx, job)
	}
	if job.Kind == JobKindProfileBatch {
		return s.runProfileBatchJob(ctx, job) // querylog.go
	}
	if job.Kind != JobKindExtract && job.Kind != JobKindIndex {
		return nil, lore.Errorf(lore.EINVALID, "job kind %q is unknown", job.Kind)
	}
	ctx = Tagged(ctx)
	if len(job.EpisodeIDs) == 0 {
		return nil, nil
	}
	eps, err := s.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: job.Scope, IDs: job.EpisodeIDs})
	if err != nil {
		return nil, fmt.Errorf("ingest: load job episodes: %w", err)
	}
	// Episodes deleted since the job was queued are simply skipped.
	if job.Kind == JobKindIndex {
		return nil, s.IndexEpisodes(ctx, eps)
	}
	return s.extractEpisodes(ctx, job.Scope, eps)
}

// RetryJob puts a failed (dead-lettered) job back in the queue with fresh
// attempts. It returns ENOTFOUND for an unknown job and ECONFLICT for a job
// that has not failed.
func (s *Service) RetryJob(ctx context.Context, tenantID, jobID string) (*lore.Job, error) {
	if tenantID == "" {
		tenantID = lore.DefaultTenant
	}
	job, err := s.Store.GetJob(ctx, tenantID, jobID)
	if err != nil {
		if lore.ErrorCode(err) == lore.ENOTFOUND {
			return nil, err
		}
		return nil, fmt.Errorf("ingest: get job: %w", err)
	}
	if job.Status != lore.JobFailed {
		return nil, lore.Errorf(lore.ECONFLICT, "job %s is %s; only failed jobs can be retried", job.ID, job.Status)
	}
	now := s.now()
	job.Status = lore.JobQueued
	job.Attempts = 0
	job.MaxAttempts = s.cfg().MaxAttempts
	job.NextRunAt = now
	job.LeaseUntil = nil
	job.UpdatedAt = now
	// The previous error stays visible until the job runs again.
	if err := s.Store.SaveJob(ctx, job); err != nil {
		return nil, fmt.Errorf("ingest: save job: %w", err)
	}
	s.notify()
	return job, nil
}
