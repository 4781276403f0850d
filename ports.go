package lore

import (
	"context"
	"time"
)

// GraphStore holds episodes, the knowledge graph of entities and facts, and
// their history. Implementations: graph/sqlite (embedded default) and
// graph/neo4j. All of them pass the suite in storetest.
//
// Every read takes a Scope and returns only records that scope Contains.
// Methods return ENOTFOUND for ids absent from the scope, EINVALID for bad
// input, and wrap infrastructure errors with %w.
type GraphStore interface {
	// AddEpisodes stores episodes durably, assigning ID, CreatedAt and
	// UpdatedAt where empty, and records an ADD history event for each.
	AddEpisodes(ctx context.Context, episodes []*Episode) error
	FindEpisodes(ctx context.Context, filter EpisodeFilter) ([]*Episode, error)
	// Speakers returns the distinct non-empty speaker names of the
	// episodes the scope contains, sorted.
	Speakers(ctx context.Context, scope Scope) ([]string, error)
	UpdateEpisode(ctx context.Context, scope Scope, id string, upd EpisodeUpdate) (*Episode, error)
	// DeleteEpisode removes an episode and records a DELETE event. Facts
	// keep their source ids; a fact whose every source is gone stays.
	DeleteEpisode(ctx context.Context, scope Scope, id string, actor string) error

	// MergeEntity upserts by (e.Scope.Namespace(), NormalizeName(e.Name)) or
	// any alias: a new entity gets an id and Mentions = max(e.Mentions, 1); a
	// known one adds e.Mentions (at least 1), widens FirstSeen/LastSeen and
	// gains e's aliases. Concurrent merges of one name never create two
	// entities. It returns the stored entity.
	MergeEntity(ctx context.Context, e *Entity) (*Entity, error)
	FindEntities(ctx context.Context, filter EntityFilter) ([]*Entity, error)

	// MergeFact adds f, or, if a current fact with the same namespace,
	// subject, predicate and ObjectKey exists, merges into it: Count grows by
	// max(f.Count, 1), FirstSeen/LastSeen widen, sources are unioned and
	// Confidence becomes the larger. A fact given already closed (not
	// Current at the store's now) is always added, never merged, so that
	// an ending is never lost in a current twin. It records ADD or MERGE
	// history and returns the stored fact with the event kind.
	MergeFact(ctx context.Context, f *Fact, actor string) (*Fact, EventKind, error)
	FindFacts(ctx context.Context, filter FactFilter) ([]*Fact, error)
	UpdateFact(ctx context.Context, scope Scope, id string, upd FactUpdate) (*Fact, error)
	// DeleteFact removes a fact and records a DELETE event; its history stays.
	DeleteFact(ctx context.Context, scope Scope, id string, actor string) error

	// Neighborhood walks the graph from seed entities, never leaving the
	// scope, nearest hops first.
	Neighborhood(ctx context.Context, q NeighborhoodQuery) ([]GraphHit, error)

	// History returns a memory's events, oldest first.
	History(ctx context.Context, scope Scope, memoryID string) ([]HistoryEvent, error)

	// DeleteScope removes every episode, entity, fact, job and history event
	// the scope Contains; a scope naming a tenant alone (ValidateErase)
	// removes the whole tenant. Stores that are EraseStores record the
	// erasure first.
	DeleteScope(ctx context.Context, scope Scope) (DeleteStats, error)

	Close() error
}

// JobQueue is the durable queue that background extraction runs from. It
// lives in the primary store.
type JobQueue interface {
	EnqueueJob(ctx context.Context, job *Job) error
	// ClaimJob atomically takes the oldest job that is queued or retrying
	// with NextRunAt <= Now, or running with an expired lease, sets it
	// running with a new lease and one more attempt, and returns it. It
	// returns ENOTFOUND when no job is due.
	ClaimJob(ctx context.Context, req ClaimRequest) (*Job, error)
	// SaveJob stores the job's status, attempts, error, events, NextRunAt and
	// lease.
	SaveJob(ctx context.Context, job *Job) error
	GetJob(ctx context.Context, tenantID, id string) (*Job, error)
}

// MetaStore keeps small settings, such as the embedder a store was built
// with. GetMeta returns ENOTFOUND for an unknown key.
type MetaStore interface {
	GetMeta(ctx context.Context, key string) (string, error)
	SetMeta(ctx context.Context, key, value string) error
}

// Store is the primary store: the graph, its job queue and its settings.
type Store interface {
	GraphStore
	JobQueue
	MetaStore
}

// IndexDoc is a fact or an episode as the search index holds it.
type IndexDoc struct {
	ID     string
	Kind   DocKind
	Scope  Scope
	Text   string
	Vector []float32 // nil when no embedder is configured
	Time   time.Time // an episode's OccurredAt, a fact's LastSeen
}

// IndexQuery is one search over the index. Zero fields do not filter.
type IndexQuery struct {
	Scope  Scope
	Text   string    // for SearchText
	Vector []float32 // for SearchVector
	Kinds  []DocKind
	Since  *time.Time // Time >= Since
	Until  *time.Time // Time < Until
	Limit  int
}

// IndexHit is a document found by a search, with the backend's raw score
// (BM25 score, or cosine similarity for vectors); higher is better.
type IndexHit struct {
	ID    string
	Kind  DocKind
	Score float64
}

// Index is the text and vector index over facts and episodes.
// Implementations: graph/sqlite (per-user BM25 and exact vectors) and
// index/weaviate.
type Index interface {
	// Upsert adds or replaces documents by ID.
	Upsert(ctx context.Context, docs []IndexDoc) error
	Delete(ctx context.Context, scope Scope, ids []string) error
	// SearchText ranks by BM25 over Text.
	SearchText(ctx context.Context, q IndexQuery) ([]IndexHit, error)
	// SearchVector ranks by cosine similarity to q.Vector.
	SearchVector(ctx context.Context, q IndexQuery) ([]IndexHit, error)
	DeleteScope(ctx context.Context, scope Scope) error
	Close() error
}

// EmbedderInfo identifies an embedding model; a store refuses to mix vectors
// from two different ones.
type EmbedderInfo struct {
	Name     string `json:"name"`
	Dim      int    `json:"dim"`
	Checksum string `json:"checksum"`
	// QueryPrefix and PassagePrefix are the texts Lore puts before a query
	// and before a stored passage (e5's "query: " and "passage: "); empty
	// for a symmetric model. They change the vectors, so they are part of
	// the identity a store records. See QueryEmbedder.
	QueryPrefix   string `json:"query_prefix,omitempty"`
	PassagePrefix string `json:"passage_prefix,omitempty"`
}

// Embedder turns texts into vectors of Info().Dim, L2-normalized.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Info() EmbedderInfo
}

// ExtractRequest is a batch of episodes of one scope to extract from, with
// candidate records already in the graph that the extractor may resolve
// against. A candidate is referred to by its handle: its index in the slice
// plus one, never by its id.
type ExtractRequest struct {
	Scope    Scope
	Episodes []*Episode
	Entities []*Entity
	Facts    []*Fact
}

// Resolution says how an extracted fact relates to the candidate facts.
type Resolution struct {
	Kind   string `json:"kind"`             // "new", "duplicate" or "contradicts"
	Handle int    `json:"handle,omitempty"` // the candidate fact's handle
}

// ExtractedEntity is an entity as an extractor found it.
type ExtractedEntity struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Aliases []string `json:"aliases,omitempty"`
	Handle  int      `json:"handle,omitempty"` // the candidate entity it is, if any
}

// ExtractedFact is a fact as an extractor found it, before it is merged.
type ExtractedFact struct {
	Subject        string     `json:"subject"`
	SubjectType    string     `json:"subject_type,omitempty"`
	Predicate      string     `json:"predicate"`
	Object         string     `json:"object"`
	ObjectIsEntity bool       `json:"object_is_entity"`
	ObjectType     string     `json:"object_type,omitempty"`
	Text           string     `json:"fact"`
	ValidAt        *time.Time `json:"valid_at,omitempty"`
	InvalidAt      *time.Time `json:"invalid_at,omitempty"`
	Confidence     float64    `json:"confidence"`
	EpisodeIDs     []string   `json:"episode_ids"`
	Resolution     Resolution `json:"resolution"`
	// Replaces says the fact takes over from every other current object of
	// its subject and predicate, even a multi-valued one: "my new landlord
	// is Sakamoto Realty" ends the old landlord.
	Replaces bool `json:"replaces,omitempty"`
}

// ProfileSignal is something learned about the user from what they said.
type ProfileSignal struct {
	Key        string   `json:"key"`
	Value      string   `json:"value"`
	Confidence float64  `json:"confidence"`
	EpisodeIDs []string `json:"episode_ids"`
}

// Extraction is what an extractor found in a batch.
type Extraction struct {
	Entities []ExtractedEntity `json:"entities"`
	Facts    []ExtractedFact   `json:"facts"`
	Profile  []ProfileSignal   `json:"profile,omitempty"`
	// Rejected explains parts of the extractor's output that were dropped.
	Rejected []string `json:"rejected,omitempty"`
	// Extractor names the extractor and its prompt or rule version, recorded
	// with every fact it produced.
	Extractor string `json:"extractor"`
}

// Extractor turns episodes into entities and facts. Implementations:
// extract/rules (offline default) and extract/llm.
type Extractor interface {
	Extract(ctx context.Context, req ExtractRequest) (*Extraction, error)
}
