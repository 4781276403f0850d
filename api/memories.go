package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// apiActor is the actor recorded in history for changes made through the API.
const apiActor = "api"

// Page sizes of GET /v1/memories.
const (
	defaultPageSize = 50
	maxPageSize     = 1000
)

// maxTopK bounds top_k of a search.
const maxTopK = 1000

// messageIn is one message of POST /v1/memories. Times are strings so that a
// bad one is reported with the field it came from.
type messageIn struct {
	Role      string         `json:"role"`
	Content   string         `json:"content"`
	Name      string         `json:"name"`
	CreatedAt string         `json:"created_at"`
	SourceID  string         `json:"source_id"`
	Metadata  map[string]any `json:"metadata"`
}

// addRequest is the body of POST /v1/memories.
type addRequest struct {
	Messages []messageIn    `json:"messages"`
	TenantID string         `json:"tenant_id"`
	UserID   string         `json:"user_id"`
	AgentID  string         `json:"agent_id"`
	RunID    string         `json:"run_id"`
	Metadata map[string]any `json:"metadata"`
	// Infer and Sync are pointers because absent and false differ: infer
	// defaults to true.
	Infer *bool `json:"infer"`
	Sync  *bool `json:"sync"`
	// ExpiresAt (RFC 3339) or mem0's ExpirationDate (a date, expiring at
	// its start, UTC) is when the memories stop being returned.
	ExpiresAt      string `json:"expires_at"`
	ExpirationDate string `json:"expiration_date"`
}

// addAccepted is the 202 answer of an add whose extraction was queued.
type addAccepted struct {
	EpisodeIDs []string `json:"episode_ids"`
	JobID      string   `json:"job_id"`
}

// addDone is the 200 answer of an add that finished within the request.
type addDone struct {
	EpisodeIDs []string           `json:"episode_ids"`
	Results    []lore.MemoryEvent `json:"results"`
}

func (s *Server) addMemories(c *gin.Context) {
	var req addRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	scope, err := s.scope(c, scopeParams{TenantID: req.TenantID, UserID: req.UserID, AgentID: req.AgentID, RunID: req.RunID})
	if err != nil {
		s.writeError(c, err)
		return
	}
	if req.Messages == nil {
		s.writeError(c, lore.Errorf(lore.EINVALID, "messages is required"))
		return
	}
	msgs := make([]ingest.Message, len(req.Messages))
	for i, m := range req.Messages {
		at, err := lore.ParseTime(fmt.Sprintf("messages[%d].created_at", i), m.CreatedAt)
		if err != nil {
			s.writeError(c, err)
			return
		}
		msgs[i] = ingest.Message{Role: m.Role, Content: m.Content, Name: m.Name, CreatedAt: at, SourceID: m.SourceID, Metadata: m.Metadata}
	}
	expires, err := addExpiry(req.ExpiresAt, req.ExpirationDate, time.Now())
	if err != nil {
		s.writeError(c, err)
		return
	}
	res, err := s.Ingest.Add(c.Request.Context(), ingest.AddRequest{
		Scope:     scope,
		Messages:  msgs,
		Metadata:  req.Metadata,
		Infer:     req.Infer == nil || *req.Infer,
		Sync:      req.Sync != nil && *req.Sync,
		ExpiresAt: expires,
	})
	if err != nil {
		s.writeError(c, err)
		return
	}
	if res.JobID != "" {
		c.JSON(http.StatusAccepted, addAccepted{EpisodeIDs: res.EpisodeIDs, JobID: res.JobID})
		return
	}
	events := res.Events
	if events == nil {
		events = []lore.MemoryEvent{}
	}
	c.JSON(http.StatusOK, addDone{EpisodeIDs: res.EpisodeIDs, Results: events})
}

// searchRequest is the body of POST /v1/memories/search.
type searchRequest struct {
	Query              string          `json:"query"`
	TenantID           string          `json:"tenant_id"`
	UserID             string          `json:"user_id"`
	AgentID            string          `json:"agent_id"`
	RunID              string          `json:"run_id"`
	TopK               *int            `json:"top_k"`
	Filters            json.RawMessage `json:"filters"`
	Threshold          float64         `json:"threshold"`
	Explain            bool            `json:"explain"`
	Types              []string        `json:"types"`
	IncludeInvalidated bool            `json:"include_invalidated"`
	Since              string          `json:"since"`
	Until              string          `json:"until"`
	QueryTime          string          `json:"query_time"`
	// InferProfile false keeps this search from feeding the profile.
	InferProfile *bool `json:"infer_profile"`
	// Used are ids from an earlier answer that the caller used: counted as
	// citations for the frequency signal.
	Used []string `json:"used"`
	// Role is the caller's role for the retrieval policies; an API key's
	// role wins (policy.go).
	Role string `json:"role"`
}

// toRetrieve validates the request and turns it into the pipeline's form.
func (r *searchRequest) toRetrieve(scope lore.Scope) (retrieve.Request, error) {
	out := retrieve.Request{Scope: scope, Query: r.Query, Threshold: r.Threshold, Explain: r.Explain, IncludeInvalidated: r.IncludeInvalidated}
	if strings.TrimSpace(r.Query) == "" {
		return out, lore.Errorf(lore.EINVALID, "query is required")
	}
	if r.TopK != nil {
		if *r.TopK < 1 || *r.TopK > maxTopK {
			return out, lore.Errorf(lore.EINVALID, "top_k must be between 1 and %d, got %d", maxTopK, *r.TopK)
		}
		out.TopK = *r.TopK
	}
	for i, t := range r.Types {
		switch kind := lore.DocKind(t); kind {
		case lore.KindFact, lore.KindEpisode:
			out.Kinds = append(out.Kinds, kind)
		default:
			return out, lore.Errorf(lore.EINVALID, "types[%d] must be \"fact\" or \"episode\", got %q", i, t)
		}
	}
	if len(r.Filters) > 0 && string(r.Filters) != "null" {
		f, err := retrieve.ParseFilter(r.Filters)
		if err != nil {
			return out, err
		}
		out.Filter = f
	}
	var err error
	if out.Since, err = lore.ParseTime("since", r.Since); err != nil {
		return out, err
	}
	if out.Until, err = lore.ParseTime("until", r.Until); err != nil {
		return out, err
	}
	if out.Since != nil && out.Until != nil && !out.Until.After(*out.Since) {
		return out, lore.Errorf(lore.EINVALID, "until must be after since")
	}
	if len(r.Used) > maxTopK {
		return out, lore.Errorf(lore.EINVALID, "used holds more than %d ids", maxTopK)
	}
	for i, id := range r.Used {
		if id == "" {
			return out, lore.Errorf(lore.EINVALID, "used[%d] is empty", i)
		}
		if err := lore.ValidateID("used", id); err != nil {
			return out, err
		}
	}
	out.Used = r.Used
	qt, err := lore.ParseTime("query_time", r.QueryTime)
	if err != nil {
		return out, err
	}
	if qt != nil {
		out.QueryTime = *qt
	}
	return out, nil
}

func (s *Server) searchMemories(c *gin.Context) {
	var req searchRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	scope, err := s.scope(c, scopeParams{TenantID: req.TenantID, UserID: req.UserID, AgentID: req.AgentID, RunID: req.RunID})
	if err != nil {
		s.writeError(c, err)
		return
	}
	rreq, err := req.toRetrieve(scope)
	if err == nil {
		err = checkQuery(req.Query)
	}
	if err == nil {
		rreq.Role, err = callerRole(c, req.Role)
	}
	if err != nil {
		s.writeError(c, err)
		return
	}
	resp, err := s.Search.Search(c.Request.Context(), rreq)
	if err != nil {
		s.writeError(c, err)
		return
	}
	// Clients index into these; an empty answer is [], never null.
	if resp.Results == nil {
		resp.Results = []retrieve.Result{}
	}
	if resp.Entities == nil {
		resp.Entities = []*lore.Entity{}
	}
	for i := range resp.Results {
		if resp.Results[i].Sources == nil {
			resp.Results[i].Sources = []retrieve.Source{}
		}
	}
	if resp.Profile == nil {
		resp.Profile = []lore.ProfileEntry{}
	}
	c.JSON(http.StatusOK, resp)
	s.inferProfile(c, scope, req.Query, req.InferProfile)
}

// Memory is a fact or an episode as the memory routes show it: mem0's
// memory shape, with the full record beside it.
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

func factMemory(f *lore.Fact) Memory {
	return Memory{ID: f.ID, Type: lore.KindFact, Memory: f.Text, Scope: f.Scope, Metadata: f.Metadata, CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt, Fact: f}
}

func episodeMemory(ep *lore.Episode) Memory {
	return Memory{ID: ep.ID, Type: lore.KindEpisode, Memory: ep.Content, Scope: ep.Scope, Metadata: ep.Metadata, CreatedAt: ep.CreatedAt, UpdatedAt: ep.UpdatedAt, Episode: ep}
}

// memoryPage is the answer of GET /v1/memories.
type memoryPage struct {
	Results  []Memory `json:"results"`
	Page     int      `json:"page"`
	PageSize int      `json:"page_size"`
	HasMore  bool     `json:"has_more"`
}

func (s *Server) listMemories(c *gin.Context) {
	scope, err := s.queryScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	kind := lore.DocKind(c.Query("type"))
	if kind != "" && kind != lore.KindFact && kind != lore.KindEpisode {
		s.writeError(c, lore.Errorf(lore.EINVALID, "type must be \"fact\" or \"episode\", got %q", kind))
		return
	}
	page, err := queryInt(c, "page", 1, 1, 0)
	if err != nil {
		s.writeError(c, err)
		return
	}
	size, err := queryInt(c, "page_size", defaultPageSize, 1, maxPageSize)
	if err == nil {
		err = checkPage(page, size)
	}
	if err != nil {
		s.writeError(c, err)
		return
	}
	invalidated, err := queryBool(c, "include_invalidated")
	if err != nil {
		s.writeError(c, err)
		return
	}
	items, more, err := s.pageMemories(c.Request.Context(), scope, kind, invalidated, (page-1)*size, size)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, memoryPage{Results: items, Page: page, PageSize: size, HasMore: more})
}

// pageMemories returns one page of the scope's memories: facts (newest
// first) followed by episodes (oldest first) when kind is empty. It asks
// each store for one record more than the page to learn whether more follow.
func (s *Server) pageMemories(ctx context.Context, scope lore.Scope, kind lore.DocKind, invalidated bool, offset, size int) ([]Memory, bool, error) {
	out := []Memory{}
	epOffset := offset
	if kind != lore.KindEpisode {
		facts, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: scope, IncludeInvalidated: invalidated, Offset: offset, Limit: size + 1})
		if err != nil {
			return nil, false, fmt.Errorf("api: list facts: %w", err)
		}
		for _, f := range facts {
			out = append(out, factMemory(f))
		}
		if len(out) > size || kind == lore.KindFact {
			return out[:min(len(out), size)], len(out) > size, nil
		}
		// Episodes follow the facts, so the episode offset is the page
		// offset less the number of facts, which must be counted when this
		// page starts past the last fact.
		nFacts := offset + len(facts)
		if len(facts) == 0 && offset > 0 {
			// There are at most offset facts, so this read is bounded by
			// the pages already walked.
			all, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: scope, IncludeInvalidated: invalidated, Limit: offset})
			if err != nil {
				return nil, false, fmt.Errorf("api: count facts: %w", err)
			}
			nFacts = len(all)
		}
		epOffset = max(offset-nFacts, 0)
	}
	want := size - len(out)
	eps, err := s.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, Offset: epOffset, Limit: want + 1})
	if err != nil {
		return nil, false, fmt.Errorf("api: list episodes: %w", err)
	}
	for _, ep := range eps[:min(len(eps), want)] {
		out = append(out, episodeMemory(ep))
	}
	return out, len(eps) > want, nil
}

// findMemory looks id up among the scope's facts, current or not, and then
// its episodes. It returns ENOTFOUND when neither holds it.
func (s *Server) findMemory(ctx context.Context, scope lore.Scope, id string) (*lore.Fact, *lore.Episode, error) {
	if err := lore.ValidateID("id", id); err != nil {
		return nil, nil, err
	}
	facts, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: scope, IDs: []string{id}, IncludeInvalidated: true, Limit: 1})
	if err != nil {
		return nil, nil, fmt.Errorf("api: find fact: %w", err)
	}
	if len(facts) > 0 {
		return facts[0], nil, nil
	}
	eps, err := s.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, IDs: []string{id}, Limit: 1})
	if err != nil {
		return nil, nil, fmt.Errorf("api: find episode: %w", err)
	}
	if len(eps) > 0 {
		return nil, eps[0], nil
	}
	return nil, nil, lore.Errorf(lore.ENOTFOUND, "memory %q not found", id)
}

func (s *Server) getMemory(c *gin.Context) {
	scope, err := s.queryScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	f, ep, err := s.findMemory(c.Request.Context(), scope, c.Param("id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	if f != nil {
		c.JSON(http.StatusOK, factMemory(f))
		return
	}
	c.JSON(http.StatusOK, episodeMemory(ep))
}

// updateRequest is the body of PUT /v1/memories/{id}. The scope may come in
// the body or the query.
type updateRequest struct {
	Text     *string        `json:"text"`
	Memory   *string        `json:"memory"`
	Metadata map[string]any `json:"metadata"`
	// Subject, Predicate, Object and ObjectIsEntity change what a fact
	// states.
	Subject        *string `json:"subject"`
	Predicate      *string `json:"predicate"`
	Object         *string `json:"object"`
	ObjectIsEntity *bool   `json:"object_is_entity"`
	TenantID       string  `json:"tenant_id"`
	UserID         string  `json:"user_id"`
	AgentID        string  `json:"agent_id"`
	RunID          string  `json:"run_id"`
}

// newText returns the requested text: text or its alias memory, nil when
// neither is set.
func (r *updateRequest) newText() (*string, error) {
	t := r.Text
	if r.Memory != nil {
		if t != nil && *t != *r.Memory {
			return nil, lore.Errorf(lore.EINVALID, "text and memory differ; send one of them")
		}
		t = r.Memory
	}
	if t == nil {
		if r.Metadata == nil && !r.changesTriple() {
			return nil, lore.Errorf(lore.EINVALID, "text (or memory) is required unless metadata, subject, predicate or object is given")
		}
		return nil, nil
	}
	trimmed := strings.TrimSpace(*t)
	if trimmed == "" {
		return nil, lore.Errorf(lore.EINVALID, "text is empty")
	}
	return &trimmed, nil
}

// changesTriple reports whether the request names a fact's subject,
// predicate or object.
func (r *updateRequest) changesTriple() bool {
	return r.Subject != nil || r.Predicate != nil || r.Object != nil || r.ObjectIsEntity != nil
}

// orQuery fills the scope fields a body left empty from the query.
func orQuery(c *gin.Context, p scopeParams) scopeParams {
	pick := func(v, name string) string {
		if v != "" {
			return v
		}
		return c.Query(name)
	}
	return scopeParams{TenantID: pick(p.TenantID, "tenant_id"), UserID: pick(p.UserID, "user_id"), AgentID: pick(p.AgentID, "agent_id"), RunID: pick(p.RunID, "run_id")}
}

func (s *Server) updateMemory(c *gin.Context) {
	var req updateRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	scope, err := s.scope(c, orQuery(c, scopeParams{TenantID: req.TenantID, UserID: req.UserID, AgentID: req.AgentID, RunID: req.RunID}))
	if err != nil {
		s.writeError(c, err)
		return
	}
	text, err := req.newText()
	if err == nil {
		err = s.checkContent("text", text)
	}
	if err != nil {
		s.writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	f, ep, err := s.findMemory(ctx, scope, c.Param("id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	if f != nil {
		// The triple follows the text: given, or re-derived from it, or
		// the change is refused with a message saying how to make it.
		updated, err := s.Ingest.ChangeFact(ctx, scope, f.ID, ingest.FactChange{
			Text: text, Metadata: req.Metadata,
			Subject: req.Subject, Predicate: req.Predicate, Object: req.Object, ObjectIsEntity: req.ObjectIsEntity,
		})
		if err != nil {
			s.writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, factMemory(updated))
		return
	}
	if req.changesTriple() {
		s.writeError(c, lore.Errorf(lore.EINVALID, "memory %q is an episode; subject, predicate and object apply to facts only", ep.ID))
		return
	}
	updated, err := s.changeEpisode(ctx, scope, ep, text, req.Metadata)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, episodeMemory(updated))
}

// changeEpisode updates an episode's content or metadata and indexes it
// anew.
func (s *Server) changeEpisode(ctx context.Context, scope lore.Scope, ep *lore.Episode, text *string, md map[string]any) (*lore.Episode, error) {
	// The store records the index change in its outbox; a failure to make
	// it here is left to the outbox worker (ingest.IndexLater).
	ctx = ingest.Tagged(ctx)
	updated, err := s.Store.UpdateEpisode(ctx, scope, ep.ID, lore.EpisodeUpdate{Content: text, Metadata: md, Actor: apiActor, Reason: "updated through the API"})
	if err != nil {
		return nil, err
	}
	// The new content may be split into passages otherwise than the old:
	// every document the episode may have goes before it is indexed anew.
	stale := append(ingest.EpisodeDocIDs(ep), ingest.EpisodeDocIDs(updated)...)
	slices.Sort(stale)
	err = s.Index.Delete(ctx, scope, slices.Compact(stale))
	if err == nil {
		err = s.Ingest.IndexEpisodes(ctx, []*lore.Episode{updated})
	}
	if err := s.Ingest.IndexLater(ctx, err); err != nil {
		return nil, fmt.Errorf("api: reindex episode %s: %w", updated.ID, err)
	}
	return updated, nil
}

// deleted is the answer of DELETE /v1/memories/{id}.
type deleted struct {
	ID    string         `json:"id"`
	Type  lore.DocKind   `json:"type"`
	Event lore.EventKind `json:"event"`
}

func (s *Server) deleteMemory(c *gin.Context) {
	scope, err := s.queryScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	id := c.Param("id")
	kind, err := s.removeMemory(c.Request.Context(), scope, id)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, deleted{ID: id, Type: kind, Event: lore.EventDelete})
}

// removeMemory deletes the scope's fact or episode id from the store and
// the index, and returns its kind.
func (s *Server) removeMemory(ctx context.Context, scope lore.Scope, id string) (lore.DocKind, error) {
	f, ep, err := s.findMemory(ctx, scope, id)
	if err != nil {
		return "", err
	}
	ctx = ingest.Tagged(ctx)
	kind := lore.KindEpisode
	docs := []string{id}
	if f != nil {
		kind = lore.KindFact
		err = s.Store.DeleteFact(ctx, scope, id, apiActor)
	} else {
		docs = ingest.EpisodeDocIDs(ep)
		err = s.Store.DeleteEpisode(ctx, scope, id, apiActor)
	}
	if err != nil {
		return "", err
	}
	// The store is the record of truth: search hydrates from it and drops
	// ids it no longer holds, so a failure here leaves no visible memory.
	// The store's outbox entry deletes the documents later if this fails.
	err = s.Index.Delete(ctx, scope, docs)
	if err == nil {
		err = lore.AckIndexed(ctx, s.Store, docs)
	}
	if err := s.Ingest.IndexLater(ctx, err); err != nil {
		return "", fmt.Errorf("api: unindex %s: %w", id, err)
	}
	return kind, nil
}

// history is the answer of GET /v1/memories/{id}/history.
type history struct {
	MemoryID string              `json:"memory_id"`
	Results  []lore.HistoryEvent `json:"results"`
}

func (s *Server) memoryHistory(c *gin.Context) {
	scope, err := s.queryScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	id := c.Param("id")
	if err := lore.ValidateID("id", id); err != nil {
		s.writeError(c, err)
		return
	}
	events, err := s.Store.History(c.Request.Context(), scope, id)
	if err != nil {
		s.writeError(c, err)
		return
	}
	// History outlives a deleted memory, so its absence is what 404 means.
	if len(events) == 0 {
		s.writeError(c, lore.Errorf(lore.ENOTFOUND, "memory %q has no history in this scope", id))
		return
	}
	c.JSON(http.StatusOK, history{MemoryID: id, Results: events})
}

// erased is the answer of DELETE /v1/memories.
type erased struct {
	Scope   lore.Scope       `json:"scope"`
	Deleted lore.DeleteStats `json:"deleted"`
}

func (s *Server) eraseMemories(c *gin.Context) {
	scope, err := s.queryScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	// Ingest's Erase stops and fences the scope's jobs before it deletes,
	// and clears the caches too.
	stats, err := s.Ingest.Erase(c.Request.Context(), scope)
	if err != nil {
		s.writeError(c, err)
		return
	}
	s.record(c, audit.Event{TenantID: scope.TenantID, Action: lore.AuditErase, Scope: &scope, Forget: true, Target: scope.RunID,
		Detail: withKind(countDetail(stats), scope)})
	c.JSON(http.StatusOK, erased{Scope: scope, Deleted: stats})
}
