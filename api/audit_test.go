package api

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
)

var testAuditKey = []byte("api test audit key: thirty-two bytes+")

// TestAuditLogOverTheAPI: erases, exports, key changes and refusals are in
// the audit log, which an admin key reads over GET /v1/audit; the log holds
// no content and no user id, verifies, and keeps the record of an erase
// while the pseudonym's mapping goes with the user.
func TestAuditLogOverTheAPI(t *testing.T) {
	ae := newAuthEnv(t)
	log := &audit.Log{Store: ae.store, Key: testAuditKey, Now: func() time.Time { return ae.now }}
	ae.srv.Audit, ae.auth.Audit = log, log
	admin := ae.key(lore.APIKey{TenantID: "acme", Admin: true})
	user := ae.key(lore.APIKey{TenantID: "acme", UserID: "alice"})
	const marker = "zebra-marker-4711"
	ae.must(http.StatusOK, "POST", "/v1/memories", map[string]any{"user_id": "alice", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": "I keep a " + marker}}}, bearer(user)...)
	ae.must(http.StatusOK, "GET", "/v1/users/alice/export", nil, bearer(user)...)
	created := decode[createdKey](t, ae.must(http.StatusCreated, "POST", "/v1/keys", map[string]any{"user_id": "bob"}, bearer(admin)...))
	ae.must(http.StatusOK, "DELETE", "/v1/keys/"+created.ID, nil, bearer(admin)...)
	wantError(t, ae.do("GET", "/v1/memories?user_id=alice", nil), http.StatusUnauthorized, lore.EUNAUTHORIZED, "")
	wantError(t, ae.do("GET", "/v1/memories?user_id=bob", nil, bearer(user)...), http.StatusForbidden, lore.EFORBIDDEN, "")
	wantError(t, ae.do("GET", "/v1/audit", nil, bearer(user)...), http.StatusForbidden, lore.EFORBIDDEN, "admin")
	alice := lore.AuditPseudonym(testAuditKey, "acme", "user", "alice")
	if sub, err := ae.store.AuditSubject(t0(t), "acme", alice); err != nil || sub.UserID != "alice" {
		t.Fatalf("AuditSubject(alice) before the erase=%+v, %v; want alice", sub, err)
	}
	ae.must(http.StatusOK, "DELETE", "/v1/memories?user_id=alice", nil, bearer(user)...)

	page := decode[auditList](t, ae.must(http.StatusOK, "GET", "/v1/audit?limit=1000", nil, bearer(admin)...))
	var actions []string
	for _, r := range page.Results {
		if r.TenantID != "acme" {
			t.Errorf("GET /v1/audit lists record %d of tenant %q", r.Seq, r.TenantID)
		}
		actions = append(actions, r.Action)
		if r.Action == lore.AuditErase && (r.Subject != alice || r.Actor == "" || r.Detail["episodes"] != "1") {
			t.Errorf("erase record=%+v, want alice's pseudonym, the key and 1 episode", r)
		}
	}
	want := []string{lore.AuditExport, lore.AuditKeyCreate, lore.AuditKeyRevoke, lore.AuditAuthFailure, lore.AuditAuthFailure, lore.AuditErase}
	if strings.Join(actions, ",") != strings.Join(want, ",") {
		t.Errorf("actions=%v, want %v", actions, want)
	}
	body := ae.do("GET", "/v1/audit", nil, bearer(admin)...).Body.String()
	for _, leak := range []string{marker, `"alice"`, `"bob"`} {
		if strings.Contains(body, leak) {
			t.Errorf("the audit log holds %s: %s", leak, body)
		}
	}
	if _, err := ae.store.AuditSubject(t0(t), "acme", alice); lore.ErrorCode(err) != lore.ENOTFOUND {
		t.Errorf("AuditSubject(alice) after the erase: err=%v, want not found", err)
	}
	rep, err := log.Verify(t0(t))
	if err != nil || !rep.OK() || rep.Checked < len(want)+2 {
		t.Errorf("Verify=%+v, %v; want every record (%d and the two reads) to verify", rep, err, len(want))
	}
	wantError(t, ae.do("GET", "/v1/audit?after_seq=-1", nil, bearer(admin)...), http.StatusBadRequest, lore.EINVALID, "after_seq")
	wantError(t, ae.do("GET", "/v1/audit?limit=0", nil, bearer(admin)...), http.StatusBadRequest, lore.EINVALID, "limit")
	wantError(t, ae.do("GET", "/v1/audit?action=AAA", nil, bearer(admin)...), http.StatusBadRequest, lore.EINVALID, "action")
}

// TestAuditFailuresAreBounded: a flood of bad keys from one address writes
// at most the burst to the audit log.
func TestAuditFailuresAreBounded(t *testing.T) {
	ae := newAuthEnv(t)
	log := &audit.Log{Store: ae.store, Key: testAuditKey}
	ae.srv.Audit, ae.auth.Audit = log, log
	for range 3 * auditFailureBurst {
		ae.do("GET", "/v1/memories?user_id=alice", nil, bearer("lore_"+strings.Repeat("B", 43))...)
	}
	recs, err := ae.store.ListAudit(t0(t), lore.AuditFilter{Action: lore.AuditAuthFailure})
	if err != nil || len(recs) != auditFailureBurst {
		t.Errorf("auth failure records=%d (%v), want %d", len(recs), err, auditFailureBurst)
	}
}
