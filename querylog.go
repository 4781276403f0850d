package lore

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxLoggedQuery bounds the bytes of one logged query as a store receives
// it: twice the API's 4 KiB query bound, so a query sealed by the
// encryption layer (crypt) still fits.
const MaxLoggedQuery = 8 << 10

// QueryLogEntry is one search query kept in a user's query log (issue 13):
// kept only when the tenant's retention policy says so
// (RetentionPolicy.QueryLogDays; by default nothing is kept), for the LLM's
// batch profile inference, and deleted when it expires. Hash is the query's
// QueryEvidence, the reference the profile entries inferred from it carry.
type QueryLogEntry struct {
	ID         string     `json:"id"`
	Query      string     `json:"query"`
	Hash       string     `json:"hash"`
	CreatedAt  time.Time  `json:"created_at"`
	ExpiresAt  time.Time  `json:"expires_at"`
	InferredAt *time.Time `json:"inferred_at,omitempty"` // when batch inference read it
}

// Validate checks e and puts it in stored form: query trimmed, hash
// computed when empty, times in UTC. It returns EINVALID naming the bad
// field.
func (e *QueryLogEntry) Validate() error {
	if err := ValidateID("query log id", e.ID); err != nil {
		return err
	}
	e.Query = strings.TrimSpace(e.Query)
	switch {
	case e.Query == "":
		return Errorf(EINVALID, "a logged query needs its text")
	case len(e.Query) > MaxLoggedQuery:
		return Errorf(EINVALID, "a logged query is longer than %d bytes", MaxLoggedQuery)
	case !utf8.ValidString(e.Query):
		return Errorf(EINVALID, "a logged query is not valid UTF-8")
	case e.CreatedAt.IsZero() || !e.ExpiresAt.After(e.CreatedAt):
		return Errorf(EINVALID, "a logged query needs created_at before expires_at")
	}
	if e.Hash == "" {
		e.Hash = QueryEvidence(e.Query)
	}
	e.CreatedAt, e.ExpiresAt = e.CreatedAt.UTC(), e.ExpiresAt.UTC()
	if e.InferredAt != nil {
		t := e.InferredAt.UTC()
		e.InferredAt = &t
	}
	return nil
}

// QueryLogFilter selects a user's logged queries.
type QueryLogFilter struct {
	Now     time.Time // entries expired at Now are never returned
	Pending bool      // only those batch inference has not read
	Limit   int       // 0: all
}

// QueryLogStore keeps users' query logs. Implementations: graph/sqlite and
// graph/neo4j; storetest.RunQueryLog covers both. Like a profile, a log
// belongs to a user (scope must name one; only tenant and user are used),
// GraphStore.DeleteScope erases it with the user, and export includes it.
type QueryLogStore interface {
	// AppendQueryLog stores e (validated) in the user's log.
	AppendQueryLog(ctx context.Context, scope Scope, e QueryLogEntry) error
	// QueryLog returns the user's entries that f selects, oldest first.
	QueryLog(ctx context.Context, scope Scope, f QueryLogFilter) ([]QueryLogEntry, error)
	// MarkQueryLogInferred records that batch inference read the entries
	// ids; unknown ids are ignored.
	MarkQueryLogInferred(ctx context.Context, scope Scope, ids []string, at time.Time) error
	// PurgeQueryLog deletes every entry that expired at or before now and,
	// when tenantID is set, the tenant's entries created before before (a
	// shortened policy), and returns how many went.
	PurgeQueryLog(ctx context.Context, now time.Time, tenantID string, before time.Time) (int, error)
}

// TenantProfiles reads the profiles of a tenant's users at once: the
// attributes cohort priors group users by (retrieve.AttributeSource).
// Implementations: graph/sqlite and graph/neo4j.
type TenantProfiles interface {
	// TenantProfileEntries returns the current entries of every user of
	// the tenant, by user id.
	TenantProfileEntries(ctx context.Context, tenantID string) (map[string][]ProfileEntry, error)
}

// QuerySignal is what batch inference read in a user's logged queries: a
// profile key and value, how sure, and which of the queries it was given
// (indexes) show it.
type QuerySignal struct {
	Key        string  `json:"key"`
	Value      string  `json:"value"`
	Confidence float64 `json:"confidence"`
	Queries    []int   `json:"queries"`
}
