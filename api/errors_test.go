package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

func TestHTTPStatus(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"invalid", lore.Errorf(lore.EINVALID, "x"), http.StatusBadRequest},
		{"not found", lore.Errorf(lore.ENOTFOUND, "x"), http.StatusNotFound},
		{"conflict", lore.Errorf(lore.ECONFLICT, "x"), http.StatusConflict},
		{"too large", lore.Errorf(lore.ETOOLARGE, "x"), http.StatusRequestEntityTooLarge},
		{"unavailable", lore.Errorf(lore.EUNAVAILABLE, "x"), http.StatusServiceUnavailable},
		{"unauthorized", lore.Errorf(lore.EUNAUTHORIZED, "x"), http.StatusUnauthorized},
		{"forbidden", lore.Errorf(lore.EFORBIDDEN, "x"), http.StatusForbidden},
		{"rate limited", lore.Errorf(lore.ERATELIMITED, "x"), http.StatusTooManyRequests},
		{"media type", lore.Errorf(lore.EMEDIATYPE, "x"), http.StatusUnsupportedMediaType},
		{"internal", lore.Errorf(lore.EINTERNAL, "x"), http.StatusInternalServerError},
		{"wrapped code", fmt.Errorf("store: %w", lore.Errorf(lore.ENOTFOUND, "x")), http.StatusNotFound},
		{"plain error", errors.New("boom"), http.StatusInternalServerError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HTTPStatus(tt.err); got != tt.want {
				t.Errorf("HTTPStatus(%v)=%d, want %d", tt.err, got, tt.want)
			}
		})
	}
}

// TestErrorPaths sends bad requests to every route and checks status, code
// and that the message names what was wrong.
func TestErrorPaths(t *testing.T) {
	msg := func(content string) map[string]any {
		return map[string]any{"user_id": "alice", "messages": []map[string]any{{"role": "user", "content": content}}}
	}
	tests := []struct {
		name         string
		method, path string
		body         any
		header       []string
		status       int
		code         string
		substr       string
	}{
		{"add malformed JSON", "POST", "/v1/memories", `{"user_id": "alice",`, nil, 400, lore.EINVALID, "malformed JSON"},
		{"add syntax error", "POST", "/v1/memories", `{"user_id": alice}`, nil, 400, lore.EINVALID, "malformed JSON at byte"},
		{"add empty body", "POST", "/v1/memories", ``, nil, 400, lore.EINVALID, "body is empty"},
		{"add array body", "POST", "/v1/memories", `[1]`, nil, 400, lore.EINVALID, "JSON object"},
		{"add two values", "POST", "/v1/memories", `{"user_id":"a"} {}`, nil, 400, lore.EINVALID, "more than one"},
		{"add unknown field", "POST", "/v1/memories", map[string]any{"user_id": "alice", "mesages": []any{}}, nil, 400, lore.EINVALID, `unknown field "mesages"`},
		{"add wrong type", "POST", "/v1/memories", map[string]any{"user_id": "alice", "messages": "hi"}, nil, 400, lore.EINVALID, `"messages" must be an array`},
		{"add wrong nested type", "POST", "/v1/memories", map[string]any{"user_id": "alice", "messages": []any{map[string]any{"role": "user", "content": 5}}}, nil, 400, lore.EINVALID, "content"},
		{"add sync not bool", "POST", "/v1/memories", map[string]any{"user_id": "alice", "sync": "yes", "messages": []any{}}, nil, 400, lore.EINVALID, `"sync" must be a boolean`},
		{"add no scope", "POST", "/v1/memories", map[string]any{"messages": []map[string]any{{"role": "user", "content": "x"}}}, nil, 400, lore.EINVALID, "user_id or agent_id"},
		{"add no messages", "POST", "/v1/memories", map[string]any{"user_id": "alice"}, nil, 400, lore.EINVALID, "messages"},
		{"add empty messages", "POST", "/v1/memories", map[string]any{"user_id": "alice", "messages": []any{}}, nil, 400, lore.EINVALID, "messages"},
		{"add bad role", "POST", "/v1/memories", map[string]any{"user_id": "alice", "messages": []map[string]any{{"role": "robot", "content": "x"}}}, nil, 400, lore.EINVALID, "messages[0].role"},
		{"add empty content", "POST", "/v1/memories", msg("  "), nil, 400, lore.EINVALID, "messages[0].content"},
		{"add bad created_at", "POST", "/v1/memories", map[string]any{"user_id": "alice", "messages": []map[string]any{{"role": "user", "content": "x", "created_at": "yesterday"}}}, nil, 400, lore.EINVALID, "messages[0].created_at"},
		{"add user id with control char", "POST", "/v1/memories", map[string]any{"user_id": "al\u0007ice", "messages": []map[string]any{{"role": "user", "content": "x"}}}, nil, 400, lore.EINVALID, "user_id"},
		{"add tenant header conflicts", "POST", "/v1/memories", map[string]any{"tenant_id": "a", "user_id": "alice", "messages": []map[string]any{{"role": "user", "content": "x"}}}, []string{TenantHeader, "b"}, 400, lore.EINVALID, "tenant_id"},
		{"add too large", "POST", "/v1/memories", msg(strings.Repeat("x", 5000)), nil, 413, lore.ETOOLARGE, "larger than 4096 bytes"},

		{"search no query", "POST", "/v1/memories/search", map[string]any{"user_id": "alice"}, nil, 400, lore.EINVALID, "query"},
		{"search no scope", "POST", "/v1/memories/search", map[string]any{"query": "x"}, nil, 400, lore.EINVALID, "user_id or agent_id"},
		{"search top_k zero", "POST", "/v1/memories/search", map[string]any{"query": "x", "user_id": "alice", "top_k": 0}, nil, 400, lore.EINVALID, "top_k"},
		{"search top_k string", "POST", "/v1/memories/search", map[string]any{"query": "x", "user_id": "alice", "top_k": "5"}, nil, 400, lore.EINVALID, `"top_k" must be an integer`},
		{"search bad type", "POST", "/v1/memories/search", map[string]any{"query": "x", "user_id": "alice", "types": []string{"fact", "note"}}, nil, 400, lore.EINVALID, "types[1]"},
		{"search bad filter", "POST", "/v1/memories/search", map[string]any{"query": "x", "user_id": "alice", "filters": map[string]any{"topic": map[string]any{"near": 1}}}, nil, 400, lore.EINVALID, "topic"},
		{"search bad since", "POST", "/v1/memories/search", map[string]any{"query": "x", "user_id": "alice", "since": "last week"}, nil, 400, lore.EINVALID, "since"},
		{"search until before since", "POST", "/v1/memories/search", map[string]any{"query": "x", "user_id": "alice", "since": "2024-05-02", "until": "2024-05-01"}, nil, 400, lore.EINVALID, "until"},
		{"search bad query_time", "POST", "/v1/memories/search", map[string]any{"query": "x", "user_id": "alice", "query_time": "noon"}, nil, 400, lore.EINVALID, "query_time"},
		{"search unknown field", "POST", "/v1/memories/search", map[string]any{"query": "x", "user_id": "alice", "limit": 3}, nil, 400, lore.EINVALID, `unknown field "limit"`},

		{"list no scope", "GET", "/v1/memories", nil, nil, 400, lore.EINVALID, "user_id or agent_id"},
		{"list bad type", "GET", "/v1/memories?user_id=alice&type=note", nil, nil, 400, lore.EINVALID, "type"},
		{"list bad page", "GET", "/v1/memories?user_id=alice&page=0", nil, nil, 400, lore.EINVALID, "page"},
		{"list page not a number", "GET", "/v1/memories?user_id=alice&page=two", nil, nil, 400, lore.EINVALID, "page"},
		{"list page_size too big", "GET", "/v1/memories?user_id=alice&page_size=5000", nil, nil, 400, lore.EINVALID, "page_size"},
		{"list bad include_invalidated", "GET", "/v1/memories?user_id=alice&include_invalidated=maybe", nil, nil, 400, lore.EINVALID, "include_invalidated"},
		{"erase no scope", "DELETE", "/v1/memories", nil, nil, 400, lore.EINVALID, "user_id or agent_id"},

		{"get no scope", "GET", "/v1/memories/abc", nil, nil, 400, lore.EINVALID, "user_id or agent_id"},
		{"get unknown", "GET", "/v1/memories/abc?user_id=alice", nil, nil, 404, lore.ENOTFOUND, `"abc"`},
		{"update unknown", "PUT", "/v1/memories/abc", map[string]any{"user_id": "alice", "text": "x"}, nil, 404, lore.ENOTFOUND, `"abc"`},
		{"update no text", "PUT", "/v1/memories/abc", map[string]any{"user_id": "alice"}, nil, 400, lore.EINVALID, "text"},
		{"update empty text", "PUT", "/v1/memories/abc", map[string]any{"user_id": "alice", "text": " "}, nil, 400, lore.EINVALID, "text"},
		{"update text and memory differ", "PUT", "/v1/memories/abc", map[string]any{"user_id": "alice", "text": "a", "memory": "b"}, nil, 400, lore.EINVALID, "differ"},
		{"update unknown field", "PUT", "/v1/memories/abc", map[string]any{"user_id": "alice", "txt": "a"}, nil, 400, lore.EINVALID, `unknown field "txt"`},
		{"update no scope", "PUT", "/v1/memories/abc", map[string]any{"text": "a"}, nil, 400, lore.EINVALID, "user_id or agent_id"},
		{"delete unknown", "DELETE", "/v1/memories/abc?user_id=alice", nil, nil, 404, lore.ENOTFOUND, `"abc"`},
		{"history unknown", "GET", "/v1/memories/abc/history?user_id=alice", nil, nil, 404, lore.ENOTFOUND, `"abc"`},
		{"history no scope", "GET", "/v1/memories/abc/history", nil, nil, 400, lore.EINVALID, "user_id or agent_id"},

		{"job unknown", "GET", "/v1/jobs/abc?user_id=alice", nil, nil, 404, lore.ENOTFOUND, "abc"},
		{"job no scope", "GET", "/v1/jobs/abc", nil, nil, 400, lore.EINVALID, "user_id or agent_id"},
		{"retry unknown", "POST", "/v1/jobs/abc/retry?user_id=alice", nil, nil, 404, lore.ENOTFOUND, "abc"},
		{"graph bad limit", "GET", "/v1/users/alice/graph?limit=0", nil, nil, 400, lore.EINVALID, "limit"},
		{"graph limit too big", "GET", "/v1/users/alice/graph?limit=99999", nil, nil, 400, lore.EINVALID, "limit"},

		{"embeddings without embedder", "POST", "/v1/embeddings", map[string]any{"input": "hi"}, nil, 503, lore.EUNAVAILABLE, "embedder"},
		{"embeddings unknown field", "POST", "/v1/embeddings", map[string]any{"inputs": "hi"}, nil, 400, lore.EINVALID, `unknown field "inputs"`},

		{"unknown route", "GET", "/v1/nothing", nil, nil, 404, lore.ENOTFOUND, "/v1/nothing"},
		{"unknown root route", "GET", "/", nil, nil, 404, lore.ENOTFOUND, "no route"},
		{"wrong method on collection", "PATCH", "/v1/memories", nil, nil, 405, "method_not_allowed", "PATCH"},
		{"wrong method on search", "PUT", "/v1/memories/search/x", nil, nil, 404, lore.ENOTFOUND, "no route"},
		{"wrong method on healthz", "POST", "/healthz", nil, nil, 405, "method_not_allowed", "POST"},
		{"wrong method on jobs", "DELETE", "/v1/jobs/abc", nil, nil, 405, "method_not_allowed", "DELETE"},
	}
	e := newEnv(t, func(s *Server) { s.MaxBodyBytes = 4096 })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, e.do(tt.method, tt.path, tt.body, tt.header...), tt.status, tt.code, tt.substr)
		})
	}
	// Nothing the failed writes carried was stored.
	if p := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil)); len(p.Results) != 0 {
		t.Errorf("after failed writes alice has %d memories, want 0", len(p.Results))
	}
	if ra := e.do("POST", "/v1/embeddings", map[string]any{"input": "hi"}).Header().Get("Retry-After"); ra != "5" {
		t.Errorf("503 Retry-After=%q, want 5", ra)
	}
	if allow := e.do("PATCH", "/v1/memories", nil).Header().Get("Allow"); !strings.Contains(allow, "GET") || !strings.Contains(allow, "POST") || !strings.Contains(allow, "DELETE") {
		t.Errorf("405 Allow=%q, want GET, POST and DELETE", allow)
	}
}

func TestRequestIDIsEchoedAndLogged(t *testing.T) {
	e := newEnv(t)
	e.srv.Store = brokenStore{e.store}
	rec := e.do("GET", "/v1/memories?user_id=alice", nil, RequestIDHeader, "req-42")
	if got := rec.Header().Get(RequestIDHeader); got != "req-42" {
		t.Errorf("%s=%q, want the caller's req-42", RequestIDHeader, got)
	}
	if !strings.Contains(e.logs.String(), "request_id=req-42") {
		t.Errorf("internal error log lacks the request id:\n%s", e.logs)
	}
	for _, bad := range []string{"", strings.Repeat("x", 200), "a\u0001b"} {
		got := e.do("GET", "/healthz", nil, RequestIDHeader, bad).Header().Get(RequestIDHeader)
		if got == "" || got == bad {
			t.Errorf("for caller id %q the answer's id is %q, want a new one", bad, got)
		}
	}
}
