package neo4j

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/lore-memory/lore"
)

// EnqueueJob stores a job, assigning ID, status queued, CreatedAt,
// UpdatedAt and NextRunAt where empty.
func (s *Store) EnqueueJob(ctx context.Context, job *lore.Job) error {
	if err := job.Scope.Validate(); err != nil {
		return err
	}
	now := s.now().UTC()
	if job.ID == "" {
		job.ID = lore.NewID()
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
	events, err := jobEvents(job)
	if err != nil {
		return err
	}
	row := map[string]any{
		"id": job.ID, "tenant_id": job.Scope.TenantID, "user_id": job.Scope.UserID,
		"agent_id": job.Scope.AgentID, "run_id": job.Scope.RunID,
		"kind": job.Kind, "episode_ids": stringsParam(job.EpisodeIDs), "status": string(job.Status),
		"attempts": int64(job.Attempts), "max_attempts": int64(job.MaxAttempts), "error": job.Error,
		"events": events, "next_run_at": job.NextRunAt.UTC(), "lease_until": utcPtr(job.LeaseUntil),
		"created_at": job.CreatedAt.UTC(), "updated_at": job.UpdatedAt.UTC(), "owner": job.Owner,
		"request_id": job.RequestID,
	}
	_, err = write(ctx, s, "enqueue job", func(r txRunner) (struct{}, error) {
		_, err := r.run("EnqueueJob", shape{}, map[string]any{"job": row})
		return struct{}{}, err
	})
	return err
}

// jobEvents encodes a job's events for storage.
func jobEvents(job *lore.Job) (any, error) {
	if len(job.Events) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(job.Events)
	if err != nil {
		return nil, fmt.Errorf("neo4j: encode job events: %w", err)
	}
	return string(b), nil
}

// ClaimJob takes the oldest due job, sets it running with a new lease and
// one more attempt, and returns it; ENOTFOUND when none is due.
func (s *Store) ClaimJob(ctx context.Context, req lore.ClaimRequest) (*lore.Job, error) {
	now := req.Now
	if now.IsZero() {
		now = s.now()
	}
	now = now.UTC()
	params := map[string]any{
		"now": now, "lease_until": now.Add(req.Lease), "skip_tenants": stringsParam(req.SkipTenants),
		"owner": req.Owner, "max_per_tenant": int64(req.MaxPerTenant),
	}
	skip := slices.Clone(req.SkipTenants)
	for tries := 0; tries < claimRetries; {
		c, err := write(ctx, s, "claim job", func(r txRunner) (claim, error) {
			recs, err := r.run("ClaimJob", shape{}, params)
			if err != nil || len(recs) == 0 {
				return claim{}, err
			}
			p, err := nodeProps(recs[0], "j")
			if err != nil {
				return claim{}, err
			}
			job, err := toJob(p)
			if err != nil {
				return claim{}, err
			}
			ok, _ := recs[0].Get("claimed")
			room, _ := recs[0].Get("room")
			return claim{job: job, claimed: ok == true, full: room == false}, nil
		})
		if err != nil {
			return nil, err
		}
		if c.job == nil {
			return nil, lore.Errorf(lore.ENOTFOUND, "no job is due")
		}
		if c.claimed {
			return c.job, nil
		}
		if c.full {
			// The tenant is at its limit across processes: look past it.
			skip = append(skip, c.job.Scope.TenantID)
			params["skip_tenants"] = stringsParam(skip)
			continue
		}
		// Another worker claimed the same job first; look for the next one.
		tries++
	}
	return nil, lore.Errorf(lore.ENOTFOUND, "no job could be claimed after %d tries", claimRetries)
}

// claim is one ClaimJob attempt's outcome.
type claim struct {
	job     *lore.Job
	claimed bool
	full    bool // the job's tenant has MaxPerTenant jobs running
}

// SaveJob stores a job's status, attempts, error, events, NextRunAt and
// lease. It returns ENOTFOUND for an unknown job.
func (s *Store) SaveJob(ctx context.Context, job *lore.Job) error {
	events, err := jobEvents(job)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	job.UpdatedAt = now
	params := map[string]any{
		"id": job.ID, "tenant_id": job.Scope.TenantID, "status": string(job.Status),
		"attempts": int64(job.Attempts), "max_attempts": int64(job.MaxAttempts), "error": job.Error,
		"events": events, "next_run_at": job.NextRunAt.UTC(), "lease_until": utcPtr(job.LeaseUntil), "updated_at": now,
	}
	_, err = write(ctx, s, "save job", func(r txRunner) (struct{}, error) {
		recs, err := r.run("SaveJob", shape{}, params)
		if err != nil {
			return struct{}{}, err
		}
		if len(recs) == 0 {
			return struct{}{}, lore.Errorf(lore.ENOTFOUND, "job %q not found", job.ID)
		}
		return struct{}{}, nil
	})
	return err
}

// ReleaseJobs makes the running jobs claimed by owner, but those in keep,
// due again at now, giving back the attempt their claim spent.
func (s *Store) ReleaseJobs(ctx context.Context, owner string, now time.Time, keep ...string) (int, error) {
	if owner == "" {
		return 0, nil
	}
	kept := append([]string{}, keep...)
	return write(ctx, s, "release jobs", func(r txRunner) (int, error) {
		recs, err := r.run("ReleaseJobs", shape{}, map[string]any{"owner": owner, "now": now.UTC(), "keep": kept})
		if err != nil || len(recs) == 0 {
			return 0, err
		}
		return recordInt(recs[0], "released"), nil
	})
}

// PendingJobs counts the tenant's queued, retrying and running jobs.
func (s *Store) PendingJobs(ctx context.Context, tenantID string) (int, error) {
	return read(ctx, s, "count pending jobs", func(r txRunner) (int, error) {
		recs, err := r.run("PendingJobs", shape{}, map[string]any{"tenant_id": tenantID})
		if err != nil || len(recs) == 0 {
			return 0, err
		}
		return recordInt(recs[0], "pending"), nil
	})
}

// GetJob returns a tenant's job, or ENOTFOUND.
func (s *Store) GetJob(ctx context.Context, tenantID, id string) (*lore.Job, error) {
	return read(ctx, s, "get job", func(r txRunner) (*lore.Job, error) {
		recs, err := r.run("GetJob", shape{}, map[string]any{"id": id, "tenant_id": tenantID})
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, lore.Errorf(lore.ENOTFOUND, "job %q not found", id)
		}
		p, err := nodeProps(recs[0], "j")
		if err != nil {
			return nil, err
		}
		return toJob(p)
	})
}

// GetMeta returns a setting, or ENOTFOUND.
func (s *Store) GetMeta(ctx context.Context, key string) (string, error) {
	return read(ctx, s, "get meta", func(r txRunner) (string, error) {
		recs, err := r.run("GetMeta", shape{}, map[string]any{"key": key})
		if err != nil {
			return "", err
		}
		if len(recs) == 0 {
			return "", lore.Errorf(lore.ENOTFOUND, "setting %q not found", key)
		}
		v, _ := recs[0].Get("value")
		str, _ := v.(string)
		return str, nil
	})
}

// SetMeta stores a setting.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	_, err := write(ctx, s, "set meta", func(r txRunner) (struct{}, error) {
		_, err := r.run("SetMeta", shape{}, map[string]any{"key": key, "value": value})
		return struct{}{}, err
	})
	return err
}

// recordInt reads an integer column of a record, 0 when absent.
func recordInt(rec *neo4j.Record, key string) int {
	v, _ := rec.Get(key)
	n, _ := v.(int64)
	return int(n)
}
