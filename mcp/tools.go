package mcp

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-memory/lore"
)

// Scope names whose memory a call reads or writes. The tenant comes from
// the API key (or the operator's --tenant), never from the model.
type Scope struct {
	UserID  string `json:"user_id,omitempty" jsonschema:"the user whose memory this is; required unless agent_id is given or the API key is pinned to a user"`
	AgentID string `json:"agent_id,omitempty" jsonschema:"the agent whose memory this is, alone or beside user_id"`
	RunID   string `json:"run_id,omitempty" jsonschema:"narrows the scope to one run or session of the user or agent"`
}

func (sc Scope) query() url.Values {
	q := url.Values{}
	for name, v := range map[string]string{"user_id": sc.UserID, "agent_id": sc.AgentID, "run_id": sc.RunID} {
		if v != "" {
			q.Set(name, v)
		}
	}
	return q
}

// Message is one message of a conversation given to add_memory.
type Message struct {
	Role      string `json:"role" jsonschema:"who said it: user or assistant (facts come from the user's messages)"`
	Content   string `json:"content" jsonschema:"what was said"`
	Name      string `json:"name,omitempty" jsonschema:"the speaker's name, when several people talk"`
	CreatedAt string `json:"created_at,omitempty" jsonschema:"when it was said (RFC 3339, e.g. 2024-05-01T10:00:00Z); relative dates such as 'last week' resolve against it; default now"`
}

// AddInput is the input of add_memory.
type AddInput struct {
	Scope
	Messages []Message `json:"messages,omitempty" jsonschema:"the conversation to remember, oldest first; give messages or text"`
	Text     string    `json:"text,omitempty" jsonschema:"a single statement by the user to remember (shorthand for one user message); give messages or text"`
	Infer    *bool     `json:"infer,omitempty" jsonschema:"extract facts from the messages (default true); false stores the messages only"`
	Sync     *bool     `json:"sync,omitempty" jsonschema:"extract within the call and return the facts (default true); false queues the extraction and returns a job id"`
}

// SearchInput is the input of search_memory.
type SearchInput struct {
	Scope
	Query              string   `json:"query" jsonschema:"what to look for, in natural language (e.g. 'Where does my sister live?')"`
	TopK               int      `json:"top_k,omitempty" jsonschema:"how many results (1 to 1000, default 10)"`
	Types              []string `json:"types,omitempty" jsonschema:"restrict to 'fact' and/or 'episode' (a stored message); default both"`
	QueryTime          string   `json:"query_time,omitempty" jsonschema:"answer as of this moment (RFC 3339): facts valid then, not now"`
	IncludeInvalidated bool     `json:"include_invalidated,omitempty" jsonschema:"also return facts that were closed by a newer one"`
	Explain            bool     `json:"explain,omitempty" jsonschema:"add each result's score per signal (bm25, dense, graph, relation, …)"`
}

// ListInput is the input of list_memories.
type ListInput struct {
	Scope
	Type               string `json:"type,omitempty" jsonschema:"'fact' or 'episode'; default both (facts first, newest first)"`
	IncludeInvalidated bool   `json:"include_invalidated,omitempty" jsonschema:"also list facts that were closed by a newer one"`
	Page               int    `json:"page,omitempty" jsonschema:"page number, from 1"`
	PageSize           int    `json:"page_size,omitempty" jsonschema:"memories per page (1 to 1000, default 50)"`
}

// GetInput is the input of get_memory.
type GetInput struct {
	Scope
	ID      string `json:"id" jsonschema:"the memory's id, as search_memory or list_memories returned it"`
	History bool   `json:"history,omitempty" jsonschema:"also return the memory's history: every ADD, UPDATE, INVALIDATE and DELETE with its actor and old and new values"`
}

// UpdateInput is the input of update_memory.
type UpdateInput struct {
	Scope
	ID        string         `json:"id" jsonschema:"the memory's id"`
	Text      *string        `json:"text,omitempty" jsonschema:"the new text; for a fact, it must still state one fact about the same subject (else give subject, predicate and object)"`
	Subject   *string        `json:"subject,omitempty" jsonschema:"a fact's new subject"`
	Predicate *string        `json:"predicate,omitempty" jsonschema:"a fact's new predicate, snake_case (e.g. lives_in)"`
	Object    *string        `json:"object,omitempty" jsonschema:"a fact's new object"`
	Metadata  map[string]any `json:"metadata,omitempty" jsonschema:"metadata to store with the memory"`
}

// DeleteInput is the input of delete_memory.
type DeleteInput struct {
	Scope
	ID string `json:"id" jsonschema:"the memory's id"`
}

func ptr[T any](v T) *T { return &v }

func (s *Server) addTools(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "add_memory",
		Title: "Remember a conversation",
		Description: "Store a conversation (or one statement) in the user's long-term memory. Lore keeps every message " +
			"and extracts facts from the user's messages (e.g. 'user lives_in Paris'); a fact that contradicts a current " +
			"one, such as a new home or employer, closes the old one, which stays in history. Returns the new facts " +
			"with their events (ADD, UPDATE, INVALIDATE, NOOP), or a job id when sync is false.",
		Annotations: &sdk.ToolAnnotations{Title: "Remember", DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	}, s.addMemory)
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "search_memory",
		Title: "Search memory",
		Description: "Search the user's memory for facts and messages relevant to a question. Results are ordered by " +
			"score and carry their source messages; 'context' is a prompt-ready summary. Current facts come before " +
			"closed ones; query_time asks as of a past moment.",
		Annotations: &sdk.ToolAnnotations{Title: "Search", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, s.searchMemory)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        "list_memories",
		Title:       "List memories",
		Description: "List the user's memories page by page: facts (newest first) then stored messages (oldest first).",
		Annotations: &sdk.ToolAnnotations{Title: "List", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, s.listMemories)
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "get_memory",
		Title: "Get a memory",
		Description: "Get one memory (a fact or a stored message) by id, with its validity in time, its source " +
			"messages and, on request, its history.",
		Annotations: &sdk.ToolAnnotations{Title: "Get", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, s.getMemory)
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "update_memory",
		Title: "Correct a memory",
		Description: "Correct a memory: a fact's text (its triple follows) or its subject, predicate and object, or a " +
			"stored message's text, or metadata. The change is recorded in the memory's history.",
		Annotations: &sdk.ToolAnnotations{Title: "Correct", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, s.updateMemory)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        "delete_memory",
		Title:       "Forget a memory",
		Description: "Delete one memory (a fact or a stored message) by id. Its history keeps a DELETE event.",
		Annotations: &sdk.ToolAnnotations{Title: "Forget", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, s.deleteMemory)
}

// toolCall runs one API call for a tool and returns its JSON answer as the
// tool's structured output.
func (s *Server) toolCall(ctx context.Context, req *sdk.CallToolRequest, method, path string, q url.Values, body any) (*sdk.CallToolResult, any, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	var out any
	if err := s.call(ctx, req.Extra, method, path, q, body, &out); err != nil {
		return nil, nil, err
	}
	return nil, out, nil
}

func (s *Server) addMemory(ctx context.Context, req *sdk.CallToolRequest, in AddInput) (*sdk.CallToolResult, any, error) {
	msgs := in.Messages
	switch {
	case len(msgs) > 0 && in.Text != "":
		return nil, nil, lore.Errorf(lore.EINVALID, "give messages or text, not both")
	case in.Text != "":
		msgs = []Message{{Role: "user", Content: in.Text}}
	case len(msgs) == 0:
		return nil, nil, lore.Errorf(lore.EINVALID, "messages (or text) is required")
	}
	body := map[string]any{"messages": msgs, "sync": in.Sync == nil || *in.Sync}
	if in.Infer != nil {
		body["infer"] = *in.Infer
	}
	scopeBody(body, in.Scope)
	return s.toolCall(ctx, req, http.MethodPost, "/v1/memories", nil, body)
}

func (s *Server) searchMemory(ctx context.Context, req *sdk.CallToolRequest, in SearchInput) (*sdk.CallToolResult, any, error) {
	body := map[string]any{"query": in.Query, "explain": in.Explain, "include_invalidated": in.IncludeInvalidated}
	if in.TopK != 0 {
		body["top_k"] = in.TopK
	}
	if len(in.Types) > 0 {
		body["types"] = in.Types
	}
	if in.QueryTime != "" {
		body["query_time"] = in.QueryTime
	}
	scopeBody(body, in.Scope)
	return s.toolCall(ctx, req, http.MethodPost, "/v1/memories/search", nil, body)
}

func (s *Server) listMemories(ctx context.Context, req *sdk.CallToolRequest, in ListInput) (*sdk.CallToolResult, any, error) {
	q := in.Scope.query()
	if in.Type != "" {
		q.Set("type", in.Type)
	}
	if in.IncludeInvalidated {
		q.Set("include_invalidated", "true")
	}
	if in.Page != 0 {
		q.Set("page", strconv.Itoa(in.Page))
	}
	if in.PageSize != 0 {
		q.Set("page_size", strconv.Itoa(in.PageSize))
	}
	return s.toolCall(ctx, req, http.MethodGet, "/v1/memories", q, nil)
}

func (s *Server) getMemory(ctx context.Context, req *sdk.CallToolRequest, in GetInput) (*sdk.CallToolResult, any, error) {
	path, err := memoryPath(in.ID)
	if err != nil {
		return nil, nil, err
	}
	res, mem, err := s.toolCall(ctx, req, http.MethodGet, path, in.Scope.query(), nil)
	if err != nil || !in.History {
		return res, mem, err
	}
	_, hist, err := s.toolCall(ctx, req, http.MethodGet, path+"/history", in.Scope.query(), nil)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]any{"memory": mem, "history": hist}
	if h, ok := hist.(map[string]any); ok {
		out["history"] = h["results"]
	}
	return nil, out, nil
}

func (s *Server) updateMemory(ctx context.Context, req *sdk.CallToolRequest, in UpdateInput) (*sdk.CallToolResult, any, error) {
	path, err := memoryPath(in.ID)
	if err != nil {
		return nil, nil, err
	}
	body := map[string]any{}
	for name, v := range map[string]*string{"text": in.Text, "subject": in.Subject, "predicate": in.Predicate, "object": in.Object} {
		if v != nil {
			body[name] = *v
		}
	}
	if in.Metadata != nil {
		body["metadata"] = in.Metadata
	}
	scopeBody(body, in.Scope)
	return s.toolCall(ctx, req, http.MethodPut, path, nil, body)
}

func (s *Server) deleteMemory(ctx context.Context, req *sdk.CallToolRequest, in DeleteInput) (*sdk.CallToolResult, any, error) {
	path, err := memoryPath(in.ID)
	if err != nil {
		return nil, nil, err
	}
	return s.toolCall(ctx, req, http.MethodDelete, path, in.Scope.query(), nil)
}

// memoryPath is the API path of a memory; the id is checked first so that
// it cannot name another route.
func memoryPath(id string) (string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", lore.Errorf(lore.EINVALID, "id is required")
	}
	if err := lore.ValidateID("id", id); err != nil {
		return "", err
	}
	// Memory ids never hold a slash, and one would be read as a path step.
	if strings.Contains(id, "/") {
		return "", lore.Errorf(lore.EINVALID, "id %q is not a memory id", id)
	}
	return "/v1/memories/" + url.PathEscape(id), nil
}

// scopeBody sets the scope fields of a JSON body.
func scopeBody(body map[string]any, sc Scope) {
	for name, v := range map[string]string{"user_id": sc.UserID, "agent_id": sc.AgentID, "run_id": sc.RunID} {
		if v != "" {
			body[name] = v
		}
	}
}
