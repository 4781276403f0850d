package lore

import "time"

// Episode is one raw input unit: a chat message or a chunk of a document.
// Episodes are stored before anything is extracted from them and are never
// changed by extraction; facts point back to the episodes they came from.
type Episode struct {
	ID         string         `json:"id"`
	Scope      Scope          `json:"scope"`
	Role       string         `json:"role"`           // user, assistant, system, tool, document
	Speaker    string         `json:"name,omitempty"` // the speaker's name, when the caller gives one
	Content    string         `json:"content"`
	OccurredAt time.Time      `json:"occurred_at"` // when it was said (world time), given by the caller
	CreatedAt  time.Time      `json:"created_at"`  // when Lore stored it (system time)
	UpdatedAt  time.Time      `json:"updated_at"`
	SourceID   string         `json:"source_id,omitempty"` // the caller's own id, e.g. "D3:12"
	Metadata   map[string]any `json:"metadata,omitempty"`
	// Verbatim is true for episodes stored with infer:false: they are memories
	// in their own right and no facts are extracted from them.
	Verbatim bool `json:"verbatim,omitempty"`
	// ExpiresAt, when set, is when the episode stops being returned by any
	// read; the retention sweeper deletes it after (RetentionStore).
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// BatchTime is the CreatedAt a store gives the i-th episode of a batch
// stored at now: a microsecond apart, so that episodes said at the same
// moment (a session's turns all dated with the session) still list, and
// neighbour one another, in the order they were given. Stores order
// episodes by occurred_at, then created_at.
func BatchTime(now time.Time, i int) time.Time {
	return now.Truncate(time.Microsecond).Add(time.Duration(i) * time.Microsecond)
}

// Entity is a node of a user's knowledge graph: a person, place, organisation,
// thing or the user themself. Entities belong to a Scope's Namespace.
type Entity struct {
	ID             string    `json:"id"`
	Scope          Scope     `json:"scope"`
	Name           string    `json:"name"`
	NormalizedName string    `json:"normalized_name"`   // NormalizeName(Name); unique within a namespace
	Type           string    `json:"type"`              // person, place, organization, thing, user, ...
	Aliases        []string  `json:"aliases,omitempty"` // normalized alternative names
	Mentions       int       `json:"mentions"`
	FirstSeen      time.Time `json:"first_seen"`
	LastSeen       time.Time `json:"last_seen"`
}

// UserEntityType is the type of the entity that stands for the speaker of
// first-person statements ("I live in Paris").
const UserEntityType = "user"

// Fact is a timestamped subject-predicate-object statement, an edge of the
// knowledge graph. Facts are never silently overwritten: a contradicting fact
// closes the old one (InvalidAt and ExpiredAt set) and both stay queryable.
type Fact struct {
	ID        string `json:"id"`
	Scope     Scope  `json:"scope"`
	SubjectID string `json:"subject_id"`
	Subject   string `json:"subject"`   // the subject entity's name, kept for display
	Predicate string `json:"predicate"` // NormalizePredicate form, e.g. lives_in
	// ObjectID is the object entity's id, or "" when the object is a literal.
	ObjectID string `json:"object_id,omitempty"`
	Object   string `json:"object"` // the object entity's name or the literal value
	Text     string `json:"fact"`   // a short sentence stating the fact

	Confidence float64 `json:"confidence"` // 0..1

	ValidAt   *time.Time `json:"valid_at,omitempty"`   // world time the fact became true
	InvalidAt *time.Time `json:"invalid_at,omitempty"` // world time it stopped being true
	CreatedAt time.Time  `json:"created_at"`           // system time it was first stored
	UpdatedAt time.Time  `json:"updated_at"`
	ExpiredAt *time.Time `json:"expired_at,omitempty"` // system time it was superseded

	Count     int       `json:"count"` // how many times it was stated
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`

	SourceEpisodeIDs []string       `json:"source_episode_ids"`
	Extractor        string         `json:"extractor,omitempty"` // which extractor and prompt version produced it
	Metadata         map[string]any `json:"metadata,omitempty"`
	// ExpiresAt, when set, is when the fact stops being returned by any
	// read (system time; see RetentionStore). A merge keeps the later of
	// two expiries, and none when either has none.
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// Current reports whether the fact has been neither invalidated nor expired
// as of now.
func (f *Fact) Current(now time.Time) bool {
	if f.ExpiredAt != nil && !f.ExpiredAt.After(now) {
		return false
	}
	return f.InvalidAt == nil || f.InvalidAt.After(now)
}

// ObjectKey identifies the object for deduplication: the entity id, or the
// normalized literal.
func (f *Fact) ObjectKey() string {
	if f.ObjectID != "" {
		return "entity:" + f.ObjectID
	}
	return "literal:" + NormalizeName(f.Object)
}

// EventKind names a change in a memory's history, as in mem0's history().
type EventKind string

// History event kinds.
const (
	EventAdd        EventKind = "ADD"
	EventUpdate     EventKind = "UPDATE"
	EventMerge      EventKind = "MERGE"
	EventInvalidate EventKind = "INVALIDATE"
	EventDelete     EventKind = "DELETE"
	EventNone       EventKind = "NONE" // nothing changed; used in ingest results only
)

// HistoryEvent is one change to a fact or an episode. Stores write history in
// the same transaction as the change it records.
type HistoryEvent struct {
	ID       string    `json:"id"`
	MemoryID string    `json:"memory_id"`
	Scope    Scope     `json:"scope"`
	Event    EventKind `json:"event"`
	Before   string    `json:"old_memory,omitempty"`
	After    string    `json:"new_memory,omitempty"`
	Actor    string    `json:"actor,omitempty"` // who made the change: "api", "extractor:rules", ...
	Reason   string    `json:"reason,omitempty"`
	At       time.Time `json:"created_at"`
}

// MemoryEvent reports what an ingestion did to one memory, in mem0's shape.
type MemoryEvent struct {
	ID     string    `json:"id"`
	Memory string    `json:"memory"`
	Event  EventKind `json:"event"`
	Type   DocKind   `json:"type"`
	// InvalidAt is set on a fact stored as no longer true: "I no longer
	// eat meat" adds "user eats meat", ended at the message time, so that
	// as-of searches find it. Without it an agent would read the ADD as
	// news.
	InvalidAt *time.Time `json:"invalid_at,omitempty"`
}

// JobStatus is the state of a background job.
type JobStatus string

// Job states. A job moves queued → running → done, or → retrying → running
// again, or → failed (dead letter) once its attempts are spent.
const (
	JobQueued   JobStatus = "queued"
	JobRunning  JobStatus = "running"
	JobRetrying JobStatus = "retrying"
	JobDone     JobStatus = "done"
	JobFailed   JobStatus = "failed"
)

// Job is durable background work, stored in the primary store so that a crash
// after the API acknowledged a write loses nothing.
type Job struct {
	ID          string        `json:"id"`
	Scope       Scope         `json:"scope"`
	Kind        string        `json:"kind"` // "extract"
	EpisodeIDs  []string      `json:"episode_ids"`
	Status      JobStatus     `json:"status"`
	Attempts    int           `json:"attempts"`
	MaxAttempts int           `json:"max_attempts"`
	Error       string        `json:"error,omitempty"`
	Events      []MemoryEvent `json:"results,omitempty"`
	NextRunAt   time.Time     `json:"next_run_at"`
	LeaseUntil  *time.Time    `json:"lease_until,omitempty"`
	// Owner is the instance id of the process that last claimed the job.
	Owner     string    `json:"owner,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// RequestID is the id of the HTTP request that enqueued the job, so
	// that its logs carry it too; "" for jobs from elsewhere.
	RequestID string `json:"request_id,omitempty"`
}

// DocKind says whether an indexed document or a search result is a fact or
// an episode.
type DocKind string

// Document kinds.
const (
	KindFact    DocKind = "fact"
	KindEpisode DocKind = "episode"
)
