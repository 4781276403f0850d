package api

import (
	"net/http"
	"testing"

	"github.com/lore-memory/lore"
)

// TestKeyRoles: a reader key reads and searches only; a writer key also
// writes single memories but neither erases nor exports; a key without a
// role, or with another role, does all three. Each refusal is a 403 naming
// the role.
func TestKeyRoles(t *testing.T) {
	ae := newAuthEnv(t)
	reader := ae.key(lore.APIKey{TenantID: "acme", UserID: "alice", Role: lore.RoleReader})
	writer := ae.key(lore.APIKey{TenantID: "acme", UserID: "alice", Role: lore.RoleWriter})
	full := ae.key(lore.APIKey{TenantID: "acme", UserID: "alice"})
	add := map[string]any{"infer": false, "messages": []map[string]any{{"role": "user", "content": "I live in Paris."}}}
	search := map[string]any{"query": "Paris"}

	wantError(t, ae.do("POST", "/v1/memories", add, bearer(reader)...), http.StatusForbidden, lore.EFORBIDDEN, "reader")
	ae.must(http.StatusOK, "POST", "/v1/memories/search", search, bearer(reader)...)
	ae.must(http.StatusOK, "GET", "/v1/memories", nil, bearer(reader)...)
	wantError(t, ae.do("DELETE", "/v1/memories?user_id=alice", nil, bearer(reader)...), http.StatusForbidden, lore.EFORBIDDEN, "reader")

	id := decode[addDone](t, ae.must(http.StatusOK, "POST", "/v1/memories", add, bearer(writer)...)).EpisodeIDs[0]
	ae.must(http.StatusOK, "POST", "/v1/memories/search", search, bearer(writer)...)
	wantError(t, ae.do("DELETE", "/v1/memories/"+id, nil, bearer(reader)...), http.StatusForbidden, lore.EFORBIDDEN, "reader")
	ae.must(http.StatusOK, "DELETE", "/v1/memories/"+id, nil, bearer(writer)...)
	wantError(t, ae.do("DELETE", "/v1/memories?user_id=alice", nil, bearer(writer)...), http.StatusForbidden, lore.EFORBIDDEN, "erase")
	wantError(t, ae.do("GET", "/v1/users/alice/export", nil, bearer(writer)...), http.StatusForbidden, lore.EFORBIDDEN, "export")
	wantError(t, ae.do("GET", "/v1/users/alice/export", nil, bearer(reader)...), http.StatusForbidden, lore.EFORBIDDEN, "export")

	ae.must(http.StatusOK, "GET", "/v1/users/alice/export", nil, bearer(full)...)
	ae.must(http.StatusOK, "DELETE", "/v1/memories?user_id=alice", nil, bearer(full)...)

	// Another role (a retrieval-policy role) limits nothing here.
	coach := ae.key(lore.APIKey{TenantID: "acme", UserID: "alice", Role: "coach"})
	ae.must(http.StatusOK, "POST", "/v1/memories", add, bearer(coach)...)
	ae.must(http.StatusOK, "DELETE", "/v1/memories?user_id=alice", nil, bearer(coach)...)
}
