package neo4j

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/lore-memory/lore"
)

var (
	_ lore.Outbox       = (*Store)(nil)
	_ lore.TenantLister = (*Store)(nil)
)

// outboxSeq returns a random positive base for the ids of one write's
// outbox entries, with room for 2^20 of them in order: a counter would put
// every write of every tenant behind one lock. Entries are taken in
// creation order, then by seq.
func outboxSeq() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return int64(binary.BigEndian.Uint64(b[:])>>1) &^ (1<<20 - 1)
}

// outbox records entries in r's transaction, the one of the change they
// follow (see lore.Outbox). They wait lore.OutboxGrace for the change's own
// index write to acknowledge them.
func (r txRunner) outbox(entries ...lore.OutboxEntry) error {
	if len(entries) == 0 {
		return nil
	}
	now := r.s.now().UTC()
	tag := lore.OutboxTag(r.ctx)
	rows := make([]map[string]any, len(entries))
	base := outboxSeq()
	for i, e := range entries {
		docs := e.DocIDs
		if docs == nil {
			docs = []string{}
		}
		rows[i] = map[string]any{
			"seq": base + int64(i), "tenant_id": e.Scope.TenantID, "user_id": e.Scope.UserID, "agent_id": e.Scope.AgentID,
			"run_id": e.Scope.RunID, "kind": string(e.Kind), "memory_id": e.MemoryID, "doc_ids": docs, "tag": tag,
			"attempts": int64(0), "next_at": now.Add(lore.OutboxGrace), "last_error": "", "created_at": now,
		}
	}
	_, err := r.run("AddOutbox", shape{}, map[string]any{"entries": rows})
	return err
}

// episodeOutbox reads, in r's transaction, what the outbox entries of a
// change to episode id need (see OutboxEpisode.cypher) and returns them;
// none when the scope holds no such episode (the change then fails).
func (r txRunner) episodeOutbox(scope lore.Scope, id string) ([]lore.OutboxEntry, error) {
	params := scopeParams(scope)
	params["id"] = id
	recs, err := r.run("OutboxEpisode", scopeShape(scope), params)
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	p := props(recs[0].AsMap())
	sc := p.scope()
	out := []lore.OutboxEntry{{Scope: sc, Kind: lore.KindEpisode, MemoryID: id, DocIDs: lore.EpisodeDocIDs(id, p.str("content"))}}
	for _, next := range p.strs("next") {
		if len(out) == 1 || out[1].MemoryID != next {
			out = append(out, lore.OutboxEntry{Scope: sc, Kind: lore.KindEpisode, MemoryID: next})
		}
	}
	return out, nil
}

// factOutbox reads, in r's transaction, the outbox entries of a change to
// fact id that alters its sentence: the fact's and its source episodes'.
func (r txRunner) factOutbox(scope lore.Scope, id string) ([]lore.OutboxEntry, error) {
	params := scopeParams(scope)
	params["id"] = id
	recs, err := r.run("OutboxFact", scopeShape(scope), params)
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	p := props(recs[0].AsMap())
	sc := p.scope()
	out := []lore.OutboxEntry{{Scope: sc, Kind: lore.KindFact, MemoryID: id}}
	for _, ep := range p.strs("sources") {
		out = append(out, lore.OutboxEntry{Scope: sc, Kind: lore.KindEpisode, MemoryID: ep})
	}
	return out, nil
}

// episodeEntries are the outbox entries of episodes added, swept or
// stripped of their text.
func episodeEntries(eps []*lore.Episode) []lore.OutboxEntry {
	out := make([]lore.OutboxEntry, len(eps))
	for i, ep := range eps {
		out[i] = lore.OutboxEntry{Scope: ep.Scope, Kind: lore.KindEpisode, MemoryID: ep.ID, DocIDs: lore.EpisodeDocIDs(ep.ID, ep.Content)}
	}
	return out
}

// ClaimOutbox implements lore.Outbox.
func (s *Store) ClaimOutbox(ctx context.Context, tenantID string, now time.Time, lease time.Duration, limit int) ([]lore.OutboxEntry, error) {
	if limit <= 0 {
		return nil, lore.Errorf(lore.EINVALID, "limit must be positive, got %d", limit)
	}
	params := map[string]any{"tenant_id": tenantID, "now": now.UTC(), "next": now.Add(lease).UTC(), "limit": int64(limit)}
	return write(lore.WithoutFence(ctx), s, "claim outbox", func(r txRunner) ([]lore.OutboxEntry, error) {
		recs, err := r.run("ClaimOutbox", shape{}, params)
		if err != nil {
			return nil, err
		}
		out := make([]lore.OutboxEntry, 0, len(recs))
		for _, rec := range recs {
			v, _ := rec.Get("o")
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("ClaimOutbox: o is %T, want a map", v)
			}
			p := props(m)
			seq, _ := p["seq"].(int64)
			e := lore.OutboxEntry{
				Seq: seq, Scope: p.scope(), Kind: lore.DocKind(p.str("kind")), MemoryID: p.str("memory_id"),
				Tag: p.str("tag"), Attempts: p.int("attempts"), NextAt: p.time("next_at"),
				LastError: p.str("last_error"), CreatedAt: p.time("created_at"),
			}
			if docs := p.strs("doc_ids"); len(docs) > 0 {
				e.DocIDs = docs
			}
			out = append(out, e)
		}
		return out, nil
	})
}

// DoneOutbox implements lore.Outbox.
func (s *Store) DoneOutbox(ctx context.Context, seqs []int64) error {
	if len(seqs) == 0 {
		return nil
	}
	_, err := write(lore.WithoutFence(ctx), s, "done outbox", func(r txRunner) (struct{}, error) {
		_, err := r.run("DoneOutbox", shape{}, map[string]any{"seqs": seqs})
		return struct{}{}, err
	})
	return err
}

// FailOutbox implements lore.Outbox.
func (s *Store) FailOutbox(ctx context.Context, seq int64, next time.Time, msg string) error {
	_, err := write(lore.WithoutFence(ctx), s, "fail outbox", func(r txRunner) (struct{}, error) {
		_, err := r.run("FailOutbox", shape{}, map[string]any{"seq": seq, "next": next.UTC(), "msg": msg})
		return struct{}{}, err
	})
	return err
}

// AckOutbox implements lore.Outbox.
func (s *Store) AckOutbox(ctx context.Context, tag string, memoryIDs []string) error {
	if tag == "" || len(memoryIDs) == 0 {
		return nil
	}
	_, err := write(lore.WithoutFence(ctx), s, "ack outbox", func(r txRunner) (struct{}, error) {
		_, err := r.run("AckOutbox", shape{}, map[string]any{"tag": tag, "ids": memoryIDs})
		return struct{}{}, err
	})
	return err
}

// PendingOutbox implements lore.Outbox.
func (s *Store) PendingOutbox(ctx context.Context, tenantID string) (int, error) {
	return read(ctx, s, "pending outbox", func(r txRunner) (int, error) {
		recs, err := r.run("PendingOutbox", shape{}, map[string]any{"tenant_id": tenantID})
		if err != nil {
			return 0, err
		}
		n, _ := recs[0].Get("n")
		c, _ := n.(int64)
		return int(c), nil
	})
}

// Tenants implements lore.TenantLister.
func (s *Store) Tenants(ctx context.Context) ([]string, error) {
	return read(ctx, s, "tenants", func(r txRunner) ([]string, error) {
		recs, err := r.run("Tenants", shape{}, nil)
		if err != nil {
			return nil, err
		}
		out := make([]string, 0, len(recs))
		for _, rec := range recs {
			v, _ := rec.Get("tenant_id")
			if t, ok := v.(string); ok {
				out = append(out, t)
			}
		}
		return out, nil
	})
}

// factUpdated records the outbox entries of an update of f: the fact's,
// and, when its sentence may have changed, its source episodes'.
func (r txRunner) factUpdated(f *lore.Fact, text bool, added []string) error {
	entries := []lore.OutboxEntry{{Scope: f.Scope, Kind: lore.KindFact, MemoryID: f.ID}}
	for _, ep := range f.SourceEpisodeIDs {
		// The episodes' documents quote the sentence: all of them when it
		// changed, else a new source's.
		if text || slices.Contains(added, ep) {
			entries = append(entries, lore.OutboxEntry{Scope: f.Scope, Kind: lore.KindEpisode, MemoryID: ep})
		}
	}
	return r.outbox(entries...)
}
