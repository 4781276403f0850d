// Package client is a typed Go client of Lore's HTTP API (api/README.md).
// The CLI uses it for `lore add --server URL` and `lore search --server URL`;
// TestMatchesOpenAPI checks every call, its query parameters and the JSON
// fields of its bodies against the server's /openapi.json, so the two
// cannot drift apart.
//
//	c := client.New("http://127.0.0.1:8420", client.WithAPIKey(key))
//	res, err := c.Add(ctx, client.AddRequest{UserID: "alice", Sync: true,
//		Messages: []client.Message{{Role: "user", Content: "I live in Paris."}}})
//	found, err := c.Search(ctx, client.SearchRequest{UserID: "alice", Query: "Where do I live?"})
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// Client calls one Lore server. Its zero value is not usable: use New.
type Client struct {
	base   string
	key    string
	tenant string
	http   *http.Client
}

// Option configures a Client.
type Option func(*Client)

// WithAPIKey sends key as Authorization: Bearer.
func WithAPIKey(key string) Option { return func(c *Client) { c.key = key } }

// WithTenant names the tenant (X-Lore-Tenant) on a server without keys;
// with a key, the key fixes it.
func WithTenant(tenant string) Option { return func(c *Client) { c.tenant = tenant } }

// WithHTTPClient replaces the default HTTP client (a 60 s timeout).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// New returns a client of the server at baseURL.
func New(baseURL string, opts ...Option) *Client {
	c := &Client{base: strings.TrimRight(baseURL, "/"), http: &http.Client{Timeout: 60 * time.Second}}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Scope names whose memories a call reads or writes: a user or an agent is
// required, a run narrows.
type Scope struct {
	UserID  string
	AgentID string
	RunID   string
}

func (s Scope) query() url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"user_id": s.UserID, "agent_id": s.AgentID, "run_id": s.RunID} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q
}

// Message is one message of an add.
type Message struct {
	Role      string         `json:"role"`
	Content   string         `json:"content"`
	Name      string         `json:"name,omitempty"`
	CreatedAt *time.Time     `json:"created_at,omitempty"`
	SourceID  string         `json:"source_id,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// AddRequest is the body of POST /v1/memories.
type AddRequest struct {
	Messages []Message      `json:"messages"`
	UserID   string         `json:"user_id,omitempty"`
	AgentID  string         `json:"agent_id,omitempty"`
	RunID    string         `json:"run_id,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	// Infer false stores the messages verbatim; nil means true.
	Infer *bool `json:"infer,omitempty"`
	// Sync extracts within the request instead of queueing a job.
	Sync bool `json:"sync,omitempty"`
}

// AddResult is the answer of an add: the job that will extract (queued),
// or what changed (sync or verbatim).
type AddResult struct {
	EpisodeIDs []string           `json:"episode_ids"`
	JobID      string             `json:"job_id,omitempty"`
	Results    []lore.MemoryEvent `json:"results,omitempty"`
}

// SearchRequest is the body of POST /v1/memories/search.
type SearchRequest struct {
	Query              string          `json:"query"`
	UserID             string          `json:"user_id,omitempty"`
	AgentID            string          `json:"agent_id,omitempty"`
	RunID              string          `json:"run_id,omitempty"`
	TopK               int             `json:"top_k,omitempty"`
	Filters            json.RawMessage `json:"filters,omitempty"`
	Threshold          float64         `json:"threshold,omitempty"`
	Explain            bool            `json:"explain,omitempty"`
	Types              []string        `json:"types,omitempty"`
	IncludeInvalidated bool            `json:"include_invalidated,omitempty"`
	Since              *time.Time      `json:"since,omitempty"`
	Until              *time.Time      `json:"until,omitempty"`
	QueryTime          *time.Time      `json:"query_time,omitempty"`
}

// Memory is a fact or an episode as the memory routes show it.
type Memory struct {
	ID        string         `json:"id"`
	Type      lore.DocKind   `json:"type"`
	Memory    string         `json:"memory"`
	Scope     lore.Scope     `json:"scope"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	CreatedAt time.Time      `json:"created_at"`
	UpdatedAt time.Time      `json:"updated_at"`
	Fact      *lore.Fact     `json:"fact,omitempty"`
	Episode   *lore.Episode  `json:"episode,omitempty"`
}

// MemoryPage is one page of GET /v1/memories.
type MemoryPage struct {
	Results  []Memory `json:"results"`
	Page     int      `json:"page"`
	PageSize int      `json:"page_size"`
	HasMore  bool     `json:"has_more"`
}

// ListRequest selects a page of memories.
type ListRequest struct {
	Scope
	Type               lore.DocKind // "", fact or episode
	Page, PageSize     int          // 0: the server's defaults
	IncludeInvalidated bool
}

// UpdateRequest is the body of PUT /v1/memories/{id}: new text or
// metadata, or what a fact states.
type UpdateRequest struct {
	Text           *string        `json:"text,omitempty"`
	Metadata       map[string]any `json:"metadata,omitempty"`
	Subject        *string        `json:"subject,omitempty"`
	Predicate      *string        `json:"predicate,omitempty"`
	Object         *string        `json:"object,omitempty"`
	ObjectIsEntity *bool          `json:"object_is_entity,omitempty"`
	UserID         string         `json:"user_id,omitempty"`
	AgentID        string         `json:"agent_id,omitempty"`
	RunID          string         `json:"run_id,omitempty"`
}

// Deleted is the answer of DELETE /v1/memories/{id}.
type Deleted struct {
	ID    string         `json:"id"`
	Type  lore.DocKind   `json:"type"`
	Event lore.EventKind `json:"event"`
}

// History is a memory's events, oldest first.
type History struct {
	MemoryID string              `json:"memory_id"`
	Results  []lore.HistoryEvent `json:"results"`
}

// Erased is the answer of an erase.
type Erased struct {
	Scope   lore.Scope       `json:"scope"`
	Deleted lore.DeleteStats `json:"deleted"`
}

// FactRequest is the body of POST /v1/facts: a triple the caller
// extracted itself.
type FactRequest struct {
	Subject        string         `json:"subject"`
	Predicate      string         `json:"predicate"`
	Object         string         `json:"object"`
	ObjectIsEntity *bool          `json:"object_is_entity,omitempty"`
	SubjectType    string         `json:"subject_type,omitempty"`
	ObjectType     string         `json:"object_type,omitempty"`
	Text           string         `json:"text,omitempty"`
	ValidAt        *time.Time     `json:"valid_at,omitempty"`
	InvalidAt      *time.Time     `json:"invalid_at,omitempty"`
	Confidence     *float64       `json:"confidence,omitempty"`
	Metadata       map[string]any `json:"metadata,omitempty"`
	UserID         string         `json:"user_id,omitempty"`
	AgentID        string         `json:"agent_id,omitempty"`
	RunID          string         `json:"run_id,omitempty"`
}

// FactWritten is the answer of POST /v1/facts.
type FactWritten struct {
	ID      string             `json:"id"`
	Event   lore.EventKind     `json:"event"`
	Fact    *lore.Fact         `json:"fact"`
	Results []lore.MemoryEvent `json:"results"`
}

// Usage is the tenant's LLM usage (GET /v1/usage).
type Usage struct {
	TenantID         string    `json:"tenant_id"`
	LLM              bool      `json:"llm"`
	Since            time.Time `json:"since"`
	Calls            int64     `json:"calls"`
	CacheHits        int64     `json:"cache_hits"`
	Failures         int64     `json:"failures"`
	PromptTokens     int64     `json:"prompt_tokens"`
	CompletionTokens int64     `json:"completion_tokens"`
}

// Add stores messages (POST /v1/memories).
func (c *Client) Add(ctx context.Context, req AddRequest) (*AddResult, error) {
	var out AddResult
	return &out, c.do(ctx, http.MethodPost, "/v1/memories", nil, req, &out)
}

// Search asks the pipeline (POST /v1/memories/search).
func (c *Client) Search(ctx context.Context, req SearchRequest) (*retrieve.Response, error) {
	var out retrieve.Response
	return &out, c.do(ctx, http.MethodPost, "/v1/memories/search", nil, req, &out)
}

// List returns a page of memories (GET /v1/memories).
func (c *Client) List(ctx context.Context, req ListRequest) (*MemoryPage, error) {
	q := req.Scope.query()
	if req.Type != "" {
		q.Set("type", string(req.Type))
	}
	if req.Page > 0 {
		q.Set("page", strconv.Itoa(req.Page))
	}
	if req.PageSize > 0 {
		q.Set("page_size", strconv.Itoa(req.PageSize))
	}
	if req.IncludeInvalidated {
		q.Set("include_invalidated", "true")
	}
	var out MemoryPage
	return &out, c.do(ctx, http.MethodGet, "/v1/memories", q, nil, &out)
}

// Get returns one memory (GET /v1/memories/{id}).
func (c *Client) Get(ctx context.Context, sc Scope, id string) (*Memory, error) {
	var out Memory
	return &out, c.do(ctx, http.MethodGet, "/v1/memories/"+url.PathEscape(id), sc.query(), nil, &out)
}

// Update changes a memory (PUT /v1/memories/{id}).
func (c *Client) Update(ctx context.Context, id string, req UpdateRequest) (*Memory, error) {
	var out Memory
	return &out, c.do(ctx, http.MethodPut, "/v1/memories/"+url.PathEscape(id), nil, req, &out)
}

// Delete removes a memory (DELETE /v1/memories/{id}).
func (c *Client) Delete(ctx context.Context, sc Scope, id string) (*Deleted, error) {
	var out Deleted
	return &out, c.do(ctx, http.MethodDelete, "/v1/memories/"+url.PathEscape(id), sc.query(), nil, &out)
}

// History returns a memory's events (GET /v1/memories/{id}/history).
func (c *Client) History(ctx context.Context, sc Scope, id string) (*History, error) {
	var out History
	return &out, c.do(ctx, http.MethodGet, "/v1/memories/"+url.PathEscape(id)+"/history", sc.query(), nil, &out)
}

// Erase erases everything in the scope (DELETE /v1/memories).
func (c *Client) Erase(ctx context.Context, sc Scope) (*Erased, error) {
	var out Erased
	return &out, c.do(ctx, http.MethodDelete, "/v1/memories", sc.query(), nil, &out)
}

// AddFact writes a triple (POST /v1/facts).
func (c *Client) AddFact(ctx context.Context, req FactRequest) (*FactWritten, error) {
	var out FactWritten
	return &out, c.do(ctx, http.MethodPost, "/v1/facts", nil, req, &out)
}

// Job returns a background job (GET /v1/jobs/{id}).
func (c *Client) Job(ctx context.Context, sc Scope, id string) (*lore.Job, error) {
	var out lore.Job
	return &out, c.do(ctx, http.MethodGet, "/v1/jobs/"+url.PathEscape(id), sc.query(), nil, &out)
}

// WaitJob polls a job until it is done or failed, or ctx ends.
func (c *Client) WaitJob(ctx context.Context, sc Scope, id string) (*lore.Job, error) {
	for {
		job, err := c.Job(ctx, sc, id)
		if err != nil || job.Status == lore.JobDone || job.Status == lore.JobFailed {
			return job, err
		}
		select {
		case <-ctx.Done():
			return job, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Usage returns the tenant's LLM usage (GET /v1/usage).
func (c *Client) Usage(ctx context.Context) (*Usage, error) {
	var out Usage
	return &out, c.do(ctx, http.MethodGet, "/v1/usage", nil, nil, &out)
}

// Health checks that the server answers (GET /healthz).
func (c *Client) Health(ctx context.Context) error {
	var out map[string]any
	return c.do(ctx, http.MethodGet, "/healthz", nil, nil, &out)
}

// Error is a server's error answer: its HTTP status and the coded error it
// carried. errors.As finds the *lore.Error inside, so lore.ErrorCode works.
type Error struct {
	Status    int
	Method    string
	Path      string
	RequestID string
	Err       *lore.Error
}

func (e *Error) Error() string {
	return fmt.Sprintf("lore: %s %s: %d %s: %s", e.Method, e.Path, e.Status, e.Err.Code, e.Err.Message)
}

// Unwrap returns the coded error.
func (e *Error) Unwrap() error { return e.Err }

// do sends one request with a JSON body (nil: none) and decodes a 2xx
// answer into out.
func (c *Client) do(ctx context.Context, method, path string, q url.Values, body, out any) error {
	u := c.base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("lore: encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return fmt.Errorf("lore: %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if c.tenant != "" {
		req.Header.Set("X-Lore-Tenant", c.tenant)
	}
	if id := lore.RequestID(ctx); id != "" {
		req.Header.Set("X-Request-ID", id)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return lore.Errorf(lore.EUNAVAILABLE, "lore server %s: %v", c.base, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("lore: read %s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		var eb struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		le := &lore.Error{Code: lore.EINTERNAL, Message: strings.TrimSpace(string(raw))}
		if json.Unmarshal(raw, &eb) == nil && eb.Error.Code != "" {
			le = &lore.Error{Code: eb.Error.Code, Message: eb.Error.Message}
		}
		return &Error{Status: resp.StatusCode, Method: method, Path: path, RequestID: resp.Header.Get("X-Request-ID"), Err: le}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("lore: decode %s %s: %w", method, path, err)
	}
	return nil
}
