package lore

import (
	"context"
	"time"
)

// ScopeSummary is one user, agent or run of a tenant, as the mem0-compatible
// entity listing shows it: the scope that holds memories and when they were
// stored.
type ScopeSummary struct {
	Scope Scope
	// Memories counts the episodes and facts stored under exactly Scope.
	Memories int
	FirstAt  time.Time // the earliest CreatedAt among them
	LastAt   time.Time // the latest UpdatedAt among them
}

// Directory answers the two tenant-wide questions that a mem0 client asks
// and that a scoped read cannot: whose memory an id is, and which users,
// agents and runs hold memories. Implementations: graph/sqlite and
// graph/neo4j; storetest.RunDirectory covers both. Callers must still read
// the memory itself through a scoped read with the scope returned.
type Directory interface {
	// ScopeOf returns the scope of the fact or episode with that id in the
	// tenant, or, for a deleted one, the scope its history was recorded
	// under. An id the tenant does not know is ENOTFOUND.
	ScopeOf(ctx context.Context, tenantID, id string) (Scope, error)
	// Scopes returns the distinct scopes (user, agent, run) under which the
	// tenant holds episodes or facts, ordered by user, agent and run, at
	// most limit of them.
	Scopes(ctx context.Context, tenantID string, limit int) ([]ScopeSummary, error)
}

// QueueCounter counts unfinished jobs, for the queue-depth gauge of
// /metrics. Implementations: graph/sqlite and graph/neo4j;
// storetest.RunDirectory covers both.
type QueueCounter interface {
	// CountJobs returns how many of the tenant's jobs (every tenant's for
	// "") are queued, running and retrying, by state; states with none are
	// absent.
	CountJobs(ctx context.Context, tenantID string) (map[JobStatus]int, error)
}
