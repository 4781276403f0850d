package ingest

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
)

// DefaultQueryLogBatch is how many pending logged queries of a user start
// a batch inference job (Config.QueryLogBatch).
const DefaultQueryLogBatch = 20

// maxProfileBatch bounds the queries one batch job sends to the model.
const maxProfileBatch = 50

// ProfileInferrer reads what a batch of a user's search queries shows about
// them, given their profile: extract/llm's ProfileInferrer, behind the
// profile-v1 prompt. Signals name the queries (indexes into queries) that
// show them.
type ProfileInferrer interface {
	InferProfile(ctx context.Context, queries []string, current []lore.ProfileEntry) ([]lore.QuerySignal, error)
}

// queryLogDays is the tenant's query log retention; 0 when nothing is kept.
func (s *Service) queryLogDays(ctx context.Context, tenantID string) (int, error) {
	if s.QueryLogDays == nil {
		return 0, nil
	}
	if _, ok := s.Store.(lore.QueryLogStore); !ok {
		return 0, nil
	}
	days, err := s.QueryLogDays(ctx, tenantID)
	if err != nil {
		return 0, fmt.Errorf("ingest: query log policy: %w", err)
	}
	return max(days, 0), nil
}

// logQuery keeps query in the user's log for days, and queues a batch
// inference job when the ProfileInferrer is set and the user's pending
// queries reach a batch. This is the only place a query's text is stored.
func (s *Service) logQuery(ctx context.Context, scope lore.Scope, query string, days int) error {
	ql := s.Store.(lore.QueryLogStore)
	now := s.now()
	user := lore.Scope{TenantID: scope.TenantID, UserID: scope.UserID}
	e := lore.QueryLogEntry{ID: uuid.NewString(), Query: query, CreatedAt: now, ExpiresAt: now.Add(time.Duration(days) * 24 * time.Hour)}
	if err := ql.AppendQueryLog(ctx, user, e); err != nil {
		if lore.ErrorCode(err) == lore.EINVALID {
			return nil // a query the log cannot hold (too long) is not kept
		}
		return fmt.Errorf("ingest: query log: %w", err)
	}
	if s.ProfileInferrer == nil {
		return nil
	}
	batch := s.Config.QueryLogBatch
	if batch <= 0 {
		batch = DefaultQueryLogBatch
	}
	pending, err := ql.QueryLog(ctx, user, lore.QueryLogFilter{Now: now, Pending: true})
	if err != nil {
		return fmt.Errorf("ingest: query log: %w", err)
	}
	if len(pending) < batch || len(pending)%batch != 0 {
		return nil
	}
	_, err = s.EnqueueProfileBatch(ctx, user)
	return err
}

// EnqueueProfileBatch queues a batch inference job over the user's pending
// logged queries and returns its id.
func (s *Service) EnqueueProfileBatch(ctx context.Context, scope lore.Scope) (string, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return "", err
	}
	now := s.now()
	job := &lore.Job{
		ID: uuid.NewString(), Scope: lore.Scope{TenantID: scope.TenantID, UserID: scope.UserID}, Kind: JobKindProfileBatch,
		Status: lore.JobQueued, MaxAttempts: s.cfg().MaxAttempts, NextRunAt: now, CreatedAt: now, UpdatedAt: now,
	}
	if err := s.Store.EnqueueJob(ctx, job); err != nil {
		return "", fmt.Errorf("ingest: enqueue profile batch: %w", err)
	}
	s.notify()
	return job.ID, nil
}

// runProfileBatchJob sends the user's pending logged queries (at most
// maxProfileBatch, oldest first) and profile to the ProfileInferrer, writes
// what it read as inferred entries whose evidence is the hashes of the
// queries that show them, and marks the queries read. Signals under
// lore.ProfileFloor never reach the store; the store's precedence rules
// decide the rest.
func (s *Service) runProfileBatchJob(ctx context.Context, job *lore.Job) ([]lore.MemoryEvent, error) {
	ps := s.profileStore()
	ql, ok := s.Store.(lore.QueryLogStore)
	if ps == nil || !ok {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "the store keeps no profiles or query logs")
	}
	if s.ProfileInferrer == nil {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "no LLM is configured for profile inference")
	}
	now := s.now()
	pending, err := ql.QueryLog(ctx, job.Scope, lore.QueryLogFilter{Now: now, Pending: true, Limit: maxProfileBatch})
	if err != nil || len(pending) == 0 {
		return nil, err
	}
	current, err := ps.ProfileEntries(ctx, job.Scope)
	if err != nil {
		return nil, fmt.Errorf("ingest: profile batch: %w", err)
	}
	queries := make([]string, len(pending))
	ids := make([]string, len(pending))
	for i, e := range pending {
		queries[i], ids[i] = e.Query, e.ID
	}
	signals, err := s.ProfileInferrer.InferProfile(ctx, queries, current)
	if err != nil {
		return nil, fmt.Errorf("ingest: profile batch: %w", err)
	}
	var events []lore.MemoryEvent
	for _, sig := range signals {
		if sig.Confidence < lore.ProfileFloor {
			continue
		}
		var evidence []string
		for _, i := range sig.Queries {
			if i >= 0 && i < len(pending) {
				evidence = append(evidence, pending[i].Hash)
			}
		}
		if len(evidence) == 0 {
			continue
		}
		e := lore.ProfileEntry{Key: sig.Key, Value: sig.Value, Confidence: sig.Confidence, Source: lore.ProfileInferred,
			Evidence: evidence, UpdatedAt: now}
		w, err := ps.PutProfileEntry(ctx, job.Scope, e)
		if lore.ErrorCode(err) == lore.EINVALID {
			continue // a key or value the profile cannot hold
		} else if err != nil {
			return events, fmt.Errorf("ingest: profile batch: %w", err)
		}
		ev := lore.MemoryEvent{ID: e.Key, Memory: e.Key + ": " + e.Value, Event: lore.EventNone, Type: "profile"}
		if w.Written {
			ev.Event = lore.EventUpdate
		}
		events = append(events, ev)
	}
	if err := ql.MarkQueryLogInferred(ctx, job.Scope, ids, now); err != nil {
		return events, fmt.Errorf("ingest: profile batch: %w", err)
	}
	return events, nil
}
