package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/retention"
)

// addExpiry reads an add's expires_at or expiration_date into a time after
// now; neither is no expiry.
func addExpiry(at, date string, now time.Time) (*time.Time, error) {
	field, value := "expires_at", at
	switch {
	case at != "" && date != "":
		return nil, lore.Errorf(lore.EINVALID, "send expires_at or expiration_date, not both")
	case date != "":
		field, value = "expiration_date", date
		if _, err := time.Parse("2006-01-02", date); err != nil {
			return nil, lore.Errorf(lore.EINVALID, "expiration_date must be a date such as 2025-12-31, got %q", date)
		}
	}
	t, err := lore.ParseTime(field, value)
	if err != nil || t == nil {
		return nil, err
	}
	if !t.After(now) {
		return nil, lore.Errorf(lore.EINVALID, "%s %s is not in the future", field, value)
	}
	u := t.UTC()
	return &u, nil
}

// retentionBody is the body of PUT /v1/retention and the answer of both
// retention routes.
type retentionBody struct {
	TenantID    string `json:"tenant_id"`
	RawTextDays *int   `json:"raw_text_days"`
	// QueryLogDays keeps the tenant's searches that many days for batch
	// profile inference (0: none); absent from a PUT: unchanged.
	QueryLogDays *int `json:"query_log_days,omitempty"`
}

// getRetention serves GET /v1/retention: the caller's tenant's policy
// (admin key).
func (s *Server) getRetention(c *gin.Context) {
	tenant, err := s.keyTenant(c, c.Query("tenant_id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	p, err := retention.Policy(c.Request.Context(), s.Store, tenant)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, retentionBody{TenantID: tenant, RawTextDays: &p.RawTextDays, QueryLogDays: &p.QueryLogDays})
}

// putRetention serves PUT /v1/retention: sets how many days the tenant's
// conversation text is kept (0: forever), audited.
func (s *Server) putRetention(c *gin.Context) {
	var req retentionBody
	if err := s.decodeBody(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	tenant, err := s.keyTenant(c, req.TenantID)
	if err != nil {
		s.writeError(c, err)
		return
	}
	if req.RawTextDays == nil {
		s.writeError(c, lore.Errorf(lore.EINVALID, "raw_text_days is required"))
		return
	}
	p, err := retention.Policy(c.Request.Context(), s.Store, tenant)
	if err != nil {
		s.writeError(c, err)
		return
	}
	p.RawTextDays = *req.RawTextDays
	if req.QueryLogDays != nil {
		p.QueryLogDays = *req.QueryLogDays
	}
	if err := retention.SetPolicy(c.Request.Context(), s.Store, tenant, p); err != nil {
		s.writeError(c, err)
		return
	}
	s.record(c, audit.Event{TenantID: tenant, Action: lore.AuditRetentionSet, Detail: map[string]string{
		"raw_text_days": strconv.Itoa(p.RawTextDays), "query_log_days": strconv.Itoa(p.QueryLogDays)}})
	c.JSON(http.StatusOK, retentionBody{TenantID: tenant, RawTextDays: &p.RawTextDays, QueryLogDays: &p.QueryLogDays})
}
