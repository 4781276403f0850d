// Package neo4j implements lore.Store on Neo4j 5: episodes, entities and
// facts as a graph a user can read in Neo4j Browser, their history, the job
// queue and settings. The statements live in package cypher, one file each.
//
// The model (see docs/neo4j.md for the reasons):
//
//	(:Entity)-[:SUBJECT_OF]->(:Fact)-[:OBJECT]->(:Entity)
//	(:Episode)-[:MENTIONS]->(:Entity)
//	(:User)-[:RELATES {kind, count, first_seen, last_seen}]->(:Entity)
//	(:History), (:Job), (:Meta), (:Erasure), (:EraseFence) (see erase.go)
//
// Every node carries its scope (tenant_id, user_id, agent_id, run_id; ""
// when unset) and every read filters on it. Times are native datetimes in UTC.
package neo4j

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/cypher"
)

var _ lore.Store = (*Store)(nil)

// Config says how to reach Neo4j.
type Config struct {
	URL      string // neo4j://host:7687 or bolt://host:7687
	Username string // empty: no authentication
	Password string
	Database string // empty: the server's default database
	// MaxRetryTime bounds how long the driver retries a transaction that
	// failed transiently (a deadlock, a lost connection) before the call
	// fails; 0 means DefaultMaxRetryTime. Short, so that while Neo4j is
	// down requests get a prompt 503 and jobs fall back on the queue's
	// own retry, which resumes them soon after Neo4j returns.
	MaxRetryTime time.Duration
	// CallTimeout bounds one store call (with its retries) when the
	// caller's context has no deadline; 0 means DefaultCallTimeout. A
	// connection that a network failure left half open is read from
	// forever otherwise, and a worker stuck on it holds its job.
	CallTimeout time.Duration
	// Now is the store's clock (record times, expiry checks); nil means
	// time.Now. Tests inject one.
	Now func() time.Time
}

// DefaultCallTimeout is Config.CallTimeout's default: long enough for a
// call that waits on other transactions' locks on a loaded server (15 s
// was not, in CI), short enough that a half-open connection costs a
// minute, not forever.
const DefaultCallTimeout = 60 * time.Second

// DefaultMaxRetryTime is Config.MaxRetryTime's default. The driver's
// retries back off 1 s, 2 s, 4 s…, so this allows three tries.
const DefaultMaxRetryTime = 5 * time.Second

// Store is a lore.Store on a Neo4j database. It is safe for concurrent use.
type Store struct {
	driver neo4j.DriverWithContext
	db     string
	stmts  map[string]*template.Template
	// rendered caches each statement shape's text, so Neo4j sees a small,
	// fixed set of query strings and reuses their plans.
	rendered sync.Map
	now      func() time.Time
	// callTimeout is Config.CallTimeout with its default applied.
	callTimeout time.Duration
	// deleteBatch is how many nodes one DeleteScope transaction removes.
	deleteBatch int
}

// Tuning of the walks and batches; constants so that every deployment runs
// the same query costs.
const (
	// neighborFanout bounds how many neighbour entities a two-hop walk expands.
	neighborFanout = 200
	// defaultDeleteBatch is how many nodes one DeleteScope transaction removes.
	defaultDeleteBatch = 5000
	// defaultNeighborhoodLimit applies when a NeighborhoodQuery sets no limit.
	defaultNeighborhoodLimit = 1000
	// noLimit stands for "no limit" in SKIP/LIMIT clauses.
	noLimit = int64(1) << 53
	// claimRetries bounds how often ClaimJob retries after losing a race.
	claimRetries = 10
	// mergeRetries bounds how often a merge retries after a constraint race.
	mergeRetries = 3
)

// Open connects to Neo4j, checks that it answers and applies the schema
// (Migrate). It returns EUNAVAILABLE when the server cannot be reached.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.URL == "" {
		return nil, lore.Errorf(lore.EINVALID, "neo4j: URL is required")
	}
	token := neo4j.NoAuth()
	if cfg.Username != "" {
		token = neo4j.BasicAuth(cfg.Username, cfg.Password, "")
	}
	driver, err := neo4j.NewDriverWithContext(cfg.URL, token, func(c *neo4j.Config) {
		c.MaxTransactionRetryTime = cmp.Or(cfg.MaxRetryTime, DefaultMaxRetryTime)
	})
	if err != nil {
		return nil, lore.Errorf(lore.EINVALID, "neo4j: bad URL %q: %v", cfg.URL, err)
	}
	if err := driver.VerifyConnectivity(ctx); err != nil {
		_ = driver.Close(ctx)
		return nil, fmt.Errorf("neo4j: connect %s: %w: %w", cfg.URL,
			lore.Errorf(lore.EUNAVAILABLE, "neo4j at %s is unavailable", cfg.URL), err)
	}
	s := &Store{driver: driver, db: cfg.Database, now: time.Now, deleteBatch: defaultDeleteBatch,
		callTimeout: cmp.Or(cfg.CallTimeout, DefaultCallTimeout)}
	if cfg.Now != nil {
		s.now = cfg.Now
	}
	if err := s.parse(); err != nil {
		_ = driver.Close(ctx)
		return nil, err
	}
	if err := s.Migrate(ctx); err != nil {
		_ = driver.Close(ctx)
		return nil, err
	}
	return s, nil
}

// Migrate applies the schema in cypher/schema (constraints and indexes, all
// IF NOT EXISTS, so it is idempotent) and waits until the indexes are online.
func (s *Store) Migrate(ctx context.Context) error {
	schema, err := cypher.Schema()
	if err != nil {
		return err
	}
	for _, stmt := range schema {
		// Two servers starting together may race to create the same index;
		// the loser sees an "already exists" error and a retry settles it.
		var err error
		for range 3 {
			if err = s.exec(ctx, stmt, nil); err == nil {
				break
			}
		}
		if err != nil {
			return fmt.Errorf("neo4j: migrate: %s: %w", firstLine(stmt), err)
		}
	}
	wait, err := s.render("Migrate", shape{})
	if err != nil {
		return err
	}
	if err := s.exec(ctx, wait, map[string]any{"timeout_seconds": int64(300)}); err != nil {
		return fmt.Errorf("neo4j: migrate: await indexes: %w", err)
	}
	return s.backfillSpeakers(ctx)
}

// metaSpeakersCounted marks a database whose episodes all have their
// speakers counted in Speaker nodes.
const metaSpeakersCounted = "schema.speakers_counted"

// backfillSpeakers counts, once per database, the speakers of episodes
// stored before Speaker nodes existed. The mark is set only after the
// statement completes, so an interrupted backfill runs again (and only
// creates what is missing). Episodes written meanwhile by a Lore that
// predates Speaker nodes are not counted: upgrade every process together.
func (s *Store) backfillSpeakers(ctx context.Context) error {
	_, err := s.GetMeta(ctx, metaSpeakersCounted)
	if err == nil {
		return nil
	}
	if lore.ErrorCode(err) != lore.ENOTFOUND {
		return fmt.Errorf("neo4j: migrate: %w", err)
	}
	stmt, err := s.render("BackfillSpeakers", shape{})
	if err != nil {
		return err
	}
	// CALL IN TRANSACTIONS needs an auto-commit statement.
	if err := s.exec(ctx, stmt, nil); err != nil {
		return fmt.Errorf("neo4j: migrate: count speakers: %w", err)
	}
	if err := s.SetMeta(ctx, metaSpeakersCounted, "1"); err != nil {
		return fmt.Errorf("neo4j: migrate: %w", err)
	}
	return nil
}

// Close releases the driver's connections.
func (s *Store) Close() error {
	if err := s.driver.Close(context.Background()); err != nil {
		return fmt.Errorf("neo4j: close: %w", err)
	}
	return nil
}

// exec runs one auto-commit statement: schema statements cannot share a
// transaction with anything else.
func (s *Store) exec(ctx context.Context, stmt string, params map[string]any) error {
	sess := s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.db, AccessMode: neo4j.AccessModeWrite})
	defer sess.Close(ctx)
	res, err := sess.Run(ctx, stmt, params)
	if err != nil {
		return err
	}
	_, err = res.Consume(ctx)
	return err
}

// firstLine returns the first line of stmt that is not a comment, for messages.
func firstLine(stmt string) string {
	for _, l := range strings.Split(stmt, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
			return l
		}
	}
	return stmt
}

// shape says which optional parts a statement's text includes: the scope
// fields a read sets and the filters a call uses.
type shape struct {
	User, Agent, Run bool
	IDs, SourceIDs   bool
	Names            bool
	Since, Until     bool
	Subject, Object  bool
	Entity           bool
	Predicate        bool
	Current          bool
}

// scopeShape returns the shape of a read under sc.
func scopeShape(sc lore.Scope) shape {
	return shape{User: sc.UserID != "", Agent: sc.AgentID != "", Run: sc.RunID != ""}
}

// templateFuncs render the fixed fragments statements share. They produce
// property names and parameter references only, never values.
func templateFuncs() template.FuncMap {
	return template.FuncMap{
		// scope is the predicate "the reading scope Contains this record".
		"scope": func(alias string, sh shape) string { return scopePredicate(alias, sh, true) },
		// ns is the same for namespace records (entities), which have no run.
		"ns": func(alias string, sh shape) string { return scopePredicate(alias, sh, false) },
		// current is "neither invalidated nor expired as of $now".
		"current": func(alias string) string {
			// coalesce rather than OR: the planner would split an OR into a
			// union of two index seeks over the same facts.
			return fmt.Sprintf("coalesce(%[1]s.invalid_at > $now, true) AND coalesce(%[1]s.expired_at > $now, true)", alias)
		},
	}
}

func scopePredicate(alias string, sh shape, withRun bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s.tenant_id = $tenant_id", alias)
	switch {
	case sh.User:
		fmt.Fprintf(&b, " AND %s.user_id = $user_id", alias)
	case sh.Agent:
		// An agent-only read sees the agent's own records, stored with no
		// user, never its users' (lore.Scope.Contains).
		fmt.Fprintf(&b, " AND %s.user_id = ''", alias)
	}
	if sh.Agent {
		fmt.Fprintf(&b, " AND %s.agent_id = $agent_id", alias)
	}
	if withRun && sh.Run {
		fmt.Fprintf(&b, " AND %s.run_id = $run_id", alias)
	}
	return b.String()
}

// parse prepares every statement of package cypher.
func (s *Store) parse() error {
	srcs, err := cypher.Statements()
	if err != nil {
		return err
	}
	s.stmts = make(map[string]*template.Template, len(srcs))
	for name, src := range srcs {
		t, err := template.New(name).Funcs(templateFuncs()).Option("missingkey=error").Parse(src)
		if err != nil {
			return fmt.Errorf("neo4j: parse statement %s: %w", name, err)
		}
		s.stmts[name] = t
	}
	return nil
}

type renderKey struct {
	name string
	sh   shape
}

// render returns the text of statement name for a shape.
func (s *Store) render(name string, sh shape) (string, error) {
	key := renderKey{name, sh}
	if q, ok := s.rendered.Load(key); ok {
		return q.(string), nil
	}
	t, ok := s.stmts[name]
	if !ok {
		return "", fmt.Errorf("neo4j: no statement %q", name)
	}
	var b strings.Builder
	if err := t.Execute(&b, sh); err != nil {
		return "", fmt.Errorf("neo4j: render %s: %w", name, err)
	}
	q := b.String()
	s.rendered.Store(key, q)
	return q, nil
}

// txRunner runs statements inside one managed transaction.
type txRunner struct {
	s   *Store
	ctx context.Context
	tx  neo4j.ManagedTransaction
}

// run renders and runs a statement and returns all its records.
func (r txRunner) run(name string, sh shape, params map[string]any) ([]*neo4j.Record, error) {
	q, err := r.s.render(name, sh)
	if err != nil {
		return nil, err
	}
	res, err := r.tx.Run(r.ctx, q, params)
	if err != nil {
		return nil, err
	}
	return res.Collect(r.ctx)
}

// write runs work in a write transaction that the driver retries on
// transient errors (deadlocks, leader changes). Under a fenced context
// (lore.WithFence) the transaction checks the fence first (checkFence).
func write[T any](ctx context.Context, s *Store, op string, work func(r txRunner) (T, error)) (T, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	sess := s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.db, AccessMode: neo4j.AccessModeWrite})
	defer sess.Close(ctx)
	out, err := neo4j.ExecuteWrite(ctx, sess, func(tx neo4j.ManagedTransaction) (T, error) {
		r := txRunner{s: s, ctx: ctx, tx: tx}
		if err := r.checkFence(); err != nil {
			var zero T
			return zero, err
		}
		return work(r)
	})
	return out, s.wrapCall(ctx, op, err)
}

// bound gives a call without a deadline the store's CallTimeout.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, s.callTimeout, errCallTimeout)
}

// errCallTimeout is the cause of a call that outlived CallTimeout.
var errCallTimeout = errors.New("neo4j call timeout")

// wrapCall is wrap, with a call that outlived CallTimeout (not the
// caller's own deadline) reported as EUNAVAILABLE, so that the job queue
// retries it as an outage.
func (s *Store) wrapCall(ctx context.Context, op string, err error) error {
	if err != nil && errors.Is(context.Cause(ctx), errCallTimeout) {
		return fmt.Errorf("neo4j: %s: %w: %w", op, lore.Errorf(lore.EUNAVAILABLE, "neo4j did not answer within %v", s.callTimeout), err)
	}
	return wrap(op, err)
}

// read runs work in a read transaction.
func read[T any](ctx context.Context, s *Store, op string, work func(r txRunner) (T, error)) (T, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	sess := s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.db, AccessMode: neo4j.AccessModeRead})
	defer sess.Close(ctx)
	out, err := neo4j.ExecuteRead(ctx, sess, func(tx neo4j.ManagedTransaction) (T, error) {
		return work(txRunner{s: s, ctx: ctx, tx: tx})
	})
	return out, s.wrapCall(ctx, op, err)
}

// wrap gives an error the place it happened and, where Neo4j's meaning is
// known, a lore code.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var le *lore.Error
	if errors.As(err, &le) {
		return err
	}
	if isConstraintViolation(err) {
		return fmt.Errorf("neo4j: %s: %w: %w", op, lore.Errorf(lore.ECONFLICT, "%s conflicts with a stored record", op), err)
	}
	if unavailable(err) {
		return fmt.Errorf("neo4j: %s: %w: %w", op, lore.Errorf(lore.EUNAVAILABLE, "neo4j is unavailable"), err)
	}
	return fmt.Errorf("neo4j: %s: %w", op, err)
}

// unavailable reports whether err says the server could not be reached:
// a connectivity error, or the driver's retries running out
// (TransactionExecutionLimit) on connectivity or transient errors, which
// is how a server going away in the middle of a write usually surfaces.
// The driver's own Is* helpers see neither through wrapping.
func unavailable(err error) bool {
	var ce *neo4j.ConnectivityError
	if errors.As(err, &ce) {
		return true
	}
	var limit *neo4j.TransactionExecutionLimit
	if !errors.As(err, &limit) {
		return false
	}
	for _, inner := range limit.Errors {
		var ne *neo4j.Neo4jError
		if errors.As(inner, &ce) || (errors.As(inner, &ne) && strings.HasPrefix(ne.Code, "Neo.TransientError.")) {
			return true
		}
	}
	return false
}

// isConstraintViolation reports whether err is a uniqueness violation.
func isConstraintViolation(err error) bool {
	var ne *neo4j.Neo4jError
	return errors.As(err, &ne) && ne.Code == "Neo.ClientError.Schema.ConstraintValidationFailed"
}
