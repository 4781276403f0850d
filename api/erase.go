package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
)

// eraseTenant erases a whole tenant, as DELETE /v1/memories does a user:
// an admin key of the tenant only (the middleware checks the key is an
// admin's, keyTenant that it is this tenant's).
func (s *Server) eraseTenant(c *gin.Context) {
	tenant, err := s.keyTenant(c, c.Param("tenant_id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	scope := lore.Scope{TenantID: tenant}
	stats, err := s.Ingest.Erase(c.Request.Context(), scope)
	if err != nil {
		s.writeError(c, err)
		return
	}
	s.record(c, audit.Event{TenantID: tenant, Action: lore.AuditEraseTenant, Detail: countDetail(stats)})
	s.logger().WarnContext(c.Request.Context(), "tenant erased", "tenant", tenant, "by", keyID(c), "request_id", c.GetString(requestIDKey))
	c.JSON(http.StatusOK, erased{Scope: scope, Deleted: stats})
}
