package api

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
)

// auditPage is the largest page GET /v1/audit returns.
const auditPage = 1000

// auditList is the answer of GET /v1/audit.
type auditList struct {
	Results []*lore.AuditRecord `json:"results"`
	// NextAfter is the after_seq of the next page, 0 when this one is the
	// last.
	NextAfter int64 `json:"next_after,omitempty"`
}

// actor names the caller in audit records: its key id, or "anonymous" on
// a server running without keys.
func actor(ctx context.Context) string {
	if k := KeyFrom(ctx); k != nil {
		return k.ID
	}
	return "anonymous"
}

// record appends an audit record for a request; a failure is logged by
// the audit log, and the request, whose action already happened, answers
// as it would have.
func (s *Server) record(c *gin.Context, ev audit.Event) {
	if ev.Actor == "" {
		ev.Actor = actor(c.Request.Context())
	}
	if ev.Detail == nil {
		ev.Detail = map[string]string{}
	}
	ev.Detail["request_id"] = c.GetString(requestIDKey)
	_, _ = s.Audit.Record(c.Request.Context(), ev)
}

// countDetail is an erase's counts as audit detail.
func countDetail(st lore.DeleteStats) map[string]string {
	return map[string]string{
		"episodes": strconv.Itoa(st.Episodes), "entities": strconv.Itoa(st.Entities),
		"facts": strconv.Itoa(st.Facts), "jobs": strconv.Itoa(st.Jobs),
	}
}

// scopeKind says which fields of an erased scope were set, for audit
// detail: the ids themselves are pseudonymized or left out.
func scopeKind(sc lore.Scope) string {
	var parts []string
	for _, f := range []struct{ name, v string }{{"user", sc.UserID}, {"agent", sc.AgentID}, {"run", sc.RunID}} {
		if f.v != "" {
			parts = append(parts, f.name)
		}
	}
	if len(parts) == 0 {
		return "tenant"
	}
	return strings.Join(parts, "+")
}

// withKind adds the kind of scope (user, user+agent, agent, run…) to d.
func withKind(d map[string]string, sc lore.Scope) map[string]string {
	d["scope"] = scopeKind(sc)
	return d
}

// outcome is an audit outcome for err.
func outcome(err error) string {
	if err != nil {
		return lore.AuditFailed
	}
	return lore.AuditOK
}

// keyDetail describes a created key for the audit log: its admin flag and
// pins, pseudonymized by the caller's log where they name a user.
func keyDetail(k *lore.APIKey) map[string]string {
	d := map[string]string{"admin": strconv.FormatBool(k.Admin)}
	if k.Role != "" {
		d["role"] = k.Role
	}
	if k.UserID != "" {
		d["pin"] = "user"
	} else if k.AgentID != "" {
		d["pin"] = "agent"
	}
	return d
}

// keyScope is the user or agent a key is pinned to, nil for none.
func keyScope(k *lore.APIKey) *lore.Scope {
	if k.UserID == "" && k.AgentID == "" {
		return nil
	}
	return &lore.Scope{TenantID: k.TenantID, UserID: k.UserID, AgentID: k.AgentID}
}

// auditRefusal records a 403 a handler gave (a key that does not cover the
// user or agent named), as the middleware records its own refusals.
func (s *Server) auditRefusal(c *gin.Context, err error) {
	if s.Audit == nil || lore.ErrorCode(err) != lore.EFORBIDDEN {
		return
	}
	tenant := ""
	if k := KeyFrom(c.Request.Context()); k != nil {
		tenant = k.TenantID
	}
	s.record(c, audit.Event{TenantID: tenant, Action: lore.AuditAuthFailure, Outcome: lore.AuditRefused,
		Detail: map[string]string{"status": "403", "method": c.Request.Method, "route": c.FullPath()}})
}

// listAudit serves GET /v1/audit: the caller's tenant's audit records in
// seq order (admin key), a page at a time.
func (s *Server) listAudit(c *gin.Context) {
	if s.Audit == nil {
		s.writeError(c, lore.Errorf(lore.EUNAVAILABLE, "no audit log is configured on this server"))
		return
	}
	tenant, err := s.keyTenant(c, c.Query("tenant_id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	f := lore.AuditFilter{TenantID: tenant, Action: c.Query("action"), Limit: 100}
	if v := c.Query("after_seq"); v != "" {
		if f.AfterSeq, err = strconv.ParseInt(v, 10, 64); err != nil || f.AfterSeq < 0 {
			s.writeError(c, lore.Errorf(lore.EINVALID, "after_seq must be a non-negative integer, got %q", v))
			return
		}
	}
	if v := c.Query("limit"); v != "" {
		if f.Limit, err = strconv.Atoi(v); err != nil || f.Limit < 1 || f.Limit > auditPage {
			s.writeError(c, lore.Errorf(lore.EINVALID, "limit must be between 1 and %d, got %q", auditPage, v))
			return
		}
	}
	if f.Action != "" && !slices.Contains(lore.AuditActions, f.Action) {
		s.writeError(c, lore.Errorf(lore.EINVALID, "action must be one of %s, got %q", strings.Join(lore.AuditActions, ", "), f.Action))
		return
	}
	recs, err := s.Audit.Store.ListAudit(c.Request.Context(), f)
	if err != nil {
		s.writeError(c, err)
		return
	}
	out := auditList{Results: recs}
	if len(recs) == f.Limit {
		out.NextAfter = recs[len(recs)-1].Seq
	}
	s.record(c, audit.Event{TenantID: tenant, Action: lore.AuditRead, Detail: map[string]string{"records": strconv.Itoa(len(recs))}})
	c.JSON(http.StatusOK, out)
}

// auditFailures bounds how many refusals per client address the
// middleware writes to the audit log, so a flood of bad keys cannot grow
// the log without bound: past it, refusals are only logged.
const (
	auditFailureRate  = 1.0 // per second, per client address
	auditFailureBurst = 20
)

// auditRefused records a refusal of the middleware (401 or 403) in the
// audit log, within the per-address budget.
func (a *Auth) auditRefused(r *http.Request, key *lore.APIKey, status int) {
	if a.Audit == nil || (status != http.StatusUnauthorized && status != http.StatusForbidden) {
		return
	}
	host := clientHost(r)
	if _, ok := a.failures.take(host, a.now()); !ok {
		return
	}
	ev := audit.Event{Action: lore.AuditAuthFailure, Actor: "", Outcome: lore.AuditRefused, Detail: map[string]string{
		"status": strconv.Itoa(status), "method": r.Method, "path": pathPrefix(r.URL.Path), "remote": host,
	}}
	if key != nil {
		ev.TenantID, ev.Actor = key.TenantID, key.ID
	}
	_, _ = a.Audit.Record(r.Context(), ev)
}

// pathPrefix keeps the first two segments of a path (/v1/users), which
// name the route family without the user ids later segments may hold.
func pathPrefix(p string) string {
	parts := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 3)
	if len(parts) > 2 {
		parts = parts[:2]
	}
	return "/" + strings.Join(parts, "/")
}
