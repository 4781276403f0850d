package api

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// feedbackRequest is the body of POST /v1/memories/{id}/feedback.
type feedbackRequest struct {
	TenantID string `json:"tenant_id"`
	UserID   string `json:"user_id"`
	AgentID  string `json:"agent_id"`
	Helpful  *bool  `json:"helpful"`
	// Query is the search the memory answered; its normalised hash feeds
	// the "answers that worked" signal. The text itself is not stored.
	Query string `json:"query"`
}

// feedbackResponse is the answer to a verdict.
type feedbackResponse struct {
	MemoryID     string  `json:"memory_id"`
	DeltaApplied float64 `json:"delta_applied"`
	NewRelevance float64 `json:"new_relevance"`
	EventID      string  `json:"event_id"`
	Helpful      bool    `json:"helpful"`
}

// feedbackStore returns the store of the ranking signals, or EUNAVAILABLE.
func (s *Server) feedbackStore() (lore.FeedbackStore, error) {
	if s.Search == nil || s.Search.Feedback == nil {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "this server keeps no feedback")
	}
	return s.Search.Feedback, nil
}

// memoryFeedback records a verdict on a memory the caller can see: a memory
// outside the caller's scope is a 404 and nothing is written.
func (s *Server) memoryFeedback(c *gin.Context) {
	var req feedbackRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	scope, err := s.scope(c, scopeParams{TenantID: req.TenantID, UserID: req.UserID, AgentID: req.AgentID})
	if err == nil && req.Helpful == nil {
		err = lore.Errorf(lore.EINVALID, "helpful is required (true or false)")
	}
	if err == nil {
		err = checkQuery(req.Query)
	}
	if err != nil {
		s.writeError(c, err)
		return
	}
	store, err := s.feedbackStore()
	if err != nil {
		s.writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	id := c.Param("id")
	if _, _, err := s.findMemory(ctx, scope, id); err != nil {
		s.writeError(c, err)
		return
	}
	v := lore.Verdict{Scope: scope, MemoryID: id, Helpful: *req.Helpful, QueryHash: lore.QueryHash(req.Query)}
	m, err := store.RecordVerdict(ctx, &v, s.Search.Config.Personal.Rule)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, feedbackResponse{MemoryID: id, DeltaApplied: v.Delta, NewRelevance: m.Relevance(), EventID: v.ID, Helpful: v.Helpful})
}

// feedbackReset is the answer to DELETE /v1/users/{id}/feedback.
type feedbackReset struct {
	Scope   lore.Scope `json:"scope"`
	Deleted int        `json:"deleted"` // verdicts removed
}

// resetFeedback removes one user's verdicts, the relevance they gave and
// their success rows; usage counts stay.
func (s *Server) resetFeedback(c *gin.Context) {
	scope, err := s.scope(c, scopeParams{TenantID: c.Query("tenant_id"), UserID: c.Param("user_id"), AgentID: c.Query("agent_id")})
	if err != nil {
		s.writeError(c, err)
		return
	}
	store, err := s.feedbackStore()
	if err != nil {
		s.writeError(c, err)
		return
	}
	n, err := store.ResetFeedback(c.Request.Context(), scope, false)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, feedbackReset{Scope: scope, Deleted: n})
}

// verdictPage bounds a page of GET /v1/users/{id}/feedback.
const verdictPage = 500

// verdictList is the answer to GET /v1/users/{id}/feedback: the user's
// verdicts newest first, and the cursor of the next page when this one is
// full.
type verdictList struct {
	Results    []lore.Verdict `json:"results"`
	NextCursor string         `json:"next_cursor,omitempty"`
}

// listFeedback lists one user's verdicts (with agent_id, that agent's
// namespace only), newest first, a page at a time: limit (1–500, default
// 100) and before (a page's next_cursor).
func (s *Server) listFeedback(c *gin.Context) {
	scope, err := s.scope(c, scopeParams{TenantID: c.Query("tenant_id"), UserID: c.Param("user_id"), AgentID: c.Query("agent_id")})
	if err != nil {
		s.writeError(c, err)
		return
	}
	page := lore.VerdictPage{Limit: 100, Before: c.Query("before")}
	if v := c.Query("limit"); v != "" {
		if page.Limit, err = strconv.Atoi(v); err != nil || page.Limit < 1 || page.Limit > verdictPage {
			s.writeError(c, lore.Errorf(lore.EINVALID, "limit must be between 1 and %d, got %q", verdictPage, v))
			return
		}
	}
	store, err := s.feedbackStore()
	if err != nil {
		s.writeError(c, err)
		return
	}
	lister, ok := store.(lore.VerdictLister)
	if !ok {
		s.writeError(c, lore.Errorf(lore.EUNAVAILABLE, "this server cannot list verdicts"))
		return
	}
	vs, err := lister.ListVerdicts(c.Request.Context(), scope, page)
	if err != nil {
		s.writeError(c, err)
		return
	}
	out := verdictList{Results: vs}
	if len(vs) == page.Limit {
		out.NextCursor = lore.VerdictCursor(vs[len(vs)-1])
	}
	c.JSON(http.StatusOK, out)
}
