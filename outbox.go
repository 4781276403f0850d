package lore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"
)

// KindScope marks an outbox entry that removes every index document of its
// scope (an erase).
const KindScope DocKind = "scope"

// OutboxGrace is how long a new outbox entry waits before a worker may take
// it: the write that recorded it normally updates the index itself and
// acknowledges it (AckOutbox) well within that time.
const OutboxGrace = 10 * time.Second

// OutboxEntry records, in the same store transaction as a change, that the
// index documents of one memory (or, for KindScope, of a whole scope) must
// be brought in line with the store. It names the memory, not the new
// text: whoever applies it reads the memory as the store holds it then,
// so applying an entry twice, late or out of order is harmless, and an
// entry of a memory deleted or erased since only deletes documents.
type OutboxEntry struct {
	Seq      int64
	Scope    Scope
	Kind     DocKind // KindFact, KindEpisode or KindScope
	MemoryID string  // empty for KindScope
	// DocIDs are index documents the memory had before the change (an
	// episode's passages); those it no longer has are deleted.
	DocIDs    []string
	Tag       string // OutboxTag of the write that recorded it
	Attempts  int
	NextAt    time.Time // not taken before
	LastError string
	CreatedAt time.Time
}

// Outbox is the store's queue of pending index changes. Stores that
// implement it record an entry for every change of an episode or fact (add,
// merge, update, delete, expiry, raw-text drop) and for every DeleteScope,
// in the change's own transaction. Implementations: graph/sqlite and
// graph/neo4j; storetest.RunOutbox covers both.
type Outbox interface {
	// ClaimOutbox returns up to limit entries of a tenant ("" for any)
	// with NextAt <= now, oldest first, after moving each one's NextAt to
	// now+lease and counting an attempt, so that another worker does not
	// take them meanwhile.
	ClaimOutbox(ctx context.Context, tenantID string, now time.Time, lease time.Duration, limit int) ([]OutboxEntry, error)
	// DoneOutbox deletes entries by Seq; unknown ones are ignored.
	DoneOutbox(ctx context.Context, seqs []int64) error
	// FailOutbox records why an entry failed and when to try it again.
	FailOutbox(ctx context.Context, seq int64, next time.Time, msg string) error
	// AckOutbox deletes the entries recorded under tag for these memory
	// ids ("" for a KindScope entry): the write that recorded them has
	// brought the index up to date itself. An empty tag acknowledges
	// nothing.
	AckOutbox(ctx context.Context, tag string, memoryIDs []string) error
	// PendingOutbox counts the entries of a tenant ("" for all).
	PendingOutbox(ctx context.Context, tenantID string) (int, error)
}

type outboxTagKey struct{}

// WithOutboxTag returns a context under which store writes tag their outbox
// entries, so that the same operation can acknowledge them once it has
// updated the index.
func WithOutboxTag(ctx context.Context, tag string) context.Context {
	return context.WithValue(ctx, outboxTagKey{}, tag)
}

// OutboxTag returns the context's outbox tag, or "".
func OutboxTag(ctx context.Context) string {
	t, _ := ctx.Value(outboxTagKey{}).(string)
	return t
}

// NewOutboxTag returns a random tag for WithOutboxTag.
func NewOutboxTag() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// OutboxMemoryID returns the memory an index document belongs to: the
// episode of a passage, otherwise the document id itself.
func OutboxMemoryID(docID string) string {
	if ep, _, ok := ParsePassageID(docID); ok {
		return ep
	}
	return docID
}

// EpisodeDocIDs returns every index document id an episode with this
// content has: its own and, for a long one, its passages'.
func EpisodeDocIDs(id, content string) []string {
	ids := []string{id}
	for _, p := range Passages(content) {
		ids = append(ids, PassageID(id, p.Index))
	}
	return ids
}

// IndexLister reads back what an index holds, for `lore doctor`.
// Implementations: graph/sqlite and index/weaviate.
type IndexLister interface {
	// ListDocs returns up to limit of the documents the scope contains
	// (a scope naming a tenant alone: all of the tenant's), with Text,
	// Vector and Time, in an order the index chooses, starting at cursor
	// ("" for the first page), and the cursor of the next page, "" after
	// the last.
	ListDocs(ctx context.Context, scope Scope, cursor string, limit int) (docs []IndexDoc, next string, err error)
}

// TenantLister lists the tenants that hold memories, for `lore doctor
// --all`. Implementations: graph/sqlite and graph/neo4j.
type TenantLister interface {
	// Tenants returns the distinct tenant ids of stored episodes and
	// facts, sorted.
	Tenants(ctx context.Context) ([]string, error)
}

// AckIndexed acknowledges (AckOutbox), when store is an Outbox and ctx
// carries a tag, the entries that ctx's writes recorded for the memories
// of the index documents docIDs, once those documents are written or
// deleted.
func AckIndexed(ctx context.Context, store any, docIDs []string) error {
	ob, ok := store.(Outbox)
	tag := OutboxTag(ctx)
	if !ok || tag == "" || len(docIDs) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(docIDs))
	ids := make([]string, 0, len(docIDs))
	for _, d := range docIDs {
		if m := OutboxMemoryID(d); !seen[m] {
			seen[m] = true
			ids = append(ids, m)
		}
	}
	return ob.AckOutbox(ctx, tag, ids)
}

type outboxAckKey struct{}

// WithOutboxAck returns a context under which an index that lives in the
// store (the embedded one) deletes, in the transaction of its write, the
// outbox entries of ctx's tag for these memory ids: their documents are
// all in that write or written before. AckOutbox afterwards then finds
// nothing to do.
func WithOutboxAck(ctx context.Context, memoryIDs []string) context.Context {
	return context.WithValue(ctx, outboxAckKey{}, memoryIDs)
}

// OutboxAck returns the tag and memory ids of WithOutboxAck, or "" and nil.
func OutboxAck(ctx context.Context) (string, []string) {
	ids, _ := ctx.Value(outboxAckKey{}).([]string)
	tag := OutboxTag(ctx)
	if tag == "" || len(ids) == 0 {
		return "", nil
	}
	return tag, ids
}
