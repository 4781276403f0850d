package lore

import "time"

// EpisodeFilter selects episodes. Zero fields do not filter. Results are
// ordered by OccurredAt, then CreatedAt, ascending.
type EpisodeFilter struct {
	Scope     Scope
	IDs       []string
	SourceIDs []string
	Since     *time.Time // OccurredAt >= Since
	Until     *time.Time // OccurredAt < Until
	Limit     int        // 0 means no limit
	Offset    int
}

// EpisodeUpdate changes an episode. Nil fields are left alone.
type EpisodeUpdate struct {
	Content  *string
	Metadata map[string]any // replaces the metadata when non-nil
	Actor    string
	Reason   string
}

// EntityFilter selects entities of a namespace. Results are ordered by
// Mentions descending, then Name.
type EntityFilter struct {
	Scope Scope
	IDs   []string
	// Names matches entities whose normalized name or any alias equals one of
	// these (after NormalizeName).
	Names  []string
	Limit  int
	Offset int
}

// FactFilter selects facts. Zero fields do not filter. Unless
// IncludeInvalidated is set, only current facts (neither invalidated nor
// expired) are returned. Results are ordered by LastSeen descending, then ID.
type FactFilter struct {
	Scope              Scope
	IDs                []string
	SubjectID          string
	ObjectID           string
	EntityID           string // subject or object
	Predicate          string
	IncludeInvalidated bool
	// Since and Until select facts whose [FirstSeen, LastSeen] overlaps the
	// range: LastSeen >= Since and FirstSeen < Until.
	Since  *time.Time
	Until  *time.Time
	Limit  int
	Offset int
}

// FactUpdate changes a fact and records one history event of kind Event
// (EventUpdate when empty). Nil fields are left alone.
type FactUpdate struct {
	// Triple, when non-nil, replaces what the fact states. Stores check
	// that both ends are entities of the fact's namespace (EINVALID
	// otherwise), re-derive its deduplication key from the new triple and
	// move its graph edges; when another current fact already states the
	// new triple they refuse with ECONFLICT naming it, so that no two
	// current facts ever share a key.
	Triple     *Triple
	Text       *string
	Confidence *float64
	InvalidAt  *time.Time
	ExpiredAt  *time.Time
	Metadata   map[string]any // replaces the metadata when non-nil
	// AddSources are episode ids added to the fact's sources: the turn
	// that ended it ("I got fired from Blue Bottle") is where the fact's
	// story last changed, and retrieval reads it there.
	AddSources []string
	Event      EventKind
	Actor      string
	Reason     string
}

// Triple is what a fact states: its subject, predicate and object.
type Triple struct {
	SubjectID string
	Subject   string // the subject entity's name; the store's when empty
	Predicate string // normalized by the store
	// ObjectID is the object entity's id, or "" when the object is the
	// literal Object.
	ObjectID string
	Object   string // the object entity's name (the store's when empty) or the literal
}

// NeighborhoodQuery asks for the facts within MaxHops of the seed entities.
// A fact touching a seed is one hop away; a fact touching the other end of a
// one-hop fact is two hops away.
type NeighborhoodQuery struct {
	Scope              Scope
	SeedIDs            []string
	MaxHops            int // 1 or 2
	Limit              int
	IncludeInvalidated bool
}

// GraphHit is a fact reached by a graph walk.
type GraphHit struct {
	Fact   *Fact
	Hops   int
	SeedID string // the seed entity the walk started from
}

// DeleteStats counts what DeleteScope removed.
type DeleteStats struct {
	Episodes int `json:"episodes"`
	Entities int `json:"entities"`
	Facts    int `json:"facts"`
	Jobs     int `json:"jobs"`
}

// ClaimRequest asks a JobQueue for the next due job.
type ClaimRequest struct {
	Now   time.Time
	Lease time.Duration // the job is claimable again after Now+Lease unless saved
	// SkipTenants are tenants at their concurrency limit.
	SkipTenants []string
	// Owner is the claiming process's instance id, stored on the job so
	// that the same process, restarted after a crash, can take its jobs
	// back at once (JobLeases.ReleaseJobs) instead of waiting out the lease.
	Owner string
	// MaxPerTenant, when positive, skips tenants that already have that
	// many running jobs under unexpired leases, whichever process runs
	// them: the store enforces the per-tenant limit across processes.
	MaxPerTenant int
}
