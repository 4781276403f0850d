// Package llm extracts entities, facts and profile signals from episodes with
// a chat model behind any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM,
// llama.cpp server).
//
// The model sees candidate records and messages by short integer handles,
// never by id, and its reply is validated before anything reaches the graph:
// items with unknown handles, missing fields, facts about other users or
// claims about the user that only the assistant made are dropped with a
// reason in Extraction.Rejected. Prompts are embedded files under prompts/,
// versioned by PromptVersion.
package llm

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"
	"time"

	"github.com/lore-memory/lore"
	openai "github.com/sashabaranov/go-openai"
)

var _ lore.Extractor = (*Extractor)(nil)

// Defaults for the zero fields of Config.
const (
	DefaultTimeout             = 60 * time.Second
	DefaultMaxTokensPerCall    = 8000
	DefaultMaxCompletionTokens = 4096
	DefaultMaxRetries          = 3
	DefaultRetryBase           = 500 * time.Millisecond
	DefaultRetryMax            = 20 * time.Second
	DefaultCacheSize           = 1024
)

// MaxYearsAhead bounds how far after its latest supporting message a fact's
// date may lie; later dates are taken as the model's mistake.
const MaxYearsAhead = 5

// Config configures an Extractor. Only BaseURL and Model are required.
type Config struct {
	// BaseURL is the endpoint's API root, including the version path:
	// https://api.openai.com/v1, http://localhost:11434/v1, ...
	BaseURL string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Model names the chat model, e.g. gpt-4o-mini or llama3.1:8b.
	Model string
	// Timeout bounds one HTTP call; 0 means DefaultTimeout. One batch makes
	// at most 2×(MaxRetries+1) calls (a repair doubles them), so keep that
	// many timeouts plus backoff under the ingest job lease.
	Timeout time.Duration
	// MaxTokensPerCall is the prompt budget of one call in estimated tokens;
	// larger batches are split. 0 means DefaultMaxTokensPerCall.
	MaxTokensPerCall int
	// MaxCompletionTokens caps the reply; 0 means DefaultMaxCompletionTokens.
	MaxCompletionTokens int
	// MaxRetries is how often a call failing with 429, 5xx, a timeout or a
	// connection error is retried; 0 means DefaultMaxRetries, negative none.
	MaxRetries int
	// RetryBase and RetryMax bound the exponential backoff between retries;
	// zero means DefaultRetryBase and DefaultRetryMax.
	RetryBase time.Duration
	RetryMax  time.Duration
	// Temperature is sent when positive; otherwise the endpoint's default
	// applies (some reasoning models accept no other).
	Temperature float32
	// Cache holds model replies by request hash; nil means an in-memory LRU
	// of DefaultCacheSize. Use NewMetaCache for a durable one.
	Cache Cache
	// HTTPClient is used for the calls; nil means a new http.Client.
	HTTPClient *http.Client
	// Logger receives rejections and retries; nil means slog.Default().
	Logger *slog.Logger
}

// Usage counts one tenant's use of the model.
type Usage struct {
	// Calls is the number of HTTP requests sent, retries included.
	Calls int64 `json:"calls"`
	// CacheHits is the number of batches answered from the cache.
	CacheHits int64 `json:"cache_hits"`
	// Failures is the number of batches that ended in an error.
	Failures int64 `json:"failures"`
	// PromptTokens and CompletionTokens are as the endpoint reports them,
	// or estimated when it reports none.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// Output modes, from the most to the least constrained. An endpoint that
// rejects one is asked with the next.
const (
	modeJSONSchema int32 = iota
	modeJSONObject
	modeInstructions
)

// Extractor is a lore.Extractor backed by a chat model. It is safe for
// concurrent use.
type Extractor struct {
	cfg    Config
	client *openai.Client
	cache  Cache
	log    *slog.Logger
	name   string

	system string
	schema []byte
	input  *template.Template
	repair *template.Template

	// mode is the output mode the endpoint accepted last; it only moves
	// towards modeInstructions.
	mode atomic.Int32

	mu    sync.Mutex
	usage map[string]*Usage
}

// New returns an Extractor for the model at cfg.BaseURL. It makes no call.
func New(cfg Config) (*Extractor, error) {
	cfg.BaseURL = strings.TrimSpace(cfg.BaseURL)
	cfg.Model = strings.TrimSpace(cfg.Model)
	if cfg.BaseURL == "" {
		return nil, lore.Errorf(lore.EINVALID, "llm: base URL is required (LORE_LLM_BASE_URL)")
	}
	if cfg.Model == "" {
		return nil, lore.Errorf(lore.EINVALID, "llm: model is required (LORE_LLM_MODEL)")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxTokensPerCall <= 0 {
		cfg.MaxTokensPerCall = DefaultMaxTokensPerCall
	}
	if cfg.MaxCompletionTokens <= 0 {
		cfg.MaxCompletionTokens = DefaultMaxCompletionTokens
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = DefaultRetryBase
	}
	if cfg.RetryMax <= 0 {
		cfg.RetryMax = DefaultRetryMax
	}
	if cfg.Cache == nil {
		cfg.Cache = NewLRU(DefaultCacheSize)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	p, err := loadPrompts()
	if err != nil {
		return nil, err
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	}
	return &Extractor{
		cfg:    cfg,
		client: openai.NewClientWithConfig(oc),
		cache:  cfg.Cache,
		log:    cfg.Logger.With("component", "extract/llm", "model", cfg.Model),
		name:   "llm/" + cfg.Model + "/" + PromptVersion,
		system: p.system,
		schema: p.schema,
		input:  p.input,
		repair: p.repair,
		usage:  make(map[string]*Usage),
	}, nil
}

// Name is the value the Extractor records in Extraction.Extractor:
// "llm/<model>/<prompt version>".
func (x *Extractor) Name() string { return x.name }

// Cache returns the extractor's reply cache.
func (x *Extractor) Cache() Cache { return x.cache }

// Stats returns a copy of the usage counters per tenant.
func (x *Extractor) Stats() map[string]Usage {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := make(map[string]Usage, len(x.usage))
	for tenant, u := range x.usage {
		out[tenant] = *u
	}
	return out
}

// count applies f to the tenant's counters under the lock.
func (x *Extractor) count(tenant string, f func(u *Usage)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	u := x.usage[tenant]
	if u == nil {
		u = &Usage{}
		x.usage[tenant] = u
	}
	f(u)
}

// Extract implements lore.Extractor: one chat call per batch of episodes that
// fits the token budget, each answered from the cache when the same prompt
// was seen before. It fails only when a batch gets no usable reply; invalid
// parts of a usable reply are dropped and listed in Rejected.
func (x *Extractor) Extract(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
	out := &lore.Extraction{Entities: []lore.ExtractedEntity{}, Facts: []lore.ExtractedFact{}, Extractor: x.name}
	for i, ep := range req.Episodes {
		if ep == nil {
			return nil, lore.Errorf(lore.EINVALID, "llm: episode %d is nil", i)
		}
	}
	if len(req.Episodes) == 0 {
		return out, nil
	}
	scope := req.Scope.WithDefaults()
	tenant := scope.TenantID
	user := newUserInfo(req)
	for _, b := range x.plan(req, user) {
		raw, err := x.run(ctx, scope, b)
		if err != nil {
			x.count(tenant, func(u *Usage) { u.Failures++ })
			return nil, err
		}
		x.convert(req, b, user, raw, out)
	}
	return out, nil
}
