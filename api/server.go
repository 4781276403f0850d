// Package api is Lore's HTTP API: a gin router over the store, the index,
// the ingestion service, the retrieval pipeline and the embedder. It is the
// only package that knows HTTP.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// TenantHeader names the request header that selects the tenant.
const TenantHeader = "X-Lore-Tenant"

// Server serves the HTTP API. Its fields are its dependencies; Store, Index,
// Ingest and Search are required, the rest may be zero.
type Server struct {
	Store    lore.Store
	Index    lore.Index
	Ingest   *ingest.Service
	Search   *retrieve.Pipeline
	Embedder lore.Embedder // nil: POST /v1/embeddings answers 503
	Logger   *slog.Logger  // nil: slog.Default()
	Version  string
	// MaxBodyBytes bounds request bodies; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Middleware wraps every request, outermost first, before routing. It is
	// the seam for authentication: a middleware that authenticates a caller
	// sets its tenant on the request context with WithTenant (Auth's sets
	// the whole key with WithKey), and for browser safety (Browser).
	Middleware []func(http.Handler) http.Handler
	// Auth holds the API keys that /v1/keys manages; nil answers those
	// routes 503. Its Middleware belongs in Middleware.
	Auth *Auth
	// Metrics records every request and serves GET /metrics; nil answers
	// that route 503.
	Metrics Metrics
	// Usage returns the LLM extractor's usage by tenant for GET /v1/usage;
	// nil when the server extracts without an LLM. Started is when the
	// counts began.
	Usage   func() map[string]LLMUsage
	Started time.Time
	// MCP serves the Model Context Protocol's streamable HTTP transport at
	// /mcp, behind the same middleware as every route; nil answers 404.
	MCP http.Handler
	// UI serves the web inspector's assets at /ui; nil answers 404.
	UI http.Handler
	// Audit records erases, exports, key changes and refusals; nil
	// records nothing and answers GET /v1/audit 503.
	Audit *audit.Log
}

func (s *Server) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func (s *Server) maxBodyBytes() int64 {
	if s.MaxBodyBytes > 0 {
		return s.MaxBodyBytes
	}
	return DefaultMaxBodyBytes
}

// Handler returns the API as an http.Handler.
func (s *Server) Handler() http.Handler {
	var h http.Handler = s.guardInput(s.engine())
	for i := len(s.Middleware) - 1; i >= 0; i-- {
		h = s.Middleware[i](h)
	}
	if s.Metrics != nil {
		h = s.observeRefused(h)
	}
	return h
}

// Routes returns the API's routes without Middleware: the in-process API
// that adapters (the MCP server) call on behalf of a caller whose context
// already carries its authenticated key (WithKey) or fixed tenant
// (WithTenant). Input checks (JSON bodies, UTF-8 queries) still apply.
func (s *Server) Routes() http.Handler {
	return s.guardInput(s.engine())
}

// engine builds the gin router with every route of the API.
func (s *Server) engine() *gin.Engine {
	// gin keeps its mode in a package variable; release mode only silences
	// its start-up route dump, so setting it on every build is harmless.
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	r.ContextWithFallback = true
	r.Use(s.logRequests, s.recoverPanics)
	r.NoRoute(func(c *gin.Context) {
		s.writeError(c, lore.Errorf(lore.ENOTFOUND, "no route %s %s", c.Request.Method, c.Request.URL.Path))
	})
	r.NoMethod(func(c *gin.Context) {
		c.AbortWithStatusJSON(http.StatusMethodNotAllowed, ErrorBody{Error: ErrorDetail{
			Code:    "method_not_allowed",
			Message: "method " + c.Request.Method + " is not allowed on " + c.Request.URL.Path,
		}})
	})

	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)
	r.GET("/openapi.json", s.openAPI)

	v1 := r.Group("/v1")
	v1.POST("/memories", s.addMemories)
	v1.POST("/facts", s.addFact)
	v1.POST("/memories/search", s.searchMemories)
	v1.GET("/memories", s.listMemories)
	v1.DELETE("/memories", s.eraseMemories)
	v1.GET("/memories/:id", s.getMemory)
	v1.PUT("/memories/:id", s.updateMemory)
	v1.DELETE("/memories/:id", s.deleteMemory)
	v1.GET("/memories/:id/history", s.memoryHistory)
	v1.GET("/jobs/:id", s.getJob)
	v1.POST("/jobs/:id/retry", s.retryJob)
	v1.GET("/users/:user_id/graph", s.userGraph)
	v1.GET("/users/:user_id/export", s.exportUser)
	v1.DELETE("/tenants/:tenant_id", s.eraseTenant)
	v1.POST("/embeddings", s.embeddings)
	v1.POST("/keys", s.createKey)
	v1.GET("/keys", s.listKeys)
	v1.DELETE("/keys/:id", s.revokeKey)

	// mem0 compatibility (mem0.go): mem0's platform paths, every one ending
	// in a slash, with mem0's request and response shapes.
	r.GET("/v1/ping/", s.mem0Ping)
	r.POST("/v1/memories/", s.mem0Add)
	r.POST("/v3/memories/add/", s.mem0Add)
	r.POST("/v1/memories/search/", s.mem0Search)
	r.POST("/v2/memories/search/", s.mem0Search)
	r.POST("/v3/memories/search/", s.mem0Search)
	r.GET("/v1/memories/", s.mem0ListV1)
	r.POST("/v2/memories/", s.mem0List)
	r.POST("/v3/memories/", s.mem0List)
	r.DELETE("/v1/memories/", s.mem0DeleteAll)
	r.GET("/v1/memories/:id/", s.mem0Get)
	r.PUT("/v1/memories/:id/", s.mem0Update)
	r.DELETE("/v1/memories/:id/", s.mem0Delete)
	r.GET("/v1/memories/:id/history/", s.mem0History)
	r.GET("/v1/entities/", s.mem0Entities)
	r.DELETE("/v2/entities/:type/:name/", s.mem0DeleteEntity)
	r.GET("/v1/event/:id/", s.mem0Event)

	// Observability (observe.go).
	r.GET("/metrics", s.metrics)
	r.GET("/v1/usage", s.usage)
	// The MCP endpoint and the web inspector, each an http.Handler of its
	// own package (mcp/, ui/).
	r.POST("/mcp", s.mcp)
	r.GET("/ui", s.ui)
	r.GET("/ui/:asset", s.ui)
	// Security (issue 19): the audit log and retention.
	v1.GET("/audit", s.listAudit)
	v1.GET("/retention", s.getRetention)
	v1.PUT("/retention", s.putRetention)
	v1.GET("/users/:user_id/profile", s.getProfile)
	v1.PUT("/users/:user_id/profile", s.putProfile)
	v1.DELETE("/users/:user_id/profile/:key", s.deleteProfileKey)
	// Ranking signals (issue 14, feedback.go).
	v1.POST("/memories/:id/feedback", s.memoryFeedback)
	v1.DELETE("/users/:user_id/feedback", s.resetFeedback)
	v1.GET("/users/:user_id/feedback", s.listFeedback)
	return r
}

// RequestIDHeader carries a request's id: the caller's when it sends a
// usable one, otherwise a new one. Answers echo it and logs record it.
const RequestIDHeader = "X-Request-ID"

// requestIDKey is the gin context key of the request id.
const requestIDKey = "lore.request_id"

// requestID returns the caller's request id if it is short and printable,
// else a new one.
func requestID(c *gin.Context) string {
	id := c.GetHeader(RequestIDHeader)
	if id == "" || len(id) > 128 || lore.ValidateID(RequestIDHeader, id) != nil {
		return uuid.NewString()
	}
	return id
}

// logRequests tags every request with an id and logs it once it is
// answered.
func (s *Server) logRequests(c *gin.Context) {
	start := time.Now()
	id := requestID(c)
	c.Set(requestIDKey, id)
	c.Header(RequestIDHeader, id)
	// Everything the request does, and the job it enqueues, logs the id.
	c.Request = c.Request.WithContext(lore.WithRequestID(c.Request.Context(), id))
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	if s.Metrics != nil {
		s.Metrics.ObserveHTTP(c.Request.Method, route, c.Writer.Status(), time.Since(start))
		if seen, ok := c.Request.Context().Value(observedKey{}).(*bool); ok {
			*seen = true
		}
	}
	s.logger().LogAttrs(c.Request.Context(), slog.LevelInfo, "http request",
		slog.String("method", c.Request.Method),
		slog.String("path", c.Request.URL.Path),
		slog.String("route", route),
		slog.Int("status", c.Writer.Status()),
		slog.Int("bytes", c.Writer.Size()),
		slog.Duration("duration", time.Since(start)),
		slog.String("remote", c.ClientIP()),
		slog.String("request_id", id))
}

// recoverPanics turns a panic in a handler into a logged 500, so one bad
// request cannot take the server down.
func (s *Server) recoverPanics(c *gin.Context) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.logger().ErrorContext(c.Request.Context(), "panic in handler",
				slog.String("route", c.FullPath()), slog.Any("panic", v), slog.String("request_id", c.GetString(requestIDKey)))
			if !c.Writer.Written() {
				c.AbortWithStatusJSON(http.StatusInternalServerError, ErrorBody{Error: ErrorDetail{Code: lore.EINTERNAL, Message: "internal error"}})
			}
		}
	}()
	c.Next()
}

type tenantKey struct{}

// WithTenant returns a context that fixes the caller's tenant, as an
// authentication middleware does. Requests carrying such a context may not
// name another tenant.
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenant)
}

// scopeParams are the scope fields a request may carry in its body or query.
type scopeParams struct {
	TenantID string
	UserID   string
	AgentID  string
	RunID    string
}

// scope resolves a request's scope: the tenant from the authenticated
// context, the X-Lore-Tenant header or the tenant_id field (default
// "default"), and the user, agent and run from p. It returns EFORBIDDEN
// when the request names another tenant than its key's, or a user or agent
// the key is not pinned to, and EINVALID unless the scope names a user or
// an agent.
func (s *Server) scope(c *gin.Context, p scopeParams) (lore.Scope, error) {
	tenant, err := s.tenant(c, p.TenantID)
	if err != nil {
		return lore.Scope{}, err
	}
	sc := lore.Scope{TenantID: tenant, UserID: p.UserID, AgentID: p.AgentID, RunID: p.RunID}
	// A key pinned to a user or an agent fills in and enforces it.
	if err := applyPins(c.Request.Context(), &sc); err != nil {
		return lore.Scope{}, err
	}
	if err := sc.Validate(); err != nil {
		return lore.Scope{}, err
	}
	return sc, nil
}

// tenant resolves a request's tenant alone: the authenticated one, the
// X-Lore-Tenant header or named (a tenant_id field), else "default". It
// refuses as scope does.
func (s *Server) tenant(c *gin.Context, named string) (string, error) {
	tenant := named
	header := c.GetHeader(TenantHeader)
	if header != "" {
		if tenant != "" && tenant != header {
			return "", lore.Errorf(lore.EINVALID, "tenant_id %q differs from the %s header %q", tenant, TenantHeader, header)
		}
		tenant = header
	}
	if fixed, ok := c.Request.Context().Value(tenantKey{}).(string); ok {
		if tenant != "" && tenant != fixed {
			return "", lore.Errorf(lore.EFORBIDDEN, "tenant_id %q is not the authenticated tenant", tenant)
		}
		tenant = fixed
	}
	if tenant == "" {
		tenant = lore.DefaultTenant
	}
	return tenant, lore.ValidateID("tenant_id", tenant)
}

// queryScope resolves the scope from the query parameters user_id,
// agent_id, run_id and tenant_id.
func (s *Server) queryScope(c *gin.Context) (lore.Scope, error) {
	return s.scope(c, scopeParams{
		TenantID: c.Query("tenant_id"),
		UserID:   c.Query("user_id"),
		AgentID:  c.Query("agent_id"),
		RunID:    c.Query("run_id"),
	})
}

// healthz answers as long as the process serves HTTP.
func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok", "version": s.Version})
}

// readyz answers 200 only when the store answers a read.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	// A missing key is a successful round trip; anything else means the
	// store cannot serve.
	if _, err := s.Store.GetMeta(ctx, "readyz.probe"); err != nil && lore.ErrorCode(err) != lore.ENOTFOUND {
		s.logger().WarnContext(ctx, "readiness check failed", slog.String("error", err.Error()))
		s.writeError(c, lore.Errorf(lore.EUNAVAILABLE, "the store is not reachable"))
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready"})
}
