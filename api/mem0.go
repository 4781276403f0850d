package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// The mem0-compatible routes answer the paths and shapes of mem0's platform
// API (as the mem0ai Python SDK calls them), so that MemoryClient and
// AsyncMemoryClient work against Lore unchanged. Every mem0 path ends in a
// slash, so none collides with Lore's own routes, whose shapes stay as they
// are. api/README.md § mem0 compatibility maps the semantics.
//
// A mem0 memory is a fact, or an episode stored verbatim (infer: false);
// the conversation turns facts are extracted from stay reachable through
// Lore's own routes.

// mem0ListCap bounds how many memories of one scope a mem0 listing reads:
// mem0's listing reports a total count, which Lore computes by reading them.
const mem0ListCap = 10000

// mem0ScopeCap bounds how many scopes the entity listing reads.
const mem0ScopeCap = 10000

// mem0Ping answers the SDK's key check on construction. The SDK refuses
// to start without an org_id and a project_id: both are the key's tenant,
// mem0's organisations and projects having no other counterpart in Lore
// (their management routes are not served).
func (s *Server) mem0Ping(c *gin.Context) {
	tenant, err := s.tenant(c, "")
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "org_id": tenant, "project_id": tenant, "user_email": nil, "tenant_id": tenant})
}

// mem0Unsupported refuses mem0 options Lore cannot honour, naming the
// first one given.
func mem0Unsupported(opts map[string]bool) error {
	names := make([]string, 0, len(opts))
	for k, set := range opts {
		if set {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return lore.Errorf(lore.EINVALID, "%s is not supported by Lore's mem0 compatibility layer (api/README.md § mem0 compatibility)", names[0])
}

// given reports whether an optional raw JSON field holds a value.
func given(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t != "" && t != "null" && t != `""` && t != "[]" && t != "{}"
}

// mem0Message is one message of a mem0 add.
type mem0Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	Name    string `json:"name"`
}

// mem0AddRequest is the body of mem0's add (v3 and v1).
type mem0AddRequest struct {
	Messages  []mem0Message   `json:"messages"`
	UserID    string          `json:"user_id"`
	AgentID   string          `json:"agent_id"`
	RunID     string          `json:"run_id"`
	AppID     string          `json:"app_id"`
	Filters   json.RawMessage `json:"filters"`
	Metadata  map[string]any  `json:"metadata"`
	Infer     *bool           `json:"infer"`
	AsyncMode *bool           `json:"async_mode"`
	// Timestamp dates the messages (Unix seconds).
	Timestamp   *float64 `json:"timestamp"`
	EnableGraph bool     `json:"enable_graph"`
	// Accepted and without effect: the key fixes the tenant; the answer's
	// shape follows the route.
	Version      string `json:"version"`
	OutputFormat string `json:"output_format"`
	OrgID        string `json:"org_id"`
	ProjectID    string `json:"project_id"`
	// Refused when given: Lore has no equivalent.
	ExpirationDate          json.RawMessage `json:"expiration_date"`
	Immutable               bool            `json:"immutable"`
	Includes                json.RawMessage `json:"includes"`
	Excludes                json.RawMessage `json:"excludes"`
	CustomCategories        json.RawMessage `json:"custom_categories"`
	CustomInstructions      json.RawMessage `json:"custom_instructions"`
	AgentCustomInstructions json.RawMessage `json:"agent_custom_instructions"`
	StructuredDataSchema    json.RawMessage `json:"structured_data_schema"`
	PromptProfileID         json.RawMessage `json:"prompt_profile_id"`
}

// mem0Scope resolves the scope of a mem0 request from its top-level
// fields and its filters.
func (s *Server) mem0Scope(c *gin.Context, user, agent, run, app string, filters json.RawMessage) (lore.Scope, *mem0Filters, error) {
	f := &mem0Filters{}
	if app != "" {
		return lore.Scope{}, nil, lore.Errorf(lore.EINVALID, "app_id is not supported: Lore scopes memories by tenant (the API key), user, agent and run")
	}
	for _, e := range []struct{ field, v string }{{"user_id", user}, {"agent_id", agent}, {"run_id", run}} {
		if err := f.entity(e.field, e.v); err != nil {
			return lore.Scope{}, nil, err
		}
	}
	if err := parseMem0Filters(filters, f); err != nil {
		return lore.Scope{}, nil, err
	}
	sc, err := s.scope(c, scopeParams{UserID: f.UserID, AgentID: f.AgentID, RunID: f.RunID})
	return sc, f, err
}

func (s *Server) mem0Add(c *gin.Context) {
	var req mem0AddRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.mem0Error(c, err)
		return
	}
	err := mem0Unsupported(map[string]bool{
		"expiration_date": given(req.ExpirationDate), "immutable": req.Immutable,
		"includes": given(req.Includes), "excludes": given(req.Excludes),
		"custom_categories": given(req.CustomCategories), "custom_instructions": given(req.CustomInstructions),
		"agent_custom_instructions": given(req.AgentCustomInstructions), "structured_data_schema": given(req.StructuredDataSchema),
		"prompt_profile_id": given(req.PromptProfileID),
	})
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	scope, _, err := s.mem0Scope(c, req.UserID, req.AgentID, req.RunID, req.AppID, req.Filters)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	if len(req.Messages) == 0 {
		s.mem0Error(c, lore.Errorf(lore.EINVALID, "messages is required"))
		return
	}
	var at *time.Time
	if req.Timestamp != nil {
		t := time.UnixMicro(int64(*req.Timestamp * 1e6)).UTC()
		at = &t
	}
	msgs := make([]ingest.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = ingest.Message{Role: m.Role, Content: m.Content, Name: m.Name, CreatedAt: at}
	}
	infer := req.Infer == nil || *req.Infer
	res, err := s.Ingest.Add(c.Request.Context(), ingest.AddRequest{
		Scope: scope, Messages: msgs, Metadata: req.Metadata, Infer: infer,
		Sync: req.AsyncMode != nil && !*req.AsyncMode,
	})
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	legacyArray := c.FullPath() == "/v1/memories/" && req.OutputFormat == "v1.0"
	if res.JobID != "" {
		c.JSON(http.StatusOK, gin.H{"message": "Memory processing has been queued for background execution", "status": "PENDING", "event_id": res.JobID})
		return
	}
	events := mem0Events(res.Events)
	if legacyArray {
		c.JSON(http.StatusOK, events)
		return
	}
	c.JSON(http.StatusOK, gin.H{"message": "Memories stored", "status": "SUCCEEDED", "event_id": nil, "results": events})
}

// mem0SearchRequest is the body of mem0's search (v1, v2 and v3).
type mem0SearchRequest struct {
	Query     string          `json:"query"`
	Filters   json.RawMessage `json:"filters"`
	UserID    string          `json:"user_id"`
	AgentID   string          `json:"agent_id"`
	RunID     string          `json:"run_id"`
	AppID     string          `json:"app_id"`
	TopK      *int            `json:"top_k"`
	Limit     *int            `json:"limit"`
	Threshold *float64        `json:"threshold"`
	Fields    []string        `json:"fields"`
	// Metadata filters by metadata, as filters.metadata does.
	Metadata    json.RawMessage `json:"metadata"`
	ShowExpired bool            `json:"show_expired"`
	// ReferenceDate asks as of a moment (Lore's query_time).
	ReferenceDate json.RawMessage `json:"reference_date"`
	EnableGraph   bool            `json:"enable_graph"`
	// Accepted and without effect: Lore always fuses BM25, vectors and the
	// graph, and its reranker is configured on the server.
	Rerank         *bool  `json:"rerank"`
	KeywordSearch  *bool  `json:"keyword_search"`
	FilterMemories *bool  `json:"filter_memories"`
	LatestOnly     *bool  `json:"latest_only"`
	Version        string `json:"version"`
	OutputFormat   string `json:"output_format"`
	OrgID          string `json:"org_id"`
	ProjectID      string `json:"project_id"`
	// Refused when given.
	Categories []string `json:"categories"`
}

// referenceTime reads mem0's reference_date: Unix seconds, YYYY-MM-DD or
// an ISO time.
func referenceTime(raw json.RawMessage) (*time.Time, error) {
	if !given(raw) {
		return nil, nil
	}
	var n float64
	if err := json.Unmarshal(raw, &n); err == nil {
		t := time.UnixMicro(int64(n * 1e6)).UTC()
		return &t, nil
	}
	var str string
	if err := json.Unmarshal(raw, &str); err != nil {
		return nil, lore.Errorf(lore.EINVALID, "reference_date must be a Unix time, YYYY-MM-DD or an ISO time")
	}
	t, _, err := parseMem0Date("reference_date", str)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func (s *Server) mem0Search(c *gin.Context) {
	var req mem0SearchRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.mem0Error(c, err)
		return
	}
	if err := mem0Unsupported(map[string]bool{"categories": len(req.Categories) > 0}); err != nil {
		s.mem0Error(c, err)
		return
	}
	scope, f, err := s.mem0Scope(c, req.UserID, req.AgentID, req.RunID, req.AppID, req.Filters)
	if err == nil && given(req.Metadata) {
		err = f.add("", map[string]json.RawMessage{"metadata": req.Metadata})
	}
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	if strings.TrimSpace(req.Query) == "" {
		s.mem0Error(c, lore.Errorf(lore.EINVALID, "query is required"))
		return
	}
	if err := checkQuery(req.Query); err != nil {
		s.mem0Error(c, err)
		return
	}
	topK := retrieve.DefaultTopK
	for _, k := range []*int{req.Limit, req.TopK} {
		if k != nil {
			if *k < 1 || *k > maxTopK {
				s.mem0Error(c, lore.Errorf(lore.EINVALID, "top_k must be between 1 and %d, got %d", maxTopK, *k))
				return
			}
			topK = *k
		}
	}
	filter, err := f.loreFilter()
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	qt, err := referenceTime(req.ReferenceDate)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	// Conversation turns are not mem0 memories and are dropped below, so
	// the pipeline is asked for more than top_k.
	rreq := retrieve.Request{Scope: scope, Query: req.Query, TopK: min(maxTopK, 3*topK), Filter: filter,
		Since: f.Since, Until: f.Until, IncludeInvalidated: req.ShowExpired, Explain: true}
	if req.Threshold != nil {
		rreq.Threshold = *req.Threshold
	}
	if qt != nil {
		rreq.QueryTime = *qt
	}
	resp, err := s.Search.Search(c.Request.Context(), rreq)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	now := time.Now()
	found := []mem0Memory{}
	for _, r := range resp.Results {
		if r.Fact == nil && (r.Episode == nil || !r.Episode.Verbatim) {
			continue
		}
		if len(found) == topK {
			break
		}
		found = append(found, mem0FromResult(r, now))
	}
	results, err := pickFields(found, req.Fields)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	// v3 answers {"results"}; v1 and v2 answer a bare list unless asked
	// for the v1.1 envelope.
	if !strings.HasPrefix(c.FullPath(), "/v3/") && req.OutputFormat != "v1.1" {
		c.JSON(http.StatusOK, results)
		return
	}
	out := gin.H{"results": results}
	if req.EnableGraph {
		out["relations"] = relations(found, false)
	}
	c.JSON(http.StatusOK, out)
}

// mem0ListRequest is the body of mem0's get_all (v2 and v3).
type mem0ListRequest struct {
	Filters     json.RawMessage `json:"filters"`
	Page        *int            `json:"page"`
	PageSize    *int            `json:"page_size"`
	ShowExpired bool            `json:"show_expired"`
	StartDate   string          `json:"start_date"`
	EndDate     string          `json:"end_date"`
	Fields      []string        `json:"fields"`
	EnableGraph bool            `json:"enable_graph"`
	// Accepted and without effect.
	LatestOnly   *bool  `json:"latest_only"`
	Version      string `json:"version"`
	OutputFormat string `json:"output_format"`
	OrgID        string `json:"org_id"`
	ProjectID    string `json:"project_id"`
	// Refused when given.
	Categories []string `json:"categories"`
	Keywords   string   `json:"keywords"`
}

// mem0List answers POST /v2/memories/ and /v3/memories/ (get_all).
func (s *Server) mem0List(c *gin.Context) {
	var req mem0ListRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.mem0Error(c, err)
		return
	}
	if err := mem0Unsupported(map[string]bool{"categories": len(req.Categories) > 0, "keywords": req.Keywords != ""}); err != nil {
		s.mem0Error(c, err)
		return
	}
	scope, f, err := s.mem0Scope(c, "", "", "", "", req.Filters)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	if err := f.dates(req.StartDate, req.EndDate); err != nil {
		s.mem0Error(c, err)
		return
	}
	page, size, err := mem0Page(c, req.Page, req.PageSize)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	s.answerList(c, scope, f, req.ShowExpired, page, size, req.Fields, req.EnableGraph, true)
}

// mem0ListV1 answers GET /v1/memories/ (mem0's v1 get_all): a bare list,
// or mem0's page envelope when page and page_size are both given.
func (s *Server) mem0ListV1(c *gin.Context) {
	scope, f, err := s.mem0Scope(c, c.Query("user_id"), c.Query("agent_id"), c.Query("run_id"), c.Query("app_id"), nil)
	if err == nil {
		err = f.dates(c.Query("start_date"), c.Query("end_date"))
	}
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	_, paged := c.GetQuery("page")
	_, sized := c.GetQuery("page_size")
	page, size, err := mem0Page(c, nil, nil)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	if limit := c.Query("limit"); limit != "" && !(paged && sized) {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 || n > mem0ListCap {
			s.mem0Error(c, lore.Errorf(lore.EINVALID, "limit must be an integer between 1 and %d, got %q", mem0ListCap, limit))
			return
		}
		page, size = 1, n
	}
	var fields []string
	if raw := c.Query("fields"); raw != "" {
		fields = strings.Split(raw, ",")
	}
	s.answerList(c, scope, f, false, page, size, fields, false, paged && sized)
}

// dates reads get_all's start_date and end_date (both inclusive days).
func (f *mem0Filters) dates(start, end string) error {
	for _, d := range []struct{ op, v string }{{"gte", start}, {"lte", end}} {
		if d.v == "" {
			continue
		}
		raw, _ := json.Marshal(map[string]string{d.op: d.v})
		if err := f.timeRange(map[string]string{"gte": "start_date", "lte": "end_date"}[d.op], raw); err != nil {
			return err
		}
	}
	return nil
}

// mem0Page reads page and page_size from the query, else the body.
func mem0Page(c *gin.Context, bodyPage, bodySize *int) (int, int, error) {
	page, size := 1, 100
	if bodyPage != nil {
		page = *bodyPage
	}
	if bodySize != nil {
		size = *bodySize
	}
	var err error
	if page, err = queryInt(c, "page", page, 1, 0); err != nil {
		return 0, 0, err
	}
	if size, err = queryInt(c, "page_size", size, 1, maxPageSize); err != nil {
		return 0, 0, err
	}
	if page < 1 || size < 1 || size > maxPageSize {
		return 0, 0, lore.Errorf(lore.EINVALID, "page must be at least 1 and page_size between 1 and %d", maxPageSize)
	}
	return page, size, checkPage(page, size)
}

// answerList answers a listing: facts (newest first) and verbatim episodes
// (oldest first) that match the filters, one page of them, with mem0's
// envelope when envelope is set.
func (s *Server) answerList(c *gin.Context, scope lore.Scope, f *mem0Filters, expired bool, page, size int, fields []string, graph, envelope bool) {
	all, err := s.mem0Memories(c.Request.Context(), scope, f, expired)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	start := min((page-1)*size, len(all))
	items := all[start:min(start+size, len(all))]
	results, err := pickFields(items, fields)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	if !envelope {
		c.JSON(http.StatusOK, results)
		return
	}
	link := func(p int) *string {
		u := url.URL{Path: c.Request.URL.Path, RawQuery: url.Values{"page": {strconv.Itoa(p)}, "page_size": {strconv.Itoa(size)}}.Encode()}
		s := u.String()
		return &s
	}
	out := gin.H{"count": len(all), "next": nil, "previous": nil, "results": results}
	if start+size < len(all) {
		out["next"] = link(page + 1)
	}
	if page > 1 {
		out["previous"] = link(page - 1)
	}
	if graph {
		out["relations"] = relations(items, true)
	}
	c.JSON(http.StatusOK, out)
}

// mem0Memories reads the scope's mem0 memories that match f, at most
// mem0ListCap of each kind.
func (s *Server) mem0Memories(ctx context.Context, scope lore.Scope, f *mem0Filters, expired bool) ([]mem0Memory, error) {
	filter, err := f.loreFilter()
	if err != nil {
		return nil, err
	}
	facts, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: scope, IncludeInvalidated: expired, Since: f.Since, Until: f.Until, Limit: mem0ListCap})
	if err != nil {
		return nil, fmt.Errorf("api: mem0 list facts: %w", err)
	}
	now := time.Now()
	out := []mem0Memory{}
	for _, fact := range facts {
		if filter.Match(fact.Metadata) {
			out = append(out, mem0FromFact(fact, now))
		}
	}
	eps, err := s.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, Since: f.Since, Until: f.Until, Limit: mem0ListCap})
	if err != nil {
		return nil, fmt.Errorf("api: mem0 list episodes: %w", err)
	}
	for _, ep := range eps {
		if ep.Verbatim && filter.Match(ep.Metadata) {
			out = append(out, mem0FromEpisode(ep))
		}
	}
	return out, nil
}

// pinned reports whether the request's key is pinned to a user or agent.
func pinned(ctx context.Context) bool {
	k := KeyFrom(ctx)
	return k != nil && (k.UserID != "" || k.AgentID != "")
}

// directory returns the store's tenant-wide lookups.
func (s *Server) directory() (lore.Directory, error) {
	d, ok := s.Store.(lore.Directory)
	if !ok {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "this store cannot look memories up across a tenant")
	}
	return d, nil
}

// mem0MemoryScope resolves the scope of GET/PUT/DELETE /v1/memories/{id}/,
// which mem0 clients send without a user: the query's user or agent when
// given, the key's pin, else the scope the store holds the id under.
func (s *Server) mem0MemoryScope(c *gin.Context, id string) (lore.Scope, error) {
	if c.Query("user_id") != "" || c.Query("agent_id") != "" || pinned(c.Request.Context()) {
		return s.queryScope(c)
	}
	tenant, err := s.tenant(c, c.Query("tenant_id"))
	if err != nil {
		return lore.Scope{}, err
	}
	dir, err := s.directory()
	if err != nil {
		return lore.Scope{}, err
	}
	sc, err := dir.ScopeOf(c.Request.Context(), tenant, id)
	if err != nil {
		return lore.Scope{}, err
	}
	return s.scope(c, scopeParams{TenantID: tenant, UserID: sc.UserID, AgentID: sc.AgentID})
}

func (s *Server) mem0Get(c *gin.Context) {
	id := c.Param("id")
	scope, err := s.mem0MemoryScope(c, id)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	f, ep, err := s.findMemory(c.Request.Context(), scope, id)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	if f != nil {
		c.JSON(http.StatusOK, mem0FromFact(f, time.Now()))
		return
	}
	c.JSON(http.StatusOK, mem0FromEpisode(ep))
}

// mem0UpdateRequest is the body of mem0's update: text (or the older
// SDKs' data), metadata, and expiration_date, which closes a fact's
// validity on that day.
type mem0UpdateRequest struct {
	Text           *string         `json:"text"`
	Data           *string         `json:"data"`
	Metadata       map[string]any  `json:"metadata"`
	ExpirationDate json.RawMessage `json:"expiration_date"`
	Timestamp      json.RawMessage `json:"timestamp"`
}

func (s *Server) mem0Update(c *gin.Context) {
	var req mem0UpdateRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.mem0Error(c, err)
		return
	}
	if given(req.Timestamp) {
		s.mem0Error(c, lore.Errorf(lore.EINVALID, "timestamp is not supported on update: Lore keeps when a memory was stored"))
		return
	}
	text := req.Text
	if req.Data != nil {
		if text != nil && *text != *req.Data {
			s.mem0Error(c, lore.Errorf(lore.EINVALID, "text and data differ; send one of them"))
			return
		}
		text = req.Data
	}
	if text != nil {
		trimmed := strings.TrimSpace(*text)
		if trimmed == "" {
			s.mem0Error(c, lore.Errorf(lore.EINVALID, "text is empty"))
			return
		}
		text = &trimmed
		if err := s.checkContent("text", text); err != nil {
			s.mem0Error(c, err)
			return
		}
	}
	id := c.Param("id")
	scope, err := s.mem0MemoryScope(c, id)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	ctx := c.Request.Context()
	f, ep, err := s.findMemory(ctx, scope, id)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	expiry, clear, err := expirationDate(req.ExpirationDate)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	if ep != nil {
		if expiry != nil {
			s.mem0Error(c, lore.Errorf(lore.EINVALID, "expiration_date applies to facts only; memory %q is a verbatim message", id))
			return
		}
		if text == nil && req.Metadata == nil {
			s.mem0Error(c, lore.Errorf(lore.EINVALID, "text or metadata is required"))
			return
		}
		updated, err := s.changeEpisode(ctx, scope, ep, text, req.Metadata)
		if err != nil {
			s.mem0Error(c, err)
			return
		}
		c.JSON(http.StatusOK, mem0FromEpisode(updated))
		return
	}
	if clear && !f.Current(time.Now()) {
		s.mem0Error(c, lore.Errorf(lore.EINVALID, "expiration_date cannot be cleared: Lore keeps a closed fact closed; add the memory again to state it anew"))
		return
	}
	if text == nil && req.Metadata == nil && expiry == nil && !clear {
		s.mem0Error(c, lore.Errorf(lore.EINVALID, "text, metadata or expiration_date is required"))
		return
	}
	if text != nil || req.Metadata != nil {
		if f, err = s.Ingest.ChangeFact(ctx, scope, f.ID, ingest.FactChange{Text: text, Metadata: req.Metadata}); err != nil {
			s.mem0Error(c, err)
			return
		}
	}
	if expiry != nil {
		f, err = s.Store.UpdateFact(ctx, scope, f.ID, lore.FactUpdate{InvalidAt: expiry, Event: lore.EventInvalidate,
			Actor: apiActor, Reason: "expiration_date set through the mem0 API"})
		if err != nil {
			s.mem0Error(c, err)
			return
		}
	}
	c.JSON(http.StatusOK, mem0FromFact(f, time.Now()))
}

// expirationDate reads an update's expiration_date: a day (the fact stops
// being valid at its start), or null (clear).
func expirationDate(raw json.RawMessage) (day *time.Time, clear bool, err error) {
	t := strings.TrimSpace(string(raw))
	if t == "" {
		return nil, false, nil
	}
	if t == "null" {
		return nil, true, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false, lore.Errorf(lore.EINVALID, "expiration_date must be YYYY-MM-DD or null")
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return nil, false, lore.Errorf(lore.EINVALID, "expiration_date must be YYYY-MM-DD, got %q", s)
	}
	return &d, false, nil
}

func (s *Server) mem0Delete(c *gin.Context) {
	id := c.Param("id")
	scope, err := s.mem0MemoryScope(c, id)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	if _, err := s.removeMemory(c.Request.Context(), scope, id); err != nil {
		s.mem0Error(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"message": "Memory deleted successfully!"})
}

func (s *Server) mem0History(c *gin.Context) {
	id := c.Param("id")
	scope, err := s.mem0MemoryScope(c, id)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	events, err := s.Store.History(c.Request.Context(), scope, id)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	c.JSON(http.StatusOK, mem0History(events))
}

// mem0DeleteAll answers DELETE /v1/memories/: it erases the user, agent or
// run named in the query, as DELETE /v1/memories does. With nothing named
// it refuses rather than erase a tenant.
func (s *Server) mem0DeleteAll(c *gin.Context) {
	user, agent, run := c.Query("user_id"), c.Query("agent_id"), c.Query("run_id")
	if c.Query("app_id") != "" {
		s.mem0Error(c, lore.Errorf(lore.EINVALID, "app_id is not supported: Lore scopes memories by tenant (the API key), user, agent and run"))
		return
	}
	if user == "" && agent == "" && run == "" && !pinned(c.Request.Context()) {
		s.mem0Error(c, lore.Errorf(lore.EINVALID, "name user_id, agent_id or run_id; reset() or DELETE /v1/tenants/{tenant_id} erases a whole tenant"))
		return
	}
	if user == "" && agent == "" && !pinned(c.Request.Context()) {
		if err := s.eraseEntity(c, "run", run); err != nil {
			s.mem0Error(c, err)
			return
		}
	} else {
		scope, err := s.queryScope(c)
		if err == nil {
			_, err = s.Ingest.Erase(c.Request.Context(), scope)
		}
		if err != nil {
			s.mem0Error(c, err)
			return
		}
	}
	c.JSON(http.StatusOK, gin.H{"message": "Memories deleted successfully!"})
}

// mem0Entity is a user, agent or run in mem0's entity listing.
type mem0Entity struct {
	ID            string         `json:"id"`
	Name          string         `json:"name"`
	Type          string         `json:"type"`
	Owner         string         `json:"owner"`
	Metadata      map[string]any `json:"metadata"`
	TotalMemories int            `json:"total_memories"`
	CreatedAt     time.Time      `json:"created_at"`
	UpdatedAt     time.Time      `json:"updated_at"`
}

// visibleScopes returns the tenant's scopes the request's key may see.
func (s *Server) visibleScopes(c *gin.Context) ([]lore.ScopeSummary, error) {
	tenant, err := s.tenant(c, c.Query("tenant_id"))
	if err != nil {
		return nil, err
	}
	dir, err := s.directory()
	if err != nil {
		return nil, err
	}
	all, err := dir.Scopes(c.Request.Context(), tenant, mem0ScopeCap)
	if err != nil {
		return nil, err
	}
	key := KeyFrom(c.Request.Context())
	return slices.DeleteFunc(all, func(sum lore.ScopeSummary) bool {
		return key != nil && ((key.UserID != "" && sum.Scope.UserID != key.UserID) || (key.AgentID != "" && sum.Scope.AgentID != key.AgentID))
	}), nil
}

// mem0Entities answers GET /v1/entities/ (the SDK's users()): every user,
// agent and run that holds memories.
func (s *Server) mem0Entities(c *gin.Context) {
	scopes, err := s.visibleScopes(c)
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	byKey := map[string]*mem0Entity{}
	var order []string
	totals := map[string]int{}
	for _, sum := range scopes {
		for _, e := range []struct{ typ, name string }{{"user", sum.Scope.UserID}, {"agent", sum.Scope.AgentID}, {"run", sum.Scope.RunID}} {
			if e.name == "" {
				continue
			}
			k := e.typ + ":" + e.name
			ent, ok := byKey[k]
			if !ok {
				ent = &mem0Entity{ID: k, Name: e.name, Type: e.typ, Owner: sum.Scope.TenantID, CreatedAt: sum.FirstAt, UpdatedAt: sum.LastAt}
				byKey[k] = ent
				order = append(order, k)
				totals[e.typ]++
			}
			ent.TotalMemories += sum.Memories
			if sum.FirstAt.Before(ent.CreatedAt) {
				ent.CreatedAt = sum.FirstAt
			}
			if sum.LastAt.After(ent.UpdatedAt) {
				ent.UpdatedAt = sum.LastAt
			}
		}
	}
	results := make([]mem0Entity, 0, len(order))
	for _, k := range order {
		results = append(results, *byKey[k])
	}
	c.JSON(http.StatusOK, gin.H{"count": len(results), "next": nil, "previous": nil, "results": results,
		"total_users": totals["user"], "total_agents": totals["agent"], "total_apps": 0, "total_runs": totals["run"]})
}

// mem0DeleteEntity answers DELETE /v2/entities/{type}/{name}/: it erases a
// user, an agent's own memories, or a run in every scope that has it.
func (s *Server) mem0DeleteEntity(c *gin.Context) {
	if err := s.eraseEntity(c, c.Param("type"), c.Param("name")); err != nil {
		s.mem0Error(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"message": "Entity deleted successfully."})
}

// eraseEntity erases a user, an agent's own memories (stored with no
// user), or a run wherever the request's key sees it.
func (s *Server) eraseEntity(c *gin.Context, typ, name string) error {
	if err := lore.ValidateID("entity_id", name); err != nil {
		return err
	}
	ctx := c.Request.Context()
	switch typ {
	case "user", "agent":
		// An agent's erase follows Lore's scope rule: the agent's own
		// memories, never those of the users who talk to it.
		p := scopeParams{UserID: name}
		if typ == "agent" {
			p = scopeParams{AgentID: name}
		}
		scope, err := s.scope(c, p)
		if err != nil {
			return err
		}
		_, err = s.Ingest.Erase(ctx, scope)
		return err
	case "run":
	case "app":
		return lore.Errorf(lore.EINVALID, "entity type app is not supported: Lore has no apps")
	default:
		return lore.Errorf(lore.EINVALID, "entity type must be user, agent or run, got %q", typ)
	}
	scopes, err := s.visibleScopes(c)
	if err != nil {
		return err
	}
	for _, sum := range scopes {
		if sum.Scope.RunID != name {
			continue
		}
		if _, err := s.Ingest.Erase(ctx, sum.Scope); err != nil {
			return err
		}
	}
	return nil
}

// mem0EventStatus maps a job's status onto mem0's event statuses.
func mem0EventStatus(st lore.JobStatus) string {
	switch st {
	case lore.JobDone:
		return "SUCCEEDED"
	case lore.JobFailed:
		return "FAILED"
	case lore.JobRunning, lore.JobRetrying:
		return "RUNNING"
	default:
		return "PENDING"
	}
}

// mem0Event answers GET /v1/event/{id}/: the extraction job an add queued,
// looked up in the tenant, or in the user's or agent's scope when the
// query or the key names one.
func (s *Server) mem0Event(c *gin.Context) {
	id := c.Param("id")
	ctx := c.Request.Context()
	var job *lore.Job
	var err error
	if c.Query("user_id") != "" || c.Query("agent_id") != "" || pinned(ctx) {
		var scope lore.Scope
		if scope, err = s.queryScope(c); err == nil {
			job, err = s.scopedJob(ctx, scope, id)
		}
	} else {
		var tenant string
		if tenant, err = s.tenant(c, c.Query("tenant_id")); err == nil {
			if err = lore.ValidateID("id", id); err == nil {
				job, err = s.Store.GetJob(ctx, tenant, id)
			}
		}
	}
	if err != nil {
		s.mem0Error(c, err)
		return
	}
	var errMsg *string
	if job.Error != "" {
		errMsg = &job.Error
	}
	c.JSON(http.StatusOK, gin.H{"id": job.ID, "event_type": "ADD", "status": mem0EventStatus(job.Status),
		"results": mem0Events(job.Events), "created_at": job.CreatedAt, "updated_at": job.UpdatedAt, "error": errMsg})
}
