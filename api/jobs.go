package api

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// scopedJob returns the job if the scope contains it. A job of another user
// is ENOTFOUND, exactly like a missing one, so ids leak nothing.
func (s *Server) scopedJob(ctx context.Context, scope lore.Scope, id string) (*lore.Job, error) {
	if err := lore.ValidateID("id", id); err != nil {
		return nil, err
	}
	job, err := s.Store.GetJob(ctx, scope.TenantID, id)
	if err != nil {
		return nil, err
	}
	if !scope.Contains(job.Scope) {
		return nil, lore.Errorf(lore.ENOTFOUND, "job %q not found", id)
	}
	return job, nil
}

func (s *Server) getJob(c *gin.Context) {
	scope, err := s.queryScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	job, err := s.scopedJob(c.Request.Context(), scope, c.Param("id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, job)
}

func (s *Server) retryJob(c *gin.Context) {
	scope, err := s.queryScope(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	job, err := s.scopedJob(ctx, scope, c.Param("id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	job, err = s.Ingest.RetryJob(ctx, scope.TenantID, job.ID)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, job)
}
