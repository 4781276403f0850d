package crypt

import (
	"context"
	"time"

	"github.com/lore-memory/lore"
)

// The stores' other ports pass through the encryption layer, so that a
// server with a master key keeps its ranking signals, directory and queue
// features. The directory, queue counts and leases hold ids, counts and
// times only; verdicts and success rows hold ids and a keyed hash of the
// query (feedback.go), never its text; usage rows hold ids and counts.
// Profile values (profile.go) and job rows (jobs.go) are sealed.
var (
	_ lore.Directory    = (*Store)(nil)
	_ lore.QueueCounter = (*Store)(nil)
	_ lore.JobLeases    = (*Store)(nil)
)

func (s *Store) Verdicts(ctx context.Context, scope lore.Scope) ([]lore.Verdict, error) {
	p, err := port[lore.FeedbackStore](s)
	if err != nil {
		return nil, err
	}
	return p.Verdicts(ctx, scope)
}

func (s *Store) ResetFeedback(ctx context.Context, scope lore.Scope, usage bool) (int, error) {
	p, err := port[lore.FeedbackStore](s)
	if err != nil {
		return 0, err
	}
	return p.ResetFeedback(ctx, scope, usage)
}

func (s *Store) RecordUsage(ctx context.Context, usage []lore.UsageRecord) error {
	p, err := port[lore.FeedbackStore](s)
	if err != nil {
		return err
	}
	return p.RecordUsage(ctx, usage)
}

func (s *Store) Usage(ctx context.Context, scope lore.Scope) ([]lore.UsageRecord, error) {
	p, err := port[lore.FeedbackStore](s)
	if err != nil {
		return nil, err
	}
	return p.Usage(ctx, scope)
}

func (s *Store) Successes(ctx context.Context, scope lore.Scope) ([]lore.SuccessRecord, error) {
	p, err := port[lore.FeedbackStore](s)
	if err != nil {
		return nil, err
	}
	return p.Successes(ctx, scope)
}

func (s *Store) BackfillSuccess(ctx context.Context) (int, error) {
	p, err := port[lore.FeedbackStore](s)
	if err != nil {
		return 0, err
	}
	return p.BackfillSuccess(ctx)
}

func (s *Store) FeatureVerdicts(ctx context.Context, tenantID string) ([]lore.FeatureVerdict, error) {
	p, err := port[lore.FeedbackStore](s)
	if err != nil {
		return nil, err
	}
	return p.FeatureVerdicts(ctx, tenantID)
}

func (s *Store) ScopeOf(ctx context.Context, tenantID, id string) (lore.Scope, error) {
	p, err := port[lore.Directory](s)
	if err != nil {
		return lore.Scope{}, err
	}
	return p.ScopeOf(ctx, tenantID, id)
}

func (s *Store) Scopes(ctx context.Context, tenantID string, limit int) ([]lore.ScopeSummary, error) {
	p, err := port[lore.Directory](s)
	if err != nil {
		return nil, err
	}
	return p.Scopes(ctx, tenantID, limit)
}

func (s *Store) CountJobs(ctx context.Context, tenantID string) (map[lore.JobStatus]int, error) {
	p, err := port[lore.QueueCounter](s)
	if err != nil {
		return nil, err
	}
	return p.CountJobs(ctx, tenantID)
}

func (s *Store) ReleaseJobs(ctx context.Context, owner string, now time.Time, keep ...string) (int, error) {
	p, err := port[lore.JobLeases](s)
	if err != nil {
		return 0, err
	}
	return p.ReleaseJobs(ctx, owner, now, keep...)
}

func (s *Store) PendingJobs(ctx context.Context, tenantID string) (int, error) {
	p, err := port[lore.JobLeases](s)
	if err != nil {
		return 0, err
	}
	return p.PendingJobs(ctx, tenantID)
}

var _ lore.AuditSubjectWriter = (*Store)(nil)

// PutAuditSubject passes through (a mapping holds ids only).
func (s *Store) PutAuditSubject(ctx context.Context, tenantID, pseudonym string, sub lore.AuditSubject) error {
	p, err := port[lore.AuditSubjectWriter](s)
	if err != nil {
		return err
	}
	return p.PutAuditSubject(ctx, tenantID, pseudonym, sub)
}
