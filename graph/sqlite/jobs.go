package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/lore-memory/lore"
)

// jobColumns lists the columns scanJob reads, in order.
const jobColumns = `id, tenant_id, user_id, agent_id, run_id, kind, episode_ids, status, attempts, max_attempts,
	error, events, next_run_at, lease_until, created_at, updated_at, owner`

// jobSelect is jobColumns with the job's request id (migration 16) last.
const jobSelect = jobColumns + `, COALESCE((SELECT request_id FROM job_requests WHERE job_id = jobs.id), '')`

// EnqueueJob stores a new job, assigning ID, CreatedAt and UpdatedAt where
// empty and JobQueued when Status is empty.
func (s *Store) EnqueueJob(ctx context.Context, job *lore.Job) error {
	if err := job.Scope.Validate(); err != nil {
		return err
	}
	now := s.clock()
	if job.ID == "" {
		job.ID = newID()
	}
	if job.Status == "" {
		job.Status = lore.JobQueued
	}
	if job.CreatedAt.IsZero() {
		job.CreatedAt = now
	}
	if job.UpdatedAt.IsZero() {
		job.UpdatedAt = job.CreatedAt
	}
	if job.NextRunAt.IsZero() {
		job.NextRunAt = job.CreatedAt
	}
	job.CreatedAt, job.UpdatedAt, job.NextRunAt = normTime(job.CreatedAt), normTime(job.UpdatedAt), normTime(job.NextRunAt)
	job.LeaseUntil = normTimePtr(job.LeaseUntil)
	eps, events, err := encodeJob(job)
	if err != nil {
		return err
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO jobs (`+jobColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			job.ID, job.Scope.TenantID, job.Scope.UserID, job.Scope.AgentID, job.Scope.RunID, job.Kind, eps,
			string(job.Status), job.Attempts, job.MaxAttempts, job.Error, events, micros(job.NextRunAt),
			microsPtr(job.LeaseUntil), micros(job.CreatedAt), micros(job.UpdatedAt), job.Owner)
		if err != nil || job.RequestID == "" {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO job_requests (job_id, request_id) VALUES (?, ?)`, job.ID, job.RequestID)
		return err
	})
	if isConstraint(err) {
		return lore.Errorf(lore.ECONFLICT, "job %q already exists", job.ID)
	}
	return wrap("enqueue job", err)
}

// ClaimJob takes the oldest due job (by CreatedAt, then ID) in one write
// transaction: the select and the update cannot interleave with another
// claim, so a job is never handed out twice within a lease.
func (s *Store) ClaimJob(ctx context.Context, req lore.ClaimRequest) (*lore.Job, error) {
	if req.Now.IsZero() {
		req.Now = s.clock()
	}
	now := micros(req.Now)
	var out *lore.Job
	err := s.write(ctx, func(tx *sql.Tx) error {
		q, args := claimQuery(now, req.SkipTenants, req.MaxPerTenant)
		jobs, err := queryJobs(ctx, tx, q, args...)
		if err != nil {
			return err
		}
		if len(jobs) == 0 {
			return lore.Errorf(lore.ENOTFOUND, "no job is due")
		}
		job := jobs[0]
		lease := normTime(req.Now.Add(req.Lease))
		job.Status, job.Attempts, job.LeaseUntil, job.UpdatedAt = lore.JobRunning, job.Attempts+1, &lease, s.clock()
		job.Owner = req.Owner
		_, err = tx.ExecContext(ctx, `UPDATE jobs SET status = ?, attempts = ?, lease_until = ?, updated_at = ?, owner = ? WHERE id = ?`,
			string(job.Status), job.Attempts, micros(lease), micros(job.UpdatedAt), job.Owner, job.ID)
		out = job
		return err
	})
	return out, wrap("claim job", err)
}

// claimQuery returns the statement selecting the oldest job due at now
// (microseconds) outside the skipped tenants and, with maxPerTenant > 0,
// outside tenants that many jobs are running for under live leases. The
// claim runs in the single writer's transaction, so the count cannot go
// stale before the update.
func claimQuery(now int64, skip []string, maxPerTenant int) (string, []any) {
	var w where
	w.add(`((status IN (?, ?) AND next_run_at <= ?) OR (status = ? AND lease_until <= ?))`,
		string(lore.JobQueued), string(lore.JobRetrying), now, string(lore.JobRunning), now)
	if len(skip) > 0 {
		w.add("tenant_id NOT IN ("+placeholders(len(skip))+")", anys(skip)...)
	}
	if maxPerTenant > 0 {
		w.add(`tenant_id NOT IN (SELECT tenant_id FROM jobs WHERE status = ? AND lease_until > ?
			GROUP BY tenant_id HAVING COUNT(*) >= ?)`, string(lore.JobRunning), now, maxPerTenant)
	}
	return `SELECT ` + jobSelect + ` FROM jobs WHERE ` + w.sql() + ` ORDER BY created_at, id LIMIT 1`, w.args
}

// SaveJob stores the job's status, attempts, error, events, NextRunAt and
// lease. It returns ENOTFOUND for a job that was never enqueued (or was
// deleted with its scope).
func (s *Store) SaveJob(ctx context.Context, job *lore.Job) error {
	job.UpdatedAt = s.clock()
	job.NextRunAt, job.LeaseUntil = normTime(job.NextRunAt), normTimePtr(job.LeaseUntil)
	eps, events, err := encodeJob(job)
	if err != nil {
		return err
	}
	res, err := s.exec(ctx, `UPDATE jobs SET status = ?, attempts = ?, max_attempts = ?, error = ?, events = ?,
		episode_ids = ?, next_run_at = ?, lease_until = ?, updated_at = ? WHERE id = ? AND tenant_id = ?`,
		string(job.Status), job.Attempts, job.MaxAttempts, job.Error, events, eps, micros(job.NextRunAt),
		microsPtr(job.LeaseUntil), micros(job.UpdatedAt), job.ID, job.Scope.TenantID)
	if err != nil {
		return wrap("save job", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return wrap("save job", err)
	} else if n == 0 {
		return lore.Errorf(lore.ENOTFOUND, "job %q not found", job.ID)
	}
	return nil
}

// ReleaseJobs makes the running jobs claimed by owner, but those in keep,
// due again at now, giving back the attempt their claim spent.
func (s *Store) ReleaseJobs(ctx context.Context, owner string, now time.Time, keep ...string) (int, error) {
	if owner == "" {
		return 0, nil
	}
	kept, err := json.Marshal(append([]string{}, keep...))
	if err != nil {
		return 0, wrap("release jobs", err)
	}
	res, err := s.exec(ctx, `UPDATE jobs SET status = ?, attempts = MAX(attempts - 1, 0), lease_until = NULL,
		next_run_at = ?, updated_at = ?, owner = '' WHERE owner = ? AND status = ?
		AND id NOT IN (SELECT value FROM json_each(?))`,
		string(lore.JobQueued), micros(normTime(now)), micros(s.clock()), owner, string(lore.JobRunning), string(kept))
	if err != nil {
		return 0, wrap("release jobs", err)
	}
	n, err := res.RowsAffected()
	return int(n), wrap("release jobs", err)
}

// PendingJobs counts the tenant's queued, retrying and running jobs.
func (s *Store) PendingJobs(ctx context.Context, tenantID string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE tenant_id = ? AND status IN (?, ?, ?)`,
		tenantID, string(lore.JobQueued), string(lore.JobRetrying), string(lore.JobRunning)).Scan(&n)
	return n, wrap("count pending jobs", err)
}

// GetJob returns a job of the tenant, or ENOTFOUND.
func (s *Store) GetJob(ctx context.Context, tenantID, id string) (*lore.Job, error) {
	jobs, err := queryJobs(ctx, s.r, `SELECT `+jobSelect+` FROM jobs WHERE id = ? AND tenant_id = ?`, id, tenantID)
	if err != nil {
		return nil, wrap("get job", err)
	}
	if len(jobs) == 0 {
		return nil, lore.Errorf(lore.ENOTFOUND, "job %q not found", id)
	}
	return jobs[0], nil
}

// encodeJob returns the JSON of a job's episode ids and events.
func encodeJob(job *lore.Job) (string, string, error) {
	ids, evs := job.EpisodeIDs, job.Events
	if ids == nil {
		ids = []string{}
	}
	if evs == nil {
		evs = []lore.MemoryEvent{}
	}
	eps, err := json.Marshal(ids)
	if err != nil {
		return "", "", err
	}
	events, err := json.Marshal(evs)
	if err != nil {
		return "", "", err
	}
	return string(eps), string(events), nil
}

// queryJobs runs a query selecting jobSelect.
func queryJobs(ctx context.Context, q querier, query string, args ...any) ([]*lore.Job, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*lore.Job
	for rows.Next() {
		var (
			j                      lore.Job
			eps, events, status    string
			next, created, updated int64
			lease                  sql.NullInt64
		)
		if err := rows.Scan(&j.ID, &j.Scope.TenantID, &j.Scope.UserID, &j.Scope.AgentID, &j.Scope.RunID, &j.Kind, &eps,
			&status, &j.Attempts, &j.MaxAttempts, &j.Error, &events, &next, &lease, &created, &updated, &j.Owner, &j.RequestID); err != nil {
			return nil, err
		}
		j.Status = lore.JobStatus(status)
		j.NextRunAt, j.LeaseUntil = fromMicros(next), fromNullMicros(lease)
		j.CreatedAt, j.UpdatedAt = fromMicros(created), fromMicros(updated)
		if err := json.Unmarshal([]byte(eps), &j.EpisodeIDs); err != nil {
			return nil, errors.Join(errors.New("job episode ids"), err)
		}
		if err := json.Unmarshal([]byte(events), &j.Events); err != nil {
			return nil, errors.Join(errors.New("job events"), err)
		}
		if len(j.Events) == 0 {
			j.Events = nil
		}
		out = append(out, &j)
	}
	return out, rows.Err()
}

// GetMeta returns a setting, or ENOTFOUND.
func (s *Store) GetMeta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.r.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", lore.Errorf(lore.ENOTFOUND, "setting %q not found", key)
	}
	return v, wrap("get meta", err)
}

// SetMeta stores a setting, replacing any earlier value.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	_, err := s.exec(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	return wrap("set meta", err)
}
