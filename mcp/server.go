// Package mcp is Lore's Model Context Protocol server, built on the official
// Go SDK: tools to add, search, list, get, update and delete memories, to
// read and set a user's profile and to rate a memory, and resources per
// user with their recent facts and their profile. It serves over stdio (`lore
// mcp`) and over streamable HTTP at /mcp on `lore serve`.
//
// Every tool and resource is one call of Lore's HTTP API, made in process
// against its routes (api.Server.Routes), so MCP callers get the same
// validation, scoping, error messages and history records as HTTP callers,
// and the API stays the one place that knows how a memory is changed.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/api"
)

// keyExtra is the TokenInfo.Extra entry that carries the caller's Lore API
// key from the HTTP request to the tool call.
const keyExtra = "lore.api_key"

// Server is Lore's MCP server. Build it, then serve it with Run (stdio or
// any SDK transport) or HTTPHandler (streamable HTTP).
type Server struct {
	// API is Lore's HTTP routes without authentication middleware
	// (api.Server.Routes); tools call it in process.
	API http.Handler
	// OperatorTenant, when set, makes every call act in that tenant with no
	// key, as the operator: `lore mcp` over stdio is a local process that
	// already holds the data directory, so it needs no key. When empty, a
	// call's access is that of the API key of the HTTP request carrying it
	// (see HTTPHandler), or that of an open loopback server when the request
	// had none.
	OperatorTenant string
	// OperatorUser, with OperatorTenant, pins every call to one user as a
	// user-pinned API key does: tools need no user_id and refuse others.
	OperatorUser string
	Version      string
	Logger       *slog.Logger // nil: slog.Default()
}

func (s *Server) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// warnLogger is the logger the SDK gets: its connection chatter (a
// "session" per stateless request) stays below warn.
func (s *Server) warnLogger() *slog.Logger {
	return slog.New(levelFloor{Handler: s.logger().Handler(), min: slog.LevelWarn})
}

// levelFloor drops records below min.
type levelFloor struct {
	slog.Handler
	min slog.Level
}

func (l levelFloor) Enabled(ctx context.Context, lv slog.Level) bool {
	return lv >= l.min && l.Handler.Enabled(ctx, lv)
}

// instructions tell a connected model what Lore is and how to scope calls.
const instructions = `Lore is a long-term memory for conversations. It stores what users say,
extracts timestamped facts (subject, predicate, object) into a per-user graph, closes a fact when a newer one
contradicts it (keeping it in history), and searches with BM25, vectors and the graph.
Every call names whose memory it is with user_id (or agent_id); an API key pinned to a user fills it in.
Call search_memory before answering questions about the user; call add_memory with what the user said.
get_profile gives the user's preferences and circumstances; record_feedback rates a memory search_memory returned.`

// New returns the SDK server with Lore's tools and resources.
func (s *Server) New() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "lore", Title: "Lore memory", Version: s.Version},
		&sdk.ServerOptions{Instructions: instructions})
	s.addTools(srv)
	s.addProfileTools(srv)
	s.addResources(srv)
	return srv
}

// Run serves one MCP session over t until the client disconnects or ctx
// ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.New().Run(ctx, t)
}

// HTTPHandler serves MCP's streamable HTTP transport. Mount it behind
// Lore's authentication middleware (api.Server.MCP does): each request's
// authenticated key (api.KeyFrom) travels to the tool calls it carries, so
// an MCP client sends its Lore API key as Authorization: Bearer, exactly
// as a REST client does, and gets the same tenant, pins and refusals.
// The server is stateless: every request stands alone, so it needs no
// sticky sessions and a revoked key stops working at its next request.
func (s *Server) HTTPHandler() http.Handler {
	srv := s.New()
	stream := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: s.warnLogger()})
	// The SDK hands a request's TokenInfo to the tool calls it carries;
	// its bearer middleware is the only way to set one. The key was
	// checked by Lore's middleware already: the verifier only wraps it.
	keyed := auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		key := api.KeyFrom(r.Context())
		if key == nil {
			return nil, auth.ErrInvalidToken
		}
		info := &auth.TokenInfo{UserID: key.ID, Extra: map[string]any{keyExtra: key}}
		if key.ExpiresAt != nil {
			info.Expiration = *key.ExpiresAt
		}
		return info, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(stream)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if api.KeyFrom(r.Context()) != nil {
			keyed.ServeHTTP(w, r)
			return
		}
		// No key: the middleware let the request through because the
		// server is open (loopback, no key yet) or has no auth at all.
		stream.ServeHTTP(w, r)
	})
}

// callContext returns the context and headers an API call made for a
// request with extra runs with: the operator's tenant, or the caller's
// key.
func (s *Server) callContext(ctx context.Context, extra *sdk.RequestExtra) (context.Context, http.Header) {
	h := http.Header{}
	if s.OperatorTenant != "" {
		if s.OperatorUser != "" {
			return api.WithKey(ctx, &lore.APIKey{ID: "operator", TenantID: s.OperatorTenant, UserID: s.OperatorUser}), h
		}
		return api.WithTenant(ctx, s.OperatorTenant), h
	}
	if extra == nil {
		return ctx, h
	}
	if extra.TokenInfo != nil {
		if key, ok := extra.TokenInfo.Extra[keyExtra].(*lore.APIKey); ok {
			ctx = api.WithKey(ctx, key)
		}
	}
	// The headers of the MCP request that its API calls carry: the tenant
	// an open server is asked about, and the request id.
	for _, name := range [...]string{api.TenantHeader, api.RequestIDHeader} {
		if v := extra.Header.Get(name); v != "" {
			h.Set(name, v)
		}
	}
	return ctx, h
}

// APIError is a refusal of Lore's API, as a tool reports it.
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s (HTTP %d %s): %s", e.Code, e.Status, http.StatusText(e.Status), e.Message)
}

// call makes one API call in process and decodes its JSON answer into out
// (when not nil). A 4xx or 5xx answer is an *APIError.
func (s *Server) call(ctx context.Context, extra *sdk.RequestExtra, method, path string, query url.Values, body, out any) error {
	ctx, header := s.callContext(ctx, extra)
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("mcp: encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	target := path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://lore.internal"+target, rd)
	if err != nil {
		return fmt.Errorf("mcp: build %s %s: %w", method, path, err)
	}
	req.Header = header
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := newRecorder()
	s.API.ServeHTTP(rec, req)
	if rec.status >= 400 {
		var eb api.ErrorBody
		if err := json.Unmarshal(rec.body.Bytes(), &eb); err != nil || eb.Error.Code == "" {
			eb.Error = api.ErrorDetail{Code: "error", Message: strings.TrimSpace(rec.body.String())}
		}
		return &APIError{Status: rec.status, Code: eb.Error.Code, Message: eb.Error.Message}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(rec.body.Bytes(), out); err != nil {
		return fmt.Errorf("mcp: decode %s %s: %w", method, path, err)
	}
	return nil
}

// recorder is the response writer of an in-process API call.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

// callTimeout bounds one in-process API call made for a tool, so a stuck
// store cannot hold a client forever.
const callTimeout = 2 * time.Minute

func (l levelFloor) WithAttrs(attrs []slog.Attr) slog.Handler {
	return levelFloor{Handler: l.Handler.WithAttrs(attrs), min: l.min}
}

func (l levelFloor) WithGroup(name string) slog.Handler {
	return levelFloor{Handler: l.Handler.WithGroup(name), min: l.min}
}
