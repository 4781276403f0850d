package api

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// Limits of GET /v1/users/{user_id}/graph.
const (
	defaultGraphLimit = 200
	maxGraphLimit     = 5000
)

// Edge is a fact drawn as an edge of the user's graph: from its subject
// entity to its object entity, or to a literal when Target is empty.
type Edge struct {
	ID         string     `json:"id"`
	Source     string     `json:"source"`
	Target     string     `json:"target,omitempty"`
	Subject    string     `json:"subject"`
	Predicate  string     `json:"predicate"`
	Object     string     `json:"object"`
	Fact       string     `json:"fact"`
	Confidence float64    `json:"confidence"`
	Count      int        `json:"count"`
	ValidAt    *time.Time `json:"valid_at,omitempty"`
	InvalidAt  *time.Time `json:"invalid_at,omitempty"`
	ExpiredAt  *time.Time `json:"expired_at,omitempty"`
	FirstSeen  time.Time  `json:"first_seen"`
	LastSeen   time.Time  `json:"last_seen"`
	Sources    []string   `json:"source_episode_ids"`
}

// graphView is the answer of GET /v1/users/{user_id}/graph.
type graphView struct {
	Scope    lore.Scope     `json:"scope"`
	Entities []*lore.Entity `json:"entities"`
	Edges    []Edge         `json:"edges"`
}

func (s *Server) userGraph(c *gin.Context) {
	scope, err := s.scope(c, scopeParams{TenantID: c.Query("tenant_id"), UserID: c.Param("user_id"), AgentID: c.Query("agent_id"), RunID: c.Query("run_id")})
	if err != nil {
		s.writeError(c, err)
		return
	}
	limit, err := queryInt(c, "limit", defaultGraphLimit, 1, maxGraphLimit)
	if err != nil {
		s.writeError(c, err)
		return
	}
	invalidated, err := queryBool(c, "include_invalidated")
	if err != nil {
		s.writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	entities, err := s.Store.FindEntities(ctx, lore.EntityFilter{Scope: scope, Limit: limit})
	if err != nil {
		s.writeError(c, fmt.Errorf("api: graph entities: %w", err))
		return
	}
	facts, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: scope, IncludeInvalidated: invalidated, Limit: limit})
	if err != nil {
		s.writeError(c, fmt.Errorf("api: graph facts: %w", err))
		return
	}
	view := graphView{Scope: scope, Entities: entities, Edges: make([]Edge, len(facts))}
	if view.Entities == nil {
		view.Entities = []*lore.Entity{}
	}
	for i, f := range facts {
		view.Edges[i] = Edge{
			ID: f.ID, Source: f.SubjectID, Target: f.ObjectID, Subject: f.Subject, Predicate: f.Predicate, Object: f.Object,
			Fact: f.Text, Confidence: f.Confidence, Count: f.Count, ValidAt: f.ValidAt, InvalidAt: f.InvalidAt, ExpiredAt: f.ExpiredAt,
			FirstSeen: f.FirstSeen, LastSeen: f.LastSeen, Sources: f.SourceEpisodeIDs,
		}
	}
	c.JSON(http.StatusOK, view)
}
