package lore

import (
	"context"
	"time"
)

// RetentionPolicy is a tenant's retention setting: RawTextDays > 0 keeps
// the raw text of conversation episodes (those facts are extracted from)
// for that many days after Lore stored them, then drops it and keeps the
// facts, as "extract facts, discard raw text" asks. Verbatim memories
// (infer:false) are memories in their own right and keep their text; they
// end only with their ExpiresAt.
//
// QueryLogDays > 0 keeps the tenant's searches in their users' query logs
// (QueryLogStore) for that many days, for the LLM's batch profile
// inference; 0, the default, keeps none.
type RetentionPolicy struct {
	RawTextDays  int `json:"raw_text_days"`
	QueryLogDays int `json:"query_log_days"`
}

// Swept is what one retention pass removed: the episodes and facts as they
// were before (so the caller can delete their index documents), never
// returned to a client or logged.
type Swept struct {
	Episodes []*Episode
	Facts    []*Fact
}

// RetentionStore is the part of the primary store that enforces retention.
// Implementations: graph/sqlite and graph/neo4j; storetest's Retention
// tests cover both. Stores never return an episode or fact whose ExpiresAt
// is at or before their clock's now from any read (FindEpisodes, FindFacts,
// Neighborhood), whether or not a sweep has removed it yet.
type RetentionStore interface {
	// SweepExpired deletes up to limit episodes and facts whose ExpiresAt
	// is at or before now, with their history, and returns them.
	SweepExpired(ctx context.Context, now time.Time, limit int) (Swept, error)
	// DropRawText clears the content of up to limit of the tenant's
	// non-verbatim episodes stored before before, and the text their
	// history events hold, and returns them as they were.
	DropRawText(ctx context.Context, tenantID string, before time.Time, limit int) (Swept, error)
}

// ExpiryOf returns when facts drawn from eps stop being returned: the
// latest ExpiresAt of the episodes, or nil (never) when any of them has
// none.
func ExpiryOf(eps []*Episode) *time.Time {
	var out *time.Time
	for _, ep := range eps {
		if ep.ExpiresAt == nil {
			return nil
		}
		if out == nil || ep.ExpiresAt.After(*out) {
			out = ep.ExpiresAt
		}
	}
	return out
}
