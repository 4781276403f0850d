package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
)

// factRequest is the body of POST /v1/facts: a triple an agent extracted
// itself. Times are strings so that a bad one is reported with its field.
type factRequest struct {
	TenantID    string `json:"tenant_id"`
	UserID      string `json:"user_id"`
	AgentID     string `json:"agent_id"`
	RunID       string `json:"run_id"`
	Subject     string `json:"subject"`
	SubjectType string `json:"subject_type"`
	Predicate   string `json:"predicate"`
	Object      string `json:"object"`
	// ObjectIsEntity is a pointer because absent means true: an object is
	// an entity of the graph unless the caller says it is a literal.
	ObjectIsEntity *bool          `json:"object_is_entity"`
	ObjectType     string         `json:"object_type"`
	Text           string         `json:"text"`
	ValidAt        string         `json:"valid_at"`
	InvalidAt      string         `json:"invalid_at"`
	Confidence     *float64       `json:"confidence"`
	Source         string         `json:"source"`
	Metadata       map[string]any `json:"metadata"`
}

// factWritten is the 201 answer of POST /v1/facts.
type factWritten struct {
	ID      string             `json:"id"`
	Event   lore.EventKind     `json:"event"`
	Fact    *lore.Fact         `json:"fact"`
	Results []lore.MemoryEvent `json:"results"`
}

func (s *Server) addFact(c *gin.Context) {
	var req factRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	scope, err := s.scope(c, scopeParams{TenantID: req.TenantID, UserID: req.UserID, AgentID: req.AgentID, RunID: req.RunID})
	if err != nil {
		s.writeError(c, err)
		return
	}
	in := ingest.FactInput{
		Scope: scope, Subject: req.Subject, SubjectType: req.SubjectType, Predicate: req.Predicate,
		Object: req.Object, ObjectIsEntity: req.ObjectIsEntity == nil || *req.ObjectIsEntity, ObjectType: req.ObjectType,
		Text: req.Text, Source: req.Source, Metadata: req.Metadata,
	}
	if req.Confidence != nil {
		if *req.Confidence <= 0 || *req.Confidence > 1 {
			s.writeError(c, lore.Errorf(lore.EINVALID, "confidence must be more than 0 and at most 1, got %v", *req.Confidence))
			return
		}
		in.Confidence = *req.Confidence
	}
	if in.ValidAt, err = lore.ParseTime("valid_at", req.ValidAt); err != nil {
		s.writeError(c, err)
		return
	}
	if in.InvalidAt, err = lore.ParseTime("invalid_at", req.InvalidAt); err != nil {
		s.writeError(c, err)
		return
	}
	res, err := s.Ingest.AddFact(c.Request.Context(), in)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusCreated, factWritten{ID: res.Fact.ID, Event: res.Event, Fact: res.Fact, Results: res.Events})
}
