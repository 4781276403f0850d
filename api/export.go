package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"

	"github.com/lore-memory/lore/export"
)

// exportUser streams everything the store holds about a user as JSONL (see
// package export). The status is sent before the first record: a failure
// part-way is logged and ends the stream without its end record, which is
// how a reader tells a cut export from a whole one.
func (s *Server) exportUser(c *gin.Context) {
	scope, err := s.scope(c, scopeParams{TenantID: c.Query("tenant_id"), UserID: c.Param("user_id"), AgentID: c.Query("agent_id"), RunID: c.Query("run_id")})
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Header("Content-Type", "application/x-ndjson")
	c.Header("Content-Disposition", `attachment; filename="lore-export.jsonl"`)
	c.Header("Cache-Control", "no-store")
	c.Status(http.StatusOK)
	var opts []export.Option
	if s.Audit != nil {
		p, _ := s.Audit.Pseudonym(scope)
		opts = append(opts, export.WithAuditPseudonym(p))
	}
	n, err := export.Write(c.Request.Context(), c.Writer, s.Store, scope, time.Now(), opts...)
	if err != nil {
		s.logger().Error("api: export cut short", "tenant", scope.TenantID, "err", err)
	}
	s.record(c, audit.Event{TenantID: scope.TenantID, Action: lore.AuditExport, Scope: &scope, Target: scope.RunID,
		Outcome: outcome(err), Detail: withKind(map[string]string{
			"episodes": strconv.Itoa(n.Episodes), "entities": strconv.Itoa(n.Entities), "facts": strconv.Itoa(n.Facts)}, scope)})
}
