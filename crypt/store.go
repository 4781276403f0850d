package crypt

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// sealedKey holds a sealed metadata map: Neo4j and SQLite store metadata as
// JSON, so the whole map becomes one sealed string under this key.
const sealedKey = "_lore_sealed"

// Store wraps a lore.Store and seals the personal text it writes under the
// tenant's data key: episode content, speaker and metadata, fact text,
// subject, object and metadata, entity names and aliases (graph.go), the
// text of update reasons; reads open it again. Predicates, ids, times and
// vectors stay in the clear. It passes the erase, key, audit and retention
// ports through, so every feature works on top of it.
type Store struct {
	lore.Store
	Keys *Keyring
}

var (
	_ lore.Store          = (*Store)(nil)
	_ lore.EraseStore     = (*Store)(nil)
	_ lore.KeyStore       = (*Store)(nil)
	_ lore.AuditStore     = (*Store)(nil)
	_ lore.RetentionStore = (*Store)(nil)
)

// NewStore wraps inner.
func NewStore(inner lore.Store, keys *Keyring) *Store { return &Store{Store: inner, Keys: keys} }

// Unwrap returns the wrapped store.
func (s *Store) Unwrap() lore.Store { return s.Store }

func (s *Store) sealMeta(ctx context.Context, tenant string, m map[string]any) (map[string]any, error) {
	if len(m) == 0 {
		return m, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, lore.Errorf(lore.EINVALID, "metadata is not representable as JSON: %v", err)
	}
	v, err := s.Keys.Seal(ctx, tenant, string(b))
	if err != nil {
		return nil, err
	}
	return map[string]any{sealedKey: v}, nil
}

func (s *Store) openMeta(ctx context.Context, tenant string, m map[string]any) (map[string]any, error) {
	v, ok := m[sealedKey].(string)
	if !ok || len(m) != 1 {
		return m, nil
	}
	plain, err := s.Keys.Open(ctx, tenant, v)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(plain), &out); err != nil {
		return nil, fmt.Errorf("crypt: sealed metadata: %w", err)
	}
	return out, nil
}

func (s *Store) openEpisode(ctx context.Context, ep *lore.Episode) error {
	var err error
	if ep.Speaker, err = s.Keys.Open(ctx, ep.Scope.TenantID, ep.Speaker); err != nil {
		return err
	}
	if ep.Content, err = s.Keys.Open(ctx, ep.Scope.TenantID, ep.Content); err != nil {
		return err
	}
	ep.Metadata, err = s.openMeta(ctx, ep.Scope.TenantID, ep.Metadata)
	return err
}

func (s *Store) openFact(ctx context.Context, f *lore.Fact) error {
	var err error
	if f.Subject, err = s.Keys.Open(ctx, f.Scope.TenantID, f.Subject); err != nil {
		return err
	}
	if f.Object, err = s.Keys.Open(ctx, f.Scope.TenantID, f.Object); err != nil {
		return err
	}
	if f.Text, err = s.Keys.Open(ctx, f.Scope.TenantID, f.Text); err != nil {
		return err
	}
	f.Metadata, err = s.openMeta(ctx, f.Scope.TenantID, f.Metadata)
	return err
}

// AddEpisodes seals each episode's content and metadata for the store and
// gives the caller its episodes back in the clear, with the ids and times
// the store assigned.
func (s *Store) AddEpisodes(ctx context.Context, episodes []*lore.Episode) error {
	type clear struct {
		speaker, content string
		meta             map[string]any
	}
	saved := make([]clear, len(episodes))
	for i, ep := range episodes {
		saved[i] = clear{ep.Speaker, ep.Content, ep.Metadata}
		var err error
		if ep.Speaker, err = s.sealSpeaker(ctx, ep.Scope, ep.Speaker); err != nil {
			return err
		}
		if ep.Content, err = s.Keys.Seal(ctx, ep.Scope.TenantID, ep.Content); err != nil {
			return err
		}
		if ep.Metadata, err = s.sealMeta(ctx, ep.Scope.TenantID, ep.Metadata); err != nil {
			return err
		}
	}
	err := s.Store.AddEpisodes(ctx, episodes)
	for i, ep := range episodes {
		ep.Speaker, ep.Content, ep.Metadata = saved[i].speaker, saved[i].content, saved[i].meta
	}
	return err
}

// FindEpisodes opens what the store found.
func (s *Store) FindEpisodes(ctx context.Context, f lore.EpisodeFilter) ([]*lore.Episode, error) {
	eps, err := s.Store.FindEpisodes(ctx, f)
	if err != nil {
		return nil, err
	}
	for _, ep := range eps {
		if err := s.openEpisode(ctx, ep); err != nil {
			return nil, err
		}
	}
	return eps, nil
}

// UpdateEpisode seals the new content and metadata.
func (s *Store) UpdateEpisode(ctx context.Context, scope lore.Scope, id string, upd lore.EpisodeUpdate) (*lore.Episode, error) {
	if err := s.sealUpdate(ctx, scope.TenantID, &upd.Content, &upd.Metadata, &upd.Reason); err != nil {
		return nil, err
	}
	ep, err := s.Store.UpdateEpisode(ctx, scope, id, upd)
	if err != nil {
		return nil, err
	}
	return ep, s.openEpisode(ctx, ep)
}

// sealUpdate seals an update's new text, metadata and reason in place of
// the update's own fields (fresh values: what the caller's pointers point
// to is left as it was).
func (s *Store) sealUpdate(ctx context.Context, tenant string, text **string, meta *map[string]any, reason *string) error {
	if *text != nil {
		v, err := s.Keys.Seal(ctx, tenant, **text)
		if err != nil {
			return err
		}
		*text = &v
	}
	if *meta != nil {
		m, err := s.sealMeta(ctx, tenant, *meta)
		if err != nil {
			return err
		}
		*meta = m
	}
	v, err := s.Keys.Seal(ctx, tenant, *reason)
	if err != nil {
		return err
	}
	*reason = v
	return nil
}

// MergeFact seals the fact's text and metadata for the store; f itself is
// left as the caller gave it.
func (s *Store) MergeFact(ctx context.Context, f *lore.Fact, actor string) (*lore.Fact, lore.EventKind, error) {
	g := *f
	var err error
	if g.Text, err = s.Keys.Seal(ctx, f.Scope.TenantID, f.Text); err != nil {
		return nil, "", err
	}
	if g.Metadata, err = s.sealMeta(ctx, f.Scope.TenantID, f.Metadata); err != nil {
		return nil, "", err
	}
	if err := s.sealTriple(ctx, f.Scope, &g.Subject, g.ObjectID, &g.Object); err != nil {
		return nil, "", err
	}
	if err := s.legacyObject(ctx, f, &g); err != nil {
		return nil, "", err
	}
	out, ev, err := s.Store.MergeFact(ctx, &g, actor)
	if err != nil {
		return nil, "", err
	}
	return out, ev, s.openFact(ctx, out)
}

// FindFacts opens what the store found.
func (s *Store) FindFacts(ctx context.Context, f lore.FactFilter) ([]*lore.Fact, error) {
	facts, err := s.Store.FindFacts(ctx, f)
	if err != nil {
		return nil, err
	}
	for _, fact := range facts {
		if err := s.openFact(ctx, fact); err != nil {
			return nil, err
		}
	}
	return facts, nil
}

// UpdateFact seals the new text, metadata and reason (an invalidation's
// reason quotes the fact that contradicted it).
func (s *Store) UpdateFact(ctx context.Context, scope lore.Scope, id string, upd lore.FactUpdate) (*lore.Fact, error) {
	if err := s.sealUpdate(ctx, scope.TenantID, &upd.Text, &upd.Metadata, &upd.Reason); err != nil {
		return nil, err
	}
	if upd.Triple != nil {
		t := *upd.Triple
		t.Object = strings.TrimSpace(t.Object) // as the stores store a triple's object
		if err := s.sealTriple(ctx, scope, &t.Subject, t.ObjectID, &t.Object); err != nil {
			return nil, err
		}
		upd.Triple = &t
	}
	f, err := s.Store.UpdateFact(ctx, scope, id, upd)
	if err != nil {
		return nil, err
	}
	return f, s.openFact(ctx, f)
}

// Neighborhood opens the facts of the walk.
func (s *Store) Neighborhood(ctx context.Context, q lore.NeighborhoodQuery) ([]lore.GraphHit, error) {
	hits, err := s.Store.Neighborhood(ctx, q)
	if err != nil {
		return nil, err
	}
	for _, h := range hits {
		if h.Fact != nil {
			if err := s.openFact(ctx, h.Fact); err != nil {
				return nil, err
			}
		}
	}
	return hits, nil
}

// History opens the text each event holds.
func (s *Store) History(ctx context.Context, scope lore.Scope, memoryID string) ([]lore.HistoryEvent, error) {
	evs, err := s.Store.History(ctx, scope, memoryID)
	if err != nil {
		return nil, err
	}
	for i := range evs {
		t := evs[i].Scope.TenantID
		if t == "" {
			t = scope.TenantID
		}
		for _, p := range []*string{&evs[i].Before, &evs[i].After, &evs[i].Reason} {
			if *p, err = s.Keys.Open(ctx, t, *p); err != nil {
				return nil, err
			}
		}
	}
	return evs, nil
}

// DeleteScope deletes as the store does and, for a whole tenant, drops the
// tenant's data key too: any copy of its data left elsewhere becomes
// unreadable.
func (s *Store) DeleteScope(ctx context.Context, scope lore.Scope) (lore.DeleteStats, error) {
	st, err := s.Store.DeleteScope(ctx, scope)
	if err != nil {
		return st, err
	}
	if scope.UserID == "" && scope.AgentID == "" && scope.RunID == "" {
		return st, s.Keys.Forget(ctx, scope.TenantID)
	}
	return st, nil
}

// CreateMeta passes through.
func (s *Store) CreateMeta(ctx context.Context, key, value string) (string, error) {
	p, err := port[metaCreator](s)
	if err != nil {
		return "", err
	}
	return p.CreateMeta(ctx, key, value)
}

// Migrate applies the wrapped store's schema when it has one (Neo4j).
func (s *Store) Migrate(ctx context.Context) error {
	if m, ok := s.Store.(interface{ Migrate(context.Context) error }); ok {
		return m.Migrate(ctx)
	}
	return nil
}

// port returns the wrapped store as a T, or an EUNAVAILABLE error.
func port[T any](s *Store) (T, error) {
	p, ok := s.Store.(T)
	if !ok {
		var zero T
		return zero, lore.Errorf(lore.EUNAVAILABLE, "the store under encryption lacks %T", &zero)
	}
	return p, nil
}

// EraseSeq passes through.
func (s *Store) EraseSeq(ctx context.Context, tenantID string) (int64, error) {
	p, err := port[lore.EraseStore](s)
	if err != nil {
		return 0, err
	}
	return p.EraseSeq(ctx, tenantID)
}

// Erased passes through.
func (s *Store) Erased(ctx context.Context, scope lore.Scope, seq int64) (bool, error) {
	p, err := port[lore.EraseStore](s)
	if err != nil {
		return false, err
	}
	return p.Erased(ctx, scope, seq)
}

// DeleteMetaPrefix passes through.
func (s *Store) DeleteMetaPrefix(ctx context.Context, prefix string) (int, error) {
	p, err := port[lore.EraseStore](s)
	if err != nil {
		return 0, err
	}
	return p.DeleteMetaPrefix(ctx, prefix)
}

// CreateKey passes through (keys hold hashes only).
func (s *Store) CreateKey(ctx context.Context, k *lore.APIKey) error {
	p, err := port[lore.KeyStore](s)
	if err != nil {
		return err
	}
	return p.CreateKey(ctx, k)
}

// KeyByHash passes through.
func (s *Store) KeyByHash(ctx context.Context, hash string) (*lore.APIKey, error) {
	p, err := port[lore.KeyStore](s)
	if err != nil {
		return nil, err
	}
	return p.KeyByHash(ctx, hash)
}

// ListKeys passes through.
func (s *Store) ListKeys(ctx context.Context, tenantID string) ([]*lore.APIKey, error) {
	p, err := port[lore.KeyStore](s)
	if err != nil {
		return nil, err
	}
	return p.ListKeys(ctx, tenantID)
}

// RevokeKey passes through.
func (s *Store) RevokeKey(ctx context.Context, tenantID, id string, at time.Time) (*lore.APIKey, error) {
	p, err := port[lore.KeyStore](s)
	if err != nil {
		return nil, err
	}
	return p.RevokeKey(ctx, tenantID, id, at)
}

// HasKeys passes through.
func (s *Store) HasKeys(ctx context.Context) (bool, error) {
	p, err := port[lore.KeyStore](s)
	if err != nil {
		return false, err
	}
	return p.HasKeys(ctx)
}

// AppendAudit passes through (records hold no content).
func (s *Store) AppendAudit(ctx context.Context, rec *lore.AuditRecord, sealFn func(prev *lore.AuditRecord)) error {
	p, err := port[lore.AuditStore](s)
	if err != nil {
		return err
	}
	return p.AppendAudit(ctx, rec, sealFn)
}

// ListAudit passes through.
func (s *Store) ListAudit(ctx context.Context, f lore.AuditFilter) ([]*lore.AuditRecord, error) {
	p, err := port[lore.AuditStore](s)
	if err != nil {
		return nil, err
	}
	return p.ListAudit(ctx, f)
}

// AuditSubject passes through.
func (s *Store) AuditSubject(ctx context.Context, tenantID, pseudonym string) (*lore.AuditSubject, error) {
	p, err := port[lore.AuditStore](s)
	if err != nil {
		return nil, err
	}
	return p.AuditSubject(ctx, tenantID, pseudonym)
}

// SweepExpired passes through and opens what it swept (the caller derives
// index ids from an episode's text).
func (s *Store) SweepExpired(ctx context.Context, now time.Time, limit int) (lore.Swept, error) {
	p, err := port[lore.RetentionStore](s)
	if err != nil {
		return lore.Swept{}, err
	}
	sw, err := p.SweepExpired(ctx, now, limit)
	if err != nil {
		return sw, err
	}
	return sw, s.openSwept(ctx, sw)
}

// DropRawText passes through and opens what it cleared.
func (s *Store) DropRawText(ctx context.Context, tenantID string, before time.Time, limit int) (lore.Swept, error) {
	p, err := port[lore.RetentionStore](s)
	if err != nil {
		return lore.Swept{}, err
	}
	sw, err := p.DropRawText(ctx, tenantID, before, limit)
	if err != nil {
		return sw, err
	}
	return sw, s.openSwept(ctx, sw)
}

func (s *Store) openSwept(ctx context.Context, sw lore.Swept) error {
	for _, ep := range sw.Episodes {
		if err := s.openEpisode(ctx, ep); err != nil {
			return err
		}
	}
	for _, f := range sw.Facts {
		if err := s.openFact(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

var _ lore.ErasurePruner = (*Store)(nil)

// PruneErasures passes through (erasures hold ids only).
func (s *Store) PruneErasures(ctx context.Context, before time.Time) (int, error) {
	p, err := port[lore.ErasurePruner](s)
	if err != nil {
		return 0, err
	}
	return p.PruneErasures(ctx, before)
}
