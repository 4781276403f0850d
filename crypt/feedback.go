package crypt

import (
	"context"
	"strings"

	"github.com/lore-memory/lore"
)

// Verdicts and the success table key a query by lore.QueryHash, an unkeyed
// SHA-256 of its normalised text: whoever guesses a query could confirm it
// against the stored hash. Under encryption the hash is keyed: the layer
// stores queryHashPrefix and an HMAC of lore.QueryHash under a key derived
// from the tenant's data key, in verdicts, success rows and lookups alike,
// so the success signal still finds the answers that worked for a query.
var (
	_ lore.FeedbackStore = (*Store)(nil)
	_ lore.VerdictLister = (*Store)(nil)
)

const (
	queryHashPurpose = "query-hash"
	// queryHashPrefix starts a keyed query hash, so a hash keyed once
	// (a verdict read back and imported again) is not keyed twice.
	queryHashPrefix = "k:"
)

// keyQueryHash returns the tenant's keyed form of a lore.QueryHash; "" and
// an already keyed hash come back as they are.
func (s *Store) keyQueryHash(ctx context.Context, tenant, hash string) (string, error) {
	if hash == "" || strings.HasPrefix(hash, queryHashPrefix) {
		return hash, nil
	}
	tok, err := s.Keys.Token(ctx, tenant, queryHashPurpose, hash)
	if err != nil {
		return "", err
	}
	return queryHashPrefix + tok, nil
}

// RecordVerdict keys v's query hash before the store sees it; v keeps the
// keyed hash, as the store holds and lists it.
func (s *Store) RecordVerdict(ctx context.Context, v *lore.Verdict, rule lore.FeedbackRule) (lore.MemorySignal, error) {
	p, err := port[lore.FeedbackStore](s)
	if err != nil {
		return lore.MemorySignal{}, err
	}
	if v.QueryHash, err = s.keyQueryHash(ctx, v.Scope.TenantID, v.QueryHash); err != nil {
		return lore.MemorySignal{}, err
	}
	return p.RecordVerdict(ctx, v, rule)
}

// MemorySignals looks the success counts up by the keyed query hash.
func (s *Store) MemorySignals(ctx context.Context, ns lore.Scope, ids []string, queryHash string) (map[string]lore.MemorySignal, error) {
	p, err := port[lore.FeedbackStore](s)
	if err != nil {
		return nil, err
	}
	if queryHash, err = s.keyQueryHash(ctx, ns.TenantID, queryHash); err != nil {
		return nil, err
	}
	return p.MemorySignals(ctx, ns, ids, queryHash)
}

// ListVerdicts passes through (verdicts hold ids and keyed hashes).
func (s *Store) ListVerdicts(ctx context.Context, scope lore.Scope, page lore.VerdictPage) ([]lore.Verdict, error) {
	p, err := port[lore.VerdictLister](s)
	if err != nil {
		return nil, err
	}
	return p.ListVerdicts(ctx, scope, page)
}
