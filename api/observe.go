package api

import (
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
