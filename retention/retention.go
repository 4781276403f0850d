// Package retention enforces how long Lore keeps what it stores: memories
// past their expires_at are deleted, and, per tenant, the raw text of
// conversation episodes is dropped after N days while the facts drawn from
// it stay ("extract facts, discard raw text"). Reads never return an
// expired memory even before a sweep (the stores filter them); the Sweeper
// removes them from the store and the index and records each pass in the
// audit log.
package retention

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/ingest"
)

// policiesKey is the setting that holds every tenant's policy, as JSON.
const policiesKey = "retention.policies"

// MaxRawTextDays bounds a policy: about 100 years.
const MaxRawTextDays = 36500

// MaxQueryLogDays bounds how long a query log may keep a search: a year.
const MaxQueryLogDays = 366

// Policies returns every tenant's retention policy.
func Policies(ctx context.Context, meta lore.MetaStore) (map[string]lore.RetentionPolicy, error) {
	raw, err := meta.GetMeta(ctx, policiesKey)
	if lore.ErrorCode(err) == lore.ENOTFOUND {
		return map[string]lore.RetentionPolicy{}, nil
	} else if err != nil {
		return nil, err
	}
	out := map[string]lore.RetentionPolicy{}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("retention: decode policies: %w", err)
	}
	return out, nil
}

// Policy returns a tenant's policy; the zero policy keeps everything.
func Policy(ctx context.Context, meta lore.MetaStore, tenantID string) (lore.RetentionPolicy, error) {
	all, err := Policies(ctx, meta)
	return all[tenantID], err
}

// SetPolicy stores a tenant's policy; RawTextDays and QueryLogDays both 0
// removes it. Two
// processes setting policies at the same moment may lose one of the two
// changes (a read, then a write): set them from one place.
func SetPolicy(ctx context.Context, meta lore.MetaStore, tenantID string, p lore.RetentionPolicy) error {
	if p.RawTextDays < 0 || p.RawTextDays > MaxRawTextDays {
		return lore.Errorf(lore.EINVALID, "raw_text_days must be between 0 (keep) and %d, got %d", MaxRawTextDays, p.RawTextDays)
	}
	if p.QueryLogDays < 0 || p.QueryLogDays > MaxQueryLogDays {
		return lore.Errorf(lore.EINVALID, "query_log_days must be between 0 (keep no queries) and %d, got %d", MaxQueryLogDays, p.QueryLogDays)
	}
	all, err := Policies(ctx, meta)
	if err != nil {
		return err
	}
	if p.RawTextDays == 0 && p.QueryLogDays == 0 {
		delete(all, tenantID)
	} else {
		all[tenantID] = p
	}
	b, err := json.Marshal(all)
	if err != nil {
		return err
	}
	return meta.SetMeta(ctx, policiesKey, string(b))
}

// Sweeper deletes expired memories and drops raw text past each tenant's
// policy, from the store and the index, and audits every pass that changed
// something.
type Sweeper struct {
	Store lore.RetentionStore
	Meta  lore.MetaStore
	Index lore.Index
	// QueryLog, when set, has its expired entries purged on every pass,
	// and each tenant's older than its policy's QueryLogDays.
	QueryLog lore.QueryLogStore
	Audit    *audit.Log // nil: not audited
	// Now is the sweeper's clock; nil means time.Now. Tests inject one.
	Now    func() time.Time
	Batch  int          // memories per store call; 0 means 500
	Logger *slog.Logger // nil: slog.Default()
	// Erasures, when set, has each pass prune the records of erases older
	// than ErasureHorizon (0 means lore.ErasureHorizon; less than
	// lore.FenceMaxAge is refused, since a fenced writer may still need
	// them).
	Erasures       lore.ErasurePruner
	ErasureHorizon time.Duration
}

// Report counts what one pass did, per tenant, and the erasure records it
// pruned (of every tenant).
type Report struct {
	Tenants        map[string]*Counts `json:"tenants"`
	ErasuresPruned int                `json:"erasures_pruned"`
	// QueryLogExpired counts the logged queries purged at their own
	// expiry, in every tenant (the store does not say whose).
	QueryLogExpired int `json:"query_log_expired"`
}

// Counts is what a pass removed in one tenant.
type Counts struct {
	Episodes int `json:"episodes"`  // expired episodes deleted
	Facts    int `json:"facts"`     // expired facts deleted
	RawText  int `json:"raw_text"`  // episodes whose raw text was dropped
	IndexDel int `json:"index_del"` // index documents deleted
	QueryLog int `json:"query_log"` // logged queries purged
}

func (s *Sweeper) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Sweeper) batch() int {
	if s.Batch > 0 {
		return s.Batch
	}
	return 500
}

func (s *Sweeper) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func (r *Report) tenant(id string) *Counts {
	if r.Tenants == nil {
		r.Tenants = map[string]*Counts{}
	}
	c := r.Tenants[id]
	if c == nil {
		c = &Counts{}
		r.Tenants[id] = c
	}
	return c
}

// Sweep runs one pass: expired memories first, then raw text by policy,
// batch after batch until nothing is left; then one audit record per
// tenant it changed.
func (s *Sweeper) Sweep(ctx context.Context) (*Report, error) {
	rep := &Report{Tenants: map[string]*Counts{}}
	now := s.now()
	ctx = lore.WithOutboxTag(ctx, lore.NewOutboxTag())
	for {
		swept, err := s.Store.SweepExpired(ctx, now, s.batch())
		if err != nil {
			return rep, s.finish(ctx, rep, err)
		}
		if err := s.unindex(ctx, rep, swept, false); err != nil {
			return rep, s.finish(ctx, rep, err)
		}
		if len(swept.Episodes)+len(swept.Facts) == 0 {
			break
		}
	}
	policies, err := Policies(ctx, s.Meta)
	if err != nil {
		return rep, s.finish(ctx, rep, err)
	}
	tenants := make([]string, 0, len(policies))
	for t := range policies {
		tenants = append(tenants, t)
	}
	slices.Sort(tenants)
	for _, t := range tenants {
		before := now.Add(-time.Duration(policies[t].RawTextDays) * 24 * time.Hour)
		for {
			swept, err := s.Store.DropRawText(ctx, t, before, s.batch())
			if err != nil {
				return rep, s.finish(ctx, rep, err)
			}
			if err := s.unindex(ctx, rep, swept, true); err != nil {
				return rep, s.finish(ctx, rep, err)
			}
			if len(swept.Episodes) == 0 {
				break
			}
		}
	}
	if err := s.pruneErasures(ctx, rep, now); err != nil {
		return rep, s.finish(ctx, rep, err)
	}
	if err := s.purgeQueryLog(ctx, rep, now, tenants, policies); err != nil {
		return rep, s.finish(ctx, rep, err)
	}
	return rep, s.finish(ctx, rep, nil)
}

// pruneErasures removes the records of erases older than the horizon. They
// hold ids, never content, but they name who was erased; past the horizon
// no writer that they could refuse is still running (lore.FenceMaxAge).
func (s *Sweeper) pruneErasures(ctx context.Context, rep *Report, now time.Time) error {
	if s.Erasures == nil {
		return nil
	}
	horizon := s.ErasureHorizon
	if horizon == 0 {
		horizon = lore.ErasureHorizon
	}
	if horizon < lore.FenceMaxAge {
		return lore.Errorf(lore.EINVALID, "the erasure horizon %v is shorter than lore.FenceMaxAge (%v)", horizon, lore.FenceMaxAge)
	}
	n, err := s.Erasures.PruneErasures(ctx, now.Add(-horizon))
	if err != nil {
		return fmt.Errorf("retention: prune erasures: %w", err)
	}
	rep.ErasuresPruned += n
	if n > 0 {
		s.logger().InfoContext(ctx, "retention pass: erasure records pruned", slog.Int("erasures", n), slog.Duration("horizon", horizon))
	}
	return nil
}

// purgeQueryLog deletes the logged queries that expired, and those of each
// tenant with a policy older than its QueryLogDays (all of them when it is
// 0: a policy turned off keeps none). A tenant with no policy at all logs
// nothing; what it logged before goes at each entry's own expiry.
func (s *Sweeper) purgeQueryLog(ctx context.Context, rep *Report, now time.Time, tenants []string, policies map[string]lore.RetentionPolicy) error {
	if s.QueryLog == nil {
		return nil
	}
	n, err := s.QueryLog.PurgeQueryLog(ctx, now, "", time.Time{})
	if err != nil {
		return fmt.Errorf("retention: purge query log: %w", err)
	}
	rep.QueryLogExpired += n
	for _, t := range tenants {
		before := now.Add(-time.Duration(policies[t].QueryLogDays) * 24 * time.Hour)
		n, err := s.QueryLog.PurgeQueryLog(ctx, now, t, before)
		if err != nil {
			return fmt.Errorf("retention: purge query log: %w", err)
		}
		if n > 0 {
			rep.tenant(t).QueryLog += n
		}
	}
	return nil
}

// unindex deletes the index documents of what a store call removed and
// counts it.
func (s *Sweeper) unindex(ctx context.Context, rep *Report, sw lore.Swept, rawText bool) error {
	ids := map[lore.Scope][]string{}
	for _, ep := range sw.Episodes {
		c := rep.tenant(ep.Scope.TenantID)
		if rawText {
			c.RawText++
		} else {
			c.Episodes++
		}
		ids[ep.Scope] = append(ids[ep.Scope], ingest.EpisodeDocIDs(ep)...)
	}
	for _, f := range sw.Facts {
		rep.tenant(f.Scope.TenantID).Facts++
		ids[f.Scope] = append(ids[f.Scope], f.ID)
	}
	if s.Index == nil {
		return nil
	}
	for sc, list := range ids {
		if err := s.Index.Delete(ctx, sc, list); err != nil {
			return fmt.Errorf("retention: delete index documents: %w", err)
		}
		// The store's outbox entries of the sweep are done.
		if err := lore.AckIndexed(ctx, s.Store, list); err != nil {
			return fmt.Errorf("retention: %w", err)
		}
		rep.tenant(sc.TenantID).IndexDel += len(list)
	}
	return nil
}

// finish audits the pass, one record per tenant changed, with err's
// outcome.
func (s *Sweeper) finish(ctx context.Context, rep *Report, err error) error {
	tenants := make([]string, 0, len(rep.Tenants))
	for t := range rep.Tenants {
		tenants = append(tenants, t)
	}
	slices.Sort(tenants)
	outcome := lore.AuditOK
	if err != nil {
		outcome = lore.AuditFailed
	}
	for _, t := range tenants {
		c := rep.Tenants[t]
		_, _ = s.Audit.Record(ctx, audit.Event{TenantID: t, Action: lore.AuditRetention, Actor: "system", Outcome: outcome,
			Detail: map[string]string{"episodes": strconv.Itoa(c.Episodes), "facts": strconv.Itoa(c.Facts),
				"raw_text": strconv.Itoa(c.RawText), "index_documents": strconv.Itoa(c.IndexDel),
				"query_log": strconv.Itoa(c.QueryLog)}})
		s.logger().InfoContext(ctx, "retention pass", slog.String("tenant", t), slog.Int("episodes", c.Episodes),
			slog.Int("facts", c.Facts), slog.Int("raw_text", c.RawText))
	}
	return err
}

// Run sweeps every interval until ctx ends. A failed pass is logged and
// retried at the next tick.
func (s *Sweeper) Run(ctx context.Context, interval time.Duration) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.logger().ErrorContext(ctx, "retention pass failed", slog.String("error", err.Error()))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}
