package crypt

import (
	"context"
	"time"

	"github.com/lore-memory/lore"
)

var _ lore.QueryLogStore = (*Store)(nil)

// AppendQueryLog seals the query's text; its hash is taken from the text
// first and sealed deterministically as profile evidence is, so reads
// give back the evidence that names the query.
func (s *Store) AppendQueryLog(ctx context.Context, scope lore.Scope, e lore.QueryLogEntry) error {
	p, err := port[lore.QueryLogStore](s)
	if err != nil {
		return err
	}
	if err := e.Validate(); err != nil {
		return err
	}
	if e.Query, err = s.Keys.Seal(ctx, scope.TenantID, e.Query); err != nil {
		return err
	}
	if e.Hash, err = s.sealEvidence(ctx, scope.TenantID, e.Hash); err != nil {
		return err
	}
	return p.AppendQueryLog(ctx, scope, e)
}

// QueryLog opens the queries the store returns.
func (s *Store) QueryLog(ctx context.Context, scope lore.Scope, f lore.QueryLogFilter) ([]lore.QueryLogEntry, error) {
	p, err := port[lore.QueryLogStore](s)
	if err != nil {
		return nil, err
	}
	out, err := p.QueryLog(ctx, scope, f)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Query, err = s.Keys.Open(ctx, scope.TenantID, out[i].Query); err != nil {
			return nil, err
		}
		if out[i].Hash, err = s.Keys.Open(ctx, scope.TenantID, out[i].Hash); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) MarkQueryLogInferred(ctx context.Context, scope lore.Scope, ids []string, at time.Time) error {
	p, err := port[lore.QueryLogStore](s)
	if err != nil {
		return err
	}
	return p.MarkQueryLogInferred(ctx, scope, ids, at)
}

func (s *Store) PurgeQueryLog(ctx context.Context, now time.Time, tenantID string, before time.Time) (int, error) {
	p, err := port[lore.QueryLogStore](s)
	if err != nil {
		return 0, err
	}
	return p.PurgeQueryLog(ctx, now, tenantID, before)
}
