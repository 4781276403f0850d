package api

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/lore-memory/lore/export"
)

// TestExportUser streams a user's memories as a whole export, and never
// another user's.
func TestExportUser(t *testing.T) {
	e := newEnv(t)
	for _, m := range []struct{ user, text string }{{"alice", "I live in Paris and I work at Google."}, {"bob", "I live in Oslo."}} {
		e.must(http.StatusOK, "POST", "/v1/memories", map[string]any{"user_id": m.user, "sync": true,
			"messages": []map[string]any{{"role": "user", "content": m.text}}})
	}
	rec := e.must(http.StatusOK, "GET", "/v1/users/alice/export", nil)
	if ct := rec.Header().Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("Content-Type=%q, want application/x-ndjson", ct)
	}
	body := rec.Body.String()
	if strings.Contains(body, "Oslo") {
		t.Error("alice's export holds bob's memory")
	}
	d, err := export.Read(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatalf("export.Read: %v\n%s", err, body)
	}
	if d.Scope.UserID != "alice" || len(d.Episodes) != 1 || len(d.Facts) == 0 || len(d.Entities) == 0 {
		t.Errorf("export of alice: scope %+v, %d episodes, %d facts, %d entities; want alice's one episode with its facts and entities",
			d.Scope, len(d.Episodes), len(d.Facts), len(d.Entities))
	}
	wantError(t, e.do("GET", "/v1/users/"+strings.Repeat("x", 300)+"/export", nil), http.StatusBadRequest, "invalid", "user_id")
}

// TestEraseTenant erases every user and agent of a tenant, and nothing of
// another.
func TestEraseTenant(t *testing.T) {
	e := newEnv(t)
	for _, m := range []map[string]any{
		{"tenant_id": "acme", "user_id": "alice"}, {"tenant_id": "acme", "agent_id": "bot"}, {"tenant_id": "other", "user_id": "alice"},
	} {
		m["infer"], m["messages"] = false, []map[string]any{{"role": "user", "content": "I live in Paris."}}
		e.must(http.StatusOK, "POST", "/v1/memories", m)
	}
	rec := e.must(http.StatusOK, "DELETE", "/v1/tenants/acme", nil)
	if !strings.Contains(rec.Body.String(), `"episodes":2`) {
		t.Errorf("DELETE /v1/tenants/acme=%s, want 2 episodes erased", rec.Body)
	}
	for q, want := range map[string]int{"tenant_id=acme&user_id=alice": 0, "tenant_id=acme&agent_id=bot": 0, "tenant_id=other&user_id=alice": 1} {
		page := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?"+q, nil))
		if len(page.Results) != want {
			t.Errorf("GET /v1/memories?%s after the erase: %d memories, want %d", q, len(page.Results), want)
		}
	}
}
