package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// maxProfileEntries bounds the entries of one PUT /v1/users/{id}/profile.
const maxProfileEntries = 100

// profileView is the answer of the profile routes.
type profileView struct {
	Entries []lore.ProfileEntry `json:"entries"`
	History []lore.ProfileEntry `json:"history,omitempty"`
	Written []lore.ProfileWrite `json:"written,omitempty"`
}

// profileEntryInput is one entry of a PUT: what a user's own settings page
// sends, so an explicit entry.
type profileEntryInput struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// profilePut is the body of PUT /v1/users/{id}/profile.
type profilePut struct {
	Entries []profileEntryInput `json:"entries"`
}

// profiles returns the store's profile port, or EUNAVAILABLE.
func (s *Server) profiles() (lore.ProfileStore, error) {
	ps, ok := s.Store.(lore.ProfileStore)
	if !ok {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "this store keeps no profiles")
	}
	return ps, nil
}

// profileScope resolves the user of a profile route.
func (s *Server) profileScope(c *gin.Context) (lore.ProfileStore, lore.Scope, error) {
	ps, err := s.profiles()
	if err != nil {
		return nil, lore.Scope{}, err
	}
	scope, err := s.scope(c, scopeParams{TenantID: c.Query("tenant_id"), UserID: c.Param("user_id")})
	if err != nil {
		return nil, lore.Scope{}, err
	}
	return ps, scope, nil
}

// getProfile answers GET /v1/users/{user_id}/profile[?history=true].
func (s *Server) getProfile(c *gin.Context) {
	ps, scope, err := s.profileScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	withHistory, err := queryBool(c, "history")
	if err != nil {
		s.writeError(c, err)
		return
	}
	view, err := readProfile(c.Request.Context(), ps, scope, withHistory)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, view)
}

// putProfile answers PUT /v1/users/{user_id}/profile: every entry is
// checked before any is written, so a bad one writes nothing.
func (s *Server) putProfile(c *gin.Context) {
	ps, scope, err := s.profileScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	var body profilePut
	if err := s.decodeBody(c, &body); err != nil {
		s.writeError(c, err)
		return
	}
	if len(body.Entries) == 0 {
		s.writeError(c, lore.Errorf(lore.EINVALID, "entries is required: a list of {\"key\", \"value\"}"))
		return
	}
	if len(body.Entries) > maxProfileEntries {
		s.writeError(c, lore.Errorf(lore.EINVALID, "entries holds %d entries; at most %d per request", len(body.Entries), maxProfileEntries))
		return
	}
	now := time.Now().UTC()
	entries := make([]lore.ProfileEntry, len(body.Entries))
	for i, in := range body.Entries {
		e := lore.ProfileEntry{Key: in.Key, Value: in.Value, Source: lore.ProfileExplicit, Evidence: []string{"api"}, UpdatedAt: now}
		if err := e.Normalize(now); err != nil {
			s.writeError(c, lore.Errorf(lore.EINVALID, "entries[%d]: %s", i, lore.ErrorMessage(err)))
			return
		}
		entries[i] = e
	}
	ctx := c.Request.Context()
	view := profileView{}
	for _, e := range entries {
		w, err := ps.PutProfileEntry(ctx, scope, e)
		if err != nil {
			s.writeError(c, fmt.Errorf("api: put profile: %w", err))
			return
		}
		view.Written = append(view.Written, w)
	}
	cur, err := readProfile(ctx, ps, scope, false)
	if err != nil {
		s.writeError(c, err)
		return
	}
	view.Entries = cur.Entries
	c.JSON(http.StatusOK, view)
}

// deleteProfileKey answers DELETE /v1/users/{user_id}/profile/{key}.
func (s *Server) deleteProfileKey(c *gin.Context) {
	ps, scope, err := s.profileScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	key, err := lore.NormalizePredicate(c.Param("key"))
	if err != nil {
		s.writeError(c, lore.Errorf(lore.EINVALID, "key %q is not a profile key", c.Param("key")))
		return
	}
	n, err := ps.DeleteProfileKey(c.Request.Context(), scope, key)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"key": key, "deleted": n})
}

// readProfile reads a user's entries, and their history when asked.
func readProfile(ctx context.Context, ps lore.ProfileStore, scope lore.Scope, withHistory bool) (profileView, error) {
	entries, err := ps.ProfileEntries(ctx, scope)
	if err != nil {
		return profileView{}, fmt.Errorf("api: profile: %w", err)
	}
	view := profileView{Entries: entries}
	if withHistory {
		if view.History, err = ps.ProfileHistory(ctx, scope, ""); err != nil {
			return profileView{}, fmt.Errorf("api: profile history: %w", err)
		}
		if view.History == nil {
			view.History = []lore.ProfileEntry{}
		}
	}
	return view, nil
}

// inferProfile learns from a search's query once the search has answered:
// the offline rules run and a profile job is queued (ingest), off the
// request's path. Nothing is kept of the query but the inference and its
// hash.
func (s *Server) inferProfile(c *gin.Context, scope lore.Scope, query string, want *bool) {
	if s.Ingest == nil || scope.UserID == "" || (want != nil && !*want) {
		return
	}
	s.Ingest.InferProfileLater(c.Request.Context(), scope, query, 10*time.Second)
}
