package api

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// Metrics is what the API needs of the metrics (metrics.Metrics): to record
// each answered request and to serve every collector.
type Metrics interface {
	ObserveHTTP(method, route string, status int, d time.Duration)
	Handler() http.Handler
}

// LLMUsage is one tenant's use of the LLM extractor since the server
// started.
type LLMUsage struct {
	Calls            int64 `json:"calls"`
	CacheHits        int64 `json:"cache_hits"`
	Failures         int64 `json:"failures"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// usageAnswer is the answer of GET /v1/usage.
type usageAnswer struct {
	TenantID string `json:"tenant_id"`
	// LLM is false when the server extracts without an LLM; the counts are
	// then zero.
	LLM   bool      `json:"llm"`
	Since time.Time `json:"since"`
	LLMUsage
}

// metrics serves the collectors in Prometheus' text format. The auth
// middleware lets admin keys only through: series carry tenant ids.
func (s *Server) metrics(c *gin.Context) {
	if s.Metrics == nil {
		s.writeError(c, lore.Errorf(lore.EUNAVAILABLE, "metrics are not configured on this server"))
		return
	}
	s.Metrics.Handler().ServeHTTP(c.Writer, c.Request)
}

// usage answers the request's tenant's LLM usage.
func (s *Server) usage(c *gin.Context) {
	tenant, err := s.tenant(c, c.Query("tenant_id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	out := usageAnswer{TenantID: tenant, Since: s.Started}
	if s.Usage != nil {
		out.LLM = true
		out.LLMUsage = s.Usage()[tenant]
	}
	c.JSON(http.StatusOK, out)
}

// observedKey marks a request whose answer the router recorded.
type observedKey struct{}

// statusWriter remembers the status a handler answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush forwards, so that streamed answers (the export, event streams)
// still flush through gin, which asserts http.Flusher.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack forwards, for gin, which asserts http.Hijacker.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, fmt.Errorf("api: the response writer cannot be hijacked")
	}
	return h.Hijack()
}

// observeRefused records, under the route "refused", the requests that
// the middleware (auth, rate limits, browser and input checks) answered
// before they reached the router, which records every other one.
func (s *Server) observeRefused(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		seen := new(bool)
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), observedKey{}, seen)))
		if !*seen {
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			s.Metrics.ObserveHTTP(r.Method, "refused", status, time.Since(start))
		}
	})
}
