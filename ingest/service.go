// Package ingest turns conversations into memory: it stores episodes
// durably, indexes them, and extracts entities and facts into the knowledge
// graph, either within the request or through a durable job queue worked by
// a pool of background workers.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/profile"
)

// Config tunes ingestion. DefaultConfig gives the defaults; zero fields are
// replaced by them.
type Config struct {
	// Workers is the number of background workers RunWorkers starts.
	Workers int
	// PerTenantConcurrency bounds the jobs of one tenant that run at once,
	// so one busy tenant cannot starve the others. The store enforces it
	// across every process sharing the queue (ClaimRequest.MaxPerTenant).
	PerTenantConcurrency int
	// MaxAttempts is how many times a job runs before it is dead-lettered.
	MaxAttempts int
	// BackoffBase and BackoffMax bound the exponential delay before a
	// retryable failure is tried again.
	BackoffBase time.Duration
	BackoffMax  time.Duration
	// Lease is how long a claimed job belongs to its worker; a job whose
	// lease expired (its worker crashed) is claimed again. Workers renew
	// it every third of its length, so it only bounds how long another
	// process waits for a crashed one's jobs; the crashed process itself
	// takes them back at once on restart (InstanceID).
	Lease time.Duration
	// InstanceID names this process in the jobs it claims. A process
	// restarted with the same id releases the jobs it held when it died
	// (lore.JobLeases) before its workers start. Empty: no release.
	InstanceID string
	// MaxPendingPerTenant bounds a tenant's queued, retrying and running
	// jobs: an add that would queue another is refused with ERATELIMITED
	// (HTTP 429 with Retry-After) before anything is stored. Concurrent
	// adds may overshoot it by their number. Negative: unbounded.
	MaxPendingPerTenant int
	// OutageRetry is the longest a job waits between tries while a
	// dependency is unavailable (EUNAVAILABLE), so work resumes within it
	// once the dependency is back. Within OutagePatience of a job's
	// creation such tries spend no attempt, so an outage of any length up
	// to it dead-letters nothing; past it they count as other failures do.
	OutageRetry    time.Duration
	OutagePatience time.Duration
	// PollInterval is how often idle workers look for due jobs.
	PollInterval time.Duration
	// BatchSize is the number of episodes given to the extractor per call.
	BatchSize int
	// EmbedBatchSize is the number of texts embedded per Embedder call.
	EmbedBatchSize int
	// EmbedCacheSize bounds the embedding cache (embedcache.go): the
	// vectors of recently embedded texts, so a text is embedded once.
	// Up to twice this many vectors are held. Negative: no cache.
	EmbedCacheSize int
	// MaxMessages bounds the messages of one Add.
	MaxMessages int
	// MaxContentBytes bounds one message's content. The default, 2 MiB, is
	// the API's default body limit: a long message is stored whole and
	// indexed in passages (lore.Passages).
	MaxContentBytes int
	// MaxCandidateEntities and MaxCandidateFacts bound the existing records
	// given to the extractor to resolve against.
	MaxCandidateEntities int
	MaxCandidateFacts    int
	// MaxNGram is the longest word n-gram looked up as an entity name.
	MaxNGram int
	// SkipNearestWhenNamed leaves out the nearest-facts vector search of a
	// batch's candidates (embedding the batch's text and searching the
	// user's fact vectors) when the batch names an entity other than the
	// user by name or alias: those entities and their facts are then the
	// candidates (see candidates). On by default: with it, the LoCoMo
	// validation half (any@10 0.884, frac@10 0.830) and both halves of the
	// relational set (bench facts) score as without it, and the candidate
	// search falls from 6 % to 1 % of LoCoMo ingestion's CPU samples.
	SkipNearestWhenNamed bool
	// EntitySimilarity is the cosine similarity of name embeddings above
	// which an extracted entity is taken to be an existing one of the same
	// type. 0 (the default): the embedder's own bar (lore.EntitySimilarity:
	// 0.9 for MiniLM, higher for e5, whose vectors crowd closer).
	EntitySimilarity float64
	// SingleValuedPredicates are added to lore's table of single-valued
	// predicates (single_valued.txt): for these a subject holds one
	// current object, and a new one closes the old. Entries are
	// predicates, or "word_*" for every predicate starting with "word_".
	SingleValuedPredicates []string
	// NoProfile stops feeding users' profiles (lore.ProfileStore) from
	// their messages, extracted facts and searches (profile.go).
	NoProfile bool
	// QueryLogBatch is how many pending logged queries of a user start a
	// batch profile inference job; 0 means DefaultQueryLogBatch.
	QueryLogBatch int
	// ContextWindow is how far back the turn before an episode is looked
	// for when its index key is built (lore.EpisodeKey). It must be the
	// window retrieval walks neighbours with (retrieve.Config's
	// ContextWindow), so the serving command sets both from one value;
	// 0 means lore.DefaultContextWindow.
	ContextWindow time.Duration
}

// DefaultConfig returns the defaults: four workers, two jobs per tenant at a
// time, five attempts with backoff from 1s to 5min.
func DefaultConfig() Config {
	return Config{
		Workers:              4,
		PerTenantConcurrency: 2,
		MaxAttempts:          5,
		BackoffBase:          time.Second,
		BackoffMax:           5 * time.Minute,
		Lease:                30 * time.Second,
		MaxPendingPerTenant:  10000,
		PollInterval:         time.Second,
		OutageRetry:          5 * time.Second,
		OutagePatience:       24 * time.Hour,
		BatchSize:            20,
		EmbedBatchSize:       64,
		EmbedCacheSize:       4096,
		MaxMessages:          500,
		MaxContentBytes:      2 << 20,
		MaxCandidateEntities: 50,
		MaxCandidateFacts:    50,
		MaxNGram:             4,
		SkipNearestWhenNamed: true,
		ContextWindow:        lore.DefaultContextWindow,
	}
}

// withDefaults returns c with zero fields replaced by the defaults.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	setInt := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	setDur := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	setInt(&c.Workers, d.Workers)
	setInt(&c.PerTenantConcurrency, d.PerTenantConcurrency)
	setInt(&c.MaxAttempts, d.MaxAttempts)
	setDur(&c.BackoffBase, d.BackoffBase)
	setDur(&c.BackoffMax, d.BackoffMax)
	setDur(&c.Lease, d.Lease)
	if c.MaxPendingPerTenant == 0 {
		c.MaxPendingPerTenant = d.MaxPendingPerTenant
	}
	setDur(&c.PollInterval, d.PollInterval)
	setDur(&c.OutageRetry, d.OutageRetry)
	setDur(&c.OutagePatience, d.OutagePatience)
	setInt(&c.BatchSize, d.BatchSize)
	setInt(&c.EmbedBatchSize, d.EmbedBatchSize)
	if c.EmbedCacheSize == 0 {
		c.EmbedCacheSize = d.EmbedCacheSize
	}
	setInt(&c.MaxMessages, d.MaxMessages)
	setInt(&c.MaxContentBytes, d.MaxContentBytes)
	setInt(&c.MaxCandidateEntities, d.MaxCandidateEntities)
	setInt(&c.MaxCandidateFacts, d.MaxCandidateFacts)
	setInt(&c.MaxNGram, d.MaxNGram)
	setDur(&c.ContextWindow, d.ContextWindow)
	if c.EntitySimilarity < 0 || c.EntitySimilarity > 1 {
		c.EntitySimilarity = 0
	}
	if c.BackoffMax < c.BackoffBase {
		c.BackoffMax = c.BackoffBase
	}
	return c
}

// Service ingests conversations. Its dependencies are explicit fields; the
// zero values of Embedder, Config, Logger and Now are usable. A Service is
// safe for concurrent use; do not copy it after first use.
type Service struct {
	Store     lore.Store     // episodes, graph, job queue and settings
	Index     lore.Index     // text and vector index over facts and episodes
	Embedder  lore.Embedder  // nil: no vectors
	Extractor lore.Extractor // turns episodes into entities and facts
	Config    Config         // zero fields take DefaultConfig's values
	Logger    *slog.Logger   // nil: slog.Default()
	Now       func() time.Time
	// Rederiver re-derives a fact's triple from a text edited through
	// ChangeFact; nil means the rules extractor.
	Rederiver lore.Extractor
	// Observer is told of each job enqueued and each run settled (the
	// /metrics queue counters); nil: nobody.
	Observer JobObserver
	// QueryLogDays says how many days a tenant's searches stay in its
	// users' query logs (retention.Policy's QueryLogDays); nil or 0: none
	// are kept (querylog.go).
	QueryLogDays func(ctx context.Context, tenantID string) (int, error)
	// ProfileInferrer reads the query logs in batches (extract/llm); nil:
	// no batch inference.
	ProfileInferrer ProfileInferrer
	// FactScorer drops extracted facts a learned model scores as not worth
	// keeping, before they are stored (factscorer.go); nil, or no
	// Embedder: every fact is kept.
	FactScorer FactScorer

	// wake tells idle workers that Add enqueued a job, so they need not wait
	// for the next poll.
	wakeOnce sync.Once
	wake     chan struct{}

	embedOnce sync.Once   // makes the embedding cache on first use
	embeds    *embedCache // nil: no cache (embedcache.go)

	profileOnce sync.Once      // parses rules on first use (profile.go)
	rules       *profile.Rules // the offline profile rules
	inferring   sync.WaitGroup // InferProfileLater's goroutines; RunWorkers waits for them

	// running holds the cancel functions of the jobs this process runs, so
	// that Erase stops those of the erased scope (see erase.go).
	runningMu sync.Mutex
	running   map[string]runningJob
}

// Message is one chat message given to Add.
type Message struct {
	Role      string         `json:"role"`                 // user, assistant, system or tool
	Content   string         `json:"content"`              // the text; not empty
	Name      string         `json:"name,omitempty"`       // the speaker's name
	CreatedAt *time.Time     `json:"created_at,omitempty"` // when it was said; nil: as the message before it (messageTimes), else now
	SourceID  string         `json:"source_id,omitempty"`  // the caller's own id for it
	Metadata  map[string]any `json:"metadata,omitempty"`   // merged over the request's metadata
}

// AddRequest asks Add to store messages for a scope.
type AddRequest struct {
	Scope    lore.Scope     // an empty tenant becomes lore.DefaultTenant
	Messages []Message      // 1 to Config.MaxMessages
	Metadata map[string]any // given to every episode
	// Infer false stores the messages verbatim as memories and extracts
	// nothing.
	Infer bool
	// Sync true extracts within the call instead of enqueuing a job.
	Sync bool
	// ExpiresAt, when set, is when the messages and the facts drawn only
	// from them stop being returned (lore.RetentionStore).
	ExpiresAt *time.Time
}

// AddResult reports what Add did: the stored episodes, the job that will
// extract from them (async), or the memory events (sync or verbatim).
type AddResult struct {
	EpisodeIDs []string           `json:"episode_ids"`       // in message order
	JobID      string             `json:"job_id,omitempty"`  // the queued job, if any
	Events     []lore.MemoryEvent `json:"results,omitempty"` // what changed, when known
}

// Job kinds. Add enqueues JobKindExtract to extract from new episodes, and
// JobKindIndex when verbatim episodes could not be indexed at once.
const (
	JobKindExtract = "extract"
	JobKindIndex   = "index"
	// JobKindProfile writes the profile entries a search's query showed
	// (InferProfileFromQuery).
	JobKindProfile = "profile"
	// JobKindProfileBatch reads a user's pending logged queries with the
	// ProfileInferrer (querylog.go).
	JobKindProfileBatch = "profile_batch"
)

// validRole reports whether Add accepts a message role.
func validRole(role string) bool {
	switch role {
	case "user", "assistant", "system", "tool":
		return true
	}
	return false
}

func (s *Service) cfg() Config { return s.Config.withDefaults() }

// singleValued returns the single-valued predicates: lore's table and
// Config.SingleValuedPredicates. cmd/lore checks the entries at start;
// should a bad one get here, the table alone is used and it is logged.
func (s *Service) singleValued() lore.PredicateSet {
	set, err := lore.SingleValuedPredicates(s.Config.SingleValuedPredicates...)
	if err != nil {
		s.logger().Warn("ingest: bad single-valued predicate ignored", "err", err)
		set, _ = lore.SingleValuedPredicates()
	}
	return set
}

func (s *Service) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) wakeCh() chan struct{} {
	s.wakeOnce.Do(func() { s.wake = make(chan struct{}, 1) })
	return s.wake
}

// notify wakes one idle worker without blocking.
func (s *Service) notify() {
	select {
	case s.wakeCh() <- struct{}{}:
	default:
	}
}

// validate checks an AddRequest and returns its scope with defaults applied.
func (s *Service) validate(req AddRequest) (lore.Scope, error) {
	cfg := s.cfg()
	scope := req.Scope.WithDefaults()
	if err := scope.Validate(); err != nil {
		return scope, err
	}
	if len(req.Messages) == 0 {
		return scope, lore.Errorf(lore.EINVALID, "messages is empty")
	}
	if len(req.Messages) > cfg.MaxMessages {
		return scope, lore.Errorf(lore.ETOOLARGE, "messages holds %d messages, more than %d", len(req.Messages), cfg.MaxMessages)
	}
	for i, m := range req.Messages {
		if !validRole(m.Role) {
			return scope, lore.Errorf(lore.EINVALID, "messages[%d].role %q is not one of user, assistant, system, tool", i, m.Role)
		}
		if isBlank(m.Content) {
			return scope, lore.Errorf(lore.EINVALID, "messages[%d].content is empty", i)
		}
		if len(m.Content) > cfg.MaxContentBytes {
			return scope, lore.Errorf(lore.ETOOLARGE, "messages[%d].content is longer than %d bytes", i, cfg.MaxContentBytes)
		}
		if err := lore.ValidateID(fmt.Sprintf("messages[%d].source_id", i), m.SourceID); err != nil {
			return scope, err
		}
		if err := lore.ValidateID(fmt.Sprintf("messages[%d].name", i), m.Name); err != nil {
			return scope, err
		}
		if m.CreatedAt != nil && m.CreatedAt.IsZero() {
			return scope, lore.Errorf(lore.EINVALID, "messages[%d].created_at is the zero time", i)
		}
	}
	return scope, nil
}

// Add validates the request, stores its messages as episodes, indexes them,
// and then extracts from them within the call (Sync), enqueues an extract
// job (the default), or stops there (Infer false). Invalid input is refused
// with EINVALID, or ETOOLARGE past a configured limit, naming the field,
// before anything is stored.
//
// Once stored, episodes are never lost to a later failure: when indexing
// verbatim episodes fails, an index job is queued and its id returned; when
// a sync extraction fails, an extract job is queued and the error, which
// keeps the extractor's code, names it.
func (s *Service) Add(ctx context.Context, req AddRequest) (*AddResult, error) {
	scope, err := s.validate(req)
	if err != nil {
		return nil, err
	}
	ctx = Tagged(ctx)
	// An erase of the scope while this runs refuses what is left of it.
	ctx, cancelFence, err := s.fence(ctx, scope)
	if err != nil {
		return nil, err
	}
	defer cancelFence()
	if req.Infer && !req.Sync {
		if err := s.admit(ctx, scope.TenantID); err != nil {
			return nil, err
		}
	}
	said := messageTimes(req.Messages, s.now())
	eps := make([]*lore.Episode, len(req.Messages))
	for i, m := range req.Messages {
		occurred := said[i]
		var md map[string]any
		if len(req.Metadata) > 0 || len(m.Metadata) > 0 {
			md = make(map[string]any, len(req.Metadata)+len(m.Metadata))
			maps.Copy(md, req.Metadata)
			// A message's own metadata wins over the request's.
			maps.Copy(md, m.Metadata)
		}
		eps[i] = &lore.Episode{
			Scope:      scope,
			Role:       m.Role,
			Speaker:    m.Name,
			Content:    m.Content,
			OccurredAt: occurred,
			SourceID:   m.SourceID,
			Metadata:   md,
			Verbatim:   !req.Infer,
			ExpiresAt:  req.ExpiresAt,
		}
	}
	// Episodes are stored before anything else so that no later failure
	// can lose what the caller said.
	if err := s.Store.AddEpisodes(ctx, eps); err != nil {
		return nil, fmt.Errorf("ingest: store episodes: %w", err)
	}
	res := &AddResult{EpisodeIDs: make([]string, len(eps))}
	for i, ep := range eps {
		res.EpisodeIDs[i] = ep.ID
	}
	// From here on the episodes are safe. A failure to index or extract
	// them leaves a job behind that finishes the work, so nothing the
	// caller said is lost even when the embedder or the model is down.
	var idxErr error
	if !req.Infer || !req.Sync {
		// A sync extraction indexes the episodes, with their facts, as
		// it finishes; indexing them here as well would only cost time.
		// A queued one embeds them again once their keys hold their facts
		// (lore doctor expects every indexed document to have a vector).
		idxErr = s.IndexEpisodes(ctx, eps)
	}
	switch {
	case !req.Infer:
		for _, ep := range eps {
			res.Events = append(res.Events, lore.MemoryEvent{ID: ep.ID, Memory: ep.Content, Event: lore.EventAdd, Type: lore.KindEpisode})
		}
		if idxErr == nil {
			return res, nil
		}
		s.logger().Warn("ingest: index verbatim episodes; queued for retry", "tenant", scope.TenantID, "err", idxErr)
		if err := s.enqueue(ctx, scope, JobKindIndex, res.EpisodeIDs, res); err != nil {
			return nil, errors.Join(idxErr, err)
		}
		return res, nil
	case req.Sync:
		events, err := s.extractEpisodes(ctx, scope, eps)
		if err == nil {
			res.Events = events
			return res, nil
		}
		// Searchable now if the index is up; the job retries otherwise.
		_ = s.IndexEpisodes(context.WithoutCancel(ctx), eps)
		if qerr := s.enqueue(context.WithoutCancel(ctx), scope, JobKindExtract, res.EpisodeIDs, res); qerr != nil {
			return nil, errors.Join(err, qerr)
		}
		// The caller sees the job in the message, with the failure's code;
		// the cause stays in the chain for the log.
		safe := lore.Errorf(lore.ErrorCode(err), "extraction failed (%s); the episodes are stored and job %s will extract from them",
			lore.ErrorMessage(err), res.JobID)
		return nil, fmt.Errorf("%w: ingest: sync extraction: %w", safe, err)
	}
	if idxErr != nil {
		// The job re-indexes the episodes once it has extracted from them.
		s.logger().Warn("ingest: index episodes; the extract job will retry", "tenant", scope.TenantID, "err", idxErr)
	}
	if err := s.enqueue(ctx, scope, JobKindExtract, res.EpisodeIDs, res); err != nil {
		return nil, err
	}
	return res, nil
}

// admit refuses an add that would queue a job past the tenant's bound
// (Config.MaxPendingPerTenant), before anything is stored, so that a
// burst cannot grow the queue without limit.
func (s *Service) admit(ctx context.Context, tenantID string) error {
	limit := s.cfg().MaxPendingPerTenant
	leases, ok := s.Store.(lore.JobLeases)
	if limit < 0 || !ok {
		return nil
	}
	n, err := leases.PendingJobs(ctx, tenantID)
	if err != nil {
		return fmt.Errorf("ingest: count pending jobs: %w", err)
	}
	if n >= limit {
		// About one poll per job ahead of this one's turn at the workers.
		wait := time.Duration(n-limit+1) * s.cfg().PollInterval
		return lore.WithRetryAfter(lore.Errorf(lore.ERATELIMITED,
			"tenant %q has %d unfinished extraction jobs, the most it may queue; retry later or add with sync", tenantID, n), wait)
	}
	return nil
}

// enqueue stores a job over episodes, records its id in res and wakes a
// worker.
func (s *Service) enqueue(ctx context.Context, scope lore.Scope, kind string, episodeIDs []string, res *AddResult) error {
	now := s.now()
	job := &lore.Job{
		ID:          uuid.NewString(),
		Scope:       scope,
		Kind:        kind,
		EpisodeIDs:  episodeIDs,
		Status:      lore.JobQueued,
		MaxAttempts: s.cfg().MaxAttempts,
		NextRunAt:   now,
		CreatedAt:   now,
		UpdatedAt:   now,
		RequestID:   lore.RequestID(ctx),
	}
	if err := s.Store.EnqueueJob(ctx, job); err != nil {
		return fmt.Errorf("ingest: enqueue job: %w", err)
	}
	res.JobID = job.ID
	if s.Observer != nil {
		s.Observer.JobEnqueued(job)
	}
	s.notify()
	return nil
}

// JobObserver watches the job queue: metrics.Metrics implements it.
type JobObserver interface {
	JobEnqueued(job *lore.Job)
	// JobSettled reports one run's outcome as settled on the job;
	// requeued is true when a shutdown handed the job back.
	JobSettled(job *lore.Job, requeued bool)
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			return false
		}
	}
	return true
}

// messageTimes gives each message the time it was said: its created_at; for
// one without, the time of the message before it (a reply is said with what
// it answers) or, before any timed message, of the first timed one; and now
// when the request gives no time at all. A reply without a time thus stays
// in its conversation instead of looking like the user's latest news.
func messageTimes(msgs []Message, now time.Time) []time.Time {
	out := make([]time.Time, len(msgs))
	first := -1
	for i, m := range msgs {
		if m.CreatedAt != nil {
			out[i] = m.CreatedAt.UTC()
			if first < 0 {
				first = i
			}
		}
	}
	for i, m := range msgs {
		switch {
		case m.CreatedAt != nil:
		case first < 0:
			out[i] = now
		case i < first:
			out[i] = out[first]
		default:
			out[i] = out[i-1]
		}
	}
	return out
}
