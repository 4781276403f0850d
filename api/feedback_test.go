package api

import (
	"math"
	"net/http"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

func TestFeedbackRoute(t *testing.T) {
	e := newEnv(t)
	add := func(user, text string) string {
		rec := e.must(http.StatusOK, "POST", "/v1/memories", map[string]any{"user_id": user, "infer": false,
			"messages": []map[string]any{{"role": "user", "content": text}}})
		return decode[addDone](t, rec).EpisodeIDs[0]
	}
	mine, bobs := add("alice", "I keep my passport in the blue drawer."), add("bob", "Bob's secret.")

	for i, want := range []float64{1.15, 1.30, 1.45, 1.60, 1.60} {
		got := decode[feedbackResponse](t, e.must(http.StatusOK, "POST", "/v1/memories/"+mine+"/feedback",
			map[string]any{"user_id": "alice", "helpful": true, "query": "Where is my passport?"}))
		if got.MemoryID != mine || got.EventID == "" || !got.Helpful || math.Abs(got.NewRelevance-want) > 1e-9 {
			t.Fatalf("verdict %d: %+v, want relevance %v", i+1, got, want)
		}
		if wantDelta := map[bool]float64{true: 0, false: 0.15}[i == 4]; math.Abs(got.DeltaApplied-wantDelta) > 1e-9 {
			t.Fatalf("verdict %d: delta %v, want %v", i+1, got.DeltaApplied, wantDelta)
		}
	}
	got := decode[feedbackResponse](t, e.must(http.StatusOK, "POST", "/v1/memories/"+mine+"/feedback", map[string]any{"user_id": "alice", "helpful": false}))
	if math.Abs(got.DeltaApplied+0.10) > 1e-9 || math.Abs(got.NewRelevance-1.5) > 1e-9 || got.Helpful {
		t.Fatalf("unhelpful: %+v, want delta -0.10 and relevance 1.5", got)
	}

	// Bad input: 400 naming the field, nothing written.
	wantError(t, e.do("POST", "/v1/memories/"+mine+"/feedback", map[string]any{"user_id": "alice"}), http.StatusBadRequest, lore.EINVALID, "helpful")
	wantError(t, e.do("POST", "/v1/memories/"+mine+"/feedback", map[string]any{"helpful": true}), http.StatusBadRequest, lore.EINVALID, "user_id")
	wantError(t, e.do("POST", "/v1/memories/"+mine+"/feedback", map[string]any{"user_id": "alice", "helpful": "yes"}), http.StatusBadRequest, lore.EINVALID, "")
	// A memory the caller cannot see: 404, and no write for anyone.
	wantError(t, e.do("POST", "/v1/memories/"+bobs+"/feedback", map[string]any{"user_id": "alice", "helpful": true}), http.StatusNotFound, lore.ENOTFOUND, "")
	wantError(t, e.do("POST", "/v1/memories/no-such-memory/feedback", map[string]any{"user_id": "alice", "helpful": true}), http.StatusNotFound, lore.ENOTFOUND, "")
	for _, u := range []string{"alice", "bob"} {
		vs, err := e.store.Verdicts(t0(t), lore.Scope{TenantID: lore.DefaultTenant, UserID: u})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if v.MemoryID != mine {
				t.Fatalf("%s has a verdict on %s, want none outside alice's memory", u, v.MemoryID)
			}
		}
		if want := map[string]int{"alice": 6, "bob": 0}[u]; len(vs) != want {
			t.Fatalf("%s has %d verdicts, want %d", u, len(vs), want)
		}
	}

	// Search shows the relevance once feedback is on.
	e.srv.Search.Config.Personal.Feedback = true
	sr := decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"user_id": "alice", "query": "passport drawer", "explain": true}))
	if len(sr.Results) == 0 || sr.Results[0].ScoreDetails[retrieve.SignalRelevance] != 1.5 || sr.Intent == nil {
		t.Fatalf("search: %+v, want the memory with relevance 1.5 and an intent", sr)
	}
	wantError(t, e.do("POST", "/v1/memories/search", map[string]any{"user_id": "alice", "query": "passport", "used": []string{""}}), http.StatusBadRequest, lore.EINVALID, "used")

	// The listing: newest first, a page at a time, bob's verdicts apart.
	var listed []lore.Verdict
	for path := "/v1/users/alice/feedback?limit=4"; ; {
		page := decode[verdictList](t, e.must(http.StatusOK, "GET", path, nil))
		listed = append(listed, page.Results...)
		if page.NextCursor == "" {
			break
		}
		path = "/v1/users/alice/feedback?limit=4&before=" + page.NextCursor
	}
	if len(listed) != 6 || listed[0].Helpful || !listed[5].Helpful || listed[0].MemoryID != mine {
		t.Fatalf("listed %d verdicts, first %+v; want 6, the unhelpful (last given) first", len(listed), listed[0])
	}
	for i := 1; i < len(listed); i++ {
		if listed[i].CreatedAt.After(listed[i-1].CreatedAt) {
			t.Fatalf("verdict %d is newer than verdict %d, want newest first", i, i-1)
		}
	}
	if bob := decode[verdictList](t, e.must(http.StatusOK, "GET", "/v1/users/bob/feedback", nil)); len(bob.Results) != 0 || bob.NextCursor != "" {
		t.Fatalf("bob's listing: %+v, want empty", bob)
	}
	wantError(t, e.do("GET", "/v1/users/alice/feedback?limit=0", nil), http.StatusBadRequest, lore.EINVALID, "limit")
	wantError(t, e.do("GET", "/v1/users/alice/feedback?before=yesterday", nil), http.StatusBadRequest, lore.EINVALID, "cursor")

	// Deleting a memory removes its verdicts and signals.
	gone := add("alice", "My old locker code was 1234.")
	e.must(http.StatusOK, "POST", "/v1/memories/"+gone+"/feedback", map[string]any{"user_id": "alice", "helpful": true, "query": "locker code"})
	e.must(http.StatusOK, "DELETE", "/v1/memories/"+gone+"?user_id=alice", nil)
	if page := decode[verdictList](t, e.must(http.StatusOK, "GET", "/v1/users/alice/feedback", nil)); len(page.Results) != 6 {
		t.Fatalf("after deleting a judged memory: %d verdicts listed, want the other memory's 6", len(page.Results))
	}

	// Reset: the user's verdicts go, relevance is 1 again.
	reset := decode[feedbackReset](t, e.must(http.StatusOK, "DELETE", "/v1/users/alice/feedback", nil))
	if reset.Deleted != 6 {
		t.Fatalf("reset deleted %d, want 6", reset.Deleted)
	}
	sig, err := e.store.MemorySignals(t0(t), lore.Scope{TenantID: lore.DefaultTenant, UserID: "alice"}, []string{mine}, "")
	if err != nil || sig[mine].Adjustment != 0 {
		t.Fatalf("after reset: %+v, %v; want no adjustment", sig, err)
	}
}

func TestFeedbackWithoutStore(t *testing.T) {
	e := newEnv(t, func(s *Server) { s.Search.Feedback = nil })
	wantError(t, e.do("POST", "/v1/memories/x/feedback", map[string]any{"user_id": "alice", "helpful": true}), http.StatusServiceUnavailable, lore.EUNAVAILABLE, "feedback")
}

// TestSearchRoleFromKey: a key's role is the search's; naming another is
// 403; without keys the request's role applies.
func TestSearchRoleFromKey(t *testing.T) {
	ae := newAuthEnv(t)
	ae.srv.Search.Config.Policy = retrieve.PolicyConfig{RoleKey: "roles"}
	ae.srv.Middleware = nil
	ae.must(http.StatusOK, "POST", "/v1/memories", map[string]any{"tenant_id": "acme", "user_id": "alice", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": "Salary bands for engineers", "metadata": map[string]any{"roles": "hr"}}}})
	ae.must(http.StatusOK, "POST", "/v1/memories", map[string]any{"tenant_id": "acme", "user_id": "alice", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": "Salary day is Friday"}}})
	ae.srv.Middleware = []func(http.Handler) http.Handler{ae.auth.Middleware}
	hr := ae.key(lore.APIKey{TenantID: "acme", UserID: "alice", Role: "hr"})
	plain := ae.key(lore.APIKey{TenantID: "acme", UserID: "alice"})
	count := func(token string, body map[string]any) int {
		body["user_id"], body["query"] = "alice", "salary"
		return len(decode[retrieve.Response](t, ae.must(http.StatusOK, "POST", "/v1/memories/search", body, append(bearer(token), TenantHeader, "acme")...)).Results)
	}
	if n := count(hr, map[string]any{}); n != 2 {
		t.Fatalf("hr key: %d results, want 2", n)
	}
	if n := count(plain, map[string]any{}); n != 1 {
		t.Fatalf("key without a role: %d results, want 1", n)
	}
	wantError(t, ae.do("POST", "/v1/memories/search", map[string]any{"user_id": "alice", "query": "salary", "role": "hr"}, append(bearer(plain), TenantHeader, "acme")...), http.StatusForbidden, lore.EFORBIDDEN, "role")
	wantError(t, ae.do("POST", "/v1/memories/search", map[string]any{"user_id": "alice", "query": "salary", "role": "admin"}, append(bearer(hr), TenantHeader, "acme")...), http.StatusForbidden, lore.EFORBIDDEN, "role")
	// Without keys (the open loopback server), the request's role applies.
	ae.srv.Middleware = nil
	if n := len(decode[retrieve.Response](t, ae.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"tenant_id": "acme", "user_id": "alice", "query": "salary", "role": "hr"})).Results); n != 2 {
		t.Fatalf("no keys, request role hr: %d results, want 2", n)
	}
}
