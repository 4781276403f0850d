package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/profile"
)

// ProfileInferenceOff is the MetaStore key prefix of the per-tenant switch
// that stops inferring profiles from searches: a key
// ProfileInferenceOff+tenant set to "true" turns it off for that tenant
// (`lore profile inference off --tenant T`).
const ProfileInferenceOff = "profile.inference.off:"

// profileStore returns the store's profile port, or nil when profiles are
// off or the store keeps none.
func (s *Service) profileStore() lore.ProfileStore {
	if s.Config.NoProfile {
		return nil
	}
	ps, _ := s.Store.(lore.ProfileStore)
	return ps
}

// profileRules returns the offline profile rules, parsed once.
func (s *Service) profileRules() *profile.Rules {
	s.profileOnce.Do(func() { s.rules = profile.MustNew() })
	return s.rules
}

// feedProfile writes the explicit entries the batch's user messages state
// (package profile's rules), those the facts stored about the user feed,
// and the extractor's profile signals as inferred entries. The store's
// precedence rules decide what is kept.
func (r *batchRun) feedProfile(ctx context.Context, ext *lore.Extraction) error {
	ps := r.s.profileStore()
	if ps == nil || r.scope.UserID == "" {
		return nil
	}
	rules := r.s.profileRules()
	var entries []lore.ProfileEntry
	for _, ep := range r.order {
		if ep.Role == "user" && !ep.Verbatim {
			entries = append(entries, rules.FromStatement(ep.Content, ep.ID, seenAt(ep, r.now))...)
		}
	}
	if r.user != nil {
		for _, f := range r.stored {
			if f.SubjectID != r.user.ID || !f.Current(r.now) {
				continue
			}
			var srcs, texts []string
			for _, id := range f.SourceEpisodeIDs {
				if ep := r.eps[id]; ep != nil && ep.Role == "user" {
					srcs, texts = append(srcs, id), append(texts, ep.Content)
				}
			}
			if len(srcs) == 0 {
				continue // not stated in this batch by the user
			}
			if e, ok := rules.FromFact(f, srcs, texts, seenAt(r.eps[srcs[len(srcs)-1]], r.now)); ok {
				entries = append(entries, e)
			}
		}
	}
	for _, p := range ext.Profile {
		entries = append(entries, lore.ProfileEntry{Key: p.Key, Value: p.Value, Confidence: p.Confidence,
			Source: lore.ProfileInferred, Evidence: p.EpisodeIDs, UpdatedAt: r.now})
	}
	for _, e := range entries {
		if _, err := ps.PutProfileEntry(ctx, r.scope, e); err != nil {
			if lore.ErrorCode(err) == lore.EINVALID {
				r.reject("profile entry %s=%q: %s", e.Key, e.Value, lore.ErrorMessage(err))
				continue
			}
			return fmt.Errorf("ingest: profile: %w", err)
		}
	}
	return nil
}

// seenAt is when an episode was said, or now.
func seenAt(ep *lore.Episode, now time.Time) time.Time {
	if ep != nil && !ep.OccurredAt.IsZero() {
		return ep.OccurredAt
	}
	return now
}

// InferProfileFromQuery reads a search query's clear cues with the offline
// rules and, when it shows something, queues a profile job that writes the
// inferred entries. The job holds the entries, whose evidence is the
// query's hash, never the query. Only when the tenant keeps a query log
// (Service.QueryLogDays) is the query kept, in the user's log, until it
// expires (querylog.go). It returns the job id, "" when there
// was nothing to learn, the scope names no user, profiles are off, or the
// tenant switched inference off (ProfileInferenceOff). Callers run it after
// the search has answered.
func (s *Service) InferProfileFromQuery(ctx context.Context, scope lore.Scope, query string) (string, error) {
	scope = scope.WithDefaults()
	if s.profileStore() == nil || scope.UserID == "" {
		return "", nil
	}
	entries := s.profileRules().FromQuery(query, s.now())
	days, err := s.queryLogDays(ctx, scope.TenantID)
	if err != nil {
		return "", err
	}
	if len(entries) == 0 && days == 0 {
		return "", nil
	}
	switch off, err := s.Store.GetMeta(ctx, ProfileInferenceOff+scope.TenantID); {
	case err == nil && off == "true":
		return "", nil
	case err != nil && lore.ErrorCode(err) != lore.ENOTFOUND:
		return "", fmt.Errorf("ingest: profile switch: %w", err)
	}
	if days > 0 {
		if err := s.logQuery(ctx, scope, query, days); err != nil { // querylog.go
			return "", err
		}
	}
	if len(entries) == 0 {
		return "", nil
	}
	// Job has no payload field: a profile job carries its entries,
	// JSON-encoded, one per EpisodeIDs element (never the query).
	payload := make([]string, 0, len(entries))
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			return "", fmt.Errorf("ingest: profile job: %w", err)
		}
		payload = append(payload, string(b))
	}
	now := s.now()
	job := &lore.Job{
		ID: uuid.NewString(), Scope: lore.Scope{TenantID: scope.TenantID, UserID: scope.UserID}, Kind: JobKindProfile,
		EpisodeIDs: payload, Status: lore.JobQueued, MaxAttempts: s.cfg().MaxAttempts, NextRunAt: now, CreatedAt: now, UpdatedAt: now,
	}
	if err := s.Store.EnqueueJob(ctx, job); err != nil {
		return "", fmt.Errorf("ingest: enqueue profile job: %w", err)
	}
	s.notify()
	return job.ID, nil
}

// InferProfileLater runs InferProfileFromQuery on its own goroutine, for a
// search that has answered already, bounded by timeout. RunWorkers waits
// for these before it returns, so a server stopping right after a search
// still queues the job. Failures go to the logger: the search succeeded.
func (s *Service) InferProfileLater(ctx context.Context, scope lore.Scope, query string, timeout time.Duration) {
	s.inferring.Add(1)
	go func() {
		defer s.inferring.Done()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
		defer cancel()
		if _, err := s.InferProfileFromQuery(ctx, scope, query); err != nil {
			s.logger().Warn("ingest: profile inference", "tenant", scope.TenantID, "err", err)
		}
	}()
}

// runProfileJob writes a profile job's entries through the store's
// precedence rules.
func (s *Service) runProfileJob(ctx context.Context, job *lore.Job) ([]lore.MemoryEvent, error) {
	ps := s.profileStore()
	if ps == nil {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "the store keeps no profiles")
	}
	var events []lore.MemoryEvent
	for i, raw := range job.EpisodeIDs {
		var e lore.ProfileEntry
		if err := json.Unmarshal([]byte(raw), &e); err != nil {
			return events, lore.Errorf(lore.EINVALID, "profile job entry %d: %v", i, err)
		}
		w, err := ps.PutProfileEntry(ctx, job.Scope, e)
		if err != nil {
			return events, fmt.Errorf("ingest: profile job: %w", err)
		}
		ev := lore.MemoryEvent{ID: e.Key, Memory: e.Key + ": " + e.Value, Event: lore.EventNone, Type: "profile"}
		if w.Written {
			ev.Event = lore.EventUpdate
		}
		events = append(events, ev)
	}
	return events, nil
}
