package crypt

import (
	"context"
	"time"

	"github.com/lore-memory/lore"
)

// The outbox holds ids and scopes only, never text, so it passes through.
var (
	_ lore.Outbox       = (*Store)(nil)
	_ lore.TenantLister = (*Store)(nil)
)

// ClaimOutbox passes through.
func (s *Store) ClaimOutbox(ctx context.Context, tenantID string, now time.Time, lease time.Duration, limit int) ([]lore.OutboxEntry, error) {
	p, err := port[lore.Outbox](s)
	if err != nil {
		return nil, err
	}
	return p.ClaimOutbox(ctx, tenantID, now, lease, limit)
}

// DoneOutbox passes through.
func (s *Store) DoneOutbox(ctx context.Context, seqs []int64) error {
	p, err := port[lore.Outbox](s)
	if err != nil {
		return err
	}
	return p.DoneOutbox(ctx, seqs)
}

// FailOutbox passes through.
func (s *Store) FailOutbox(ctx context.Context, seq int64, next time.Time, msg string) error {
	p, err := port[lore.Outbox](s)
	if err != nil {
		return err
	}
	return p.FailOutbox(ctx, seq, next, msg)
}

// AckOutbox passes through.
func (s *Store) AckOutbox(ctx context.Context, tag string, memoryIDs []string) error {
	p, err := port[lore.Outbox](s)
	if err != nil {
		return err
	}
	return p.AckOutbox(ctx, tag, memoryIDs)
}

// PendingOutbox passes through.
func (s *Store) PendingOutbox(ctx context.Context, tenantID string) (int, error) {
	p, err := port[lore.Outbox](s)
	if err != nil {
		return 0, err
	}
	return p.PendingOutbox(ctx, tenantID)
}

// Tenants passes through.
func (s *Store) Tenants(ctx context.Context) ([]string, error) {
	p, err := port[lore.TenantLister](s)
	if err != nil {
		return nil, err
	}
	return p.Tenants(ctx)
}
