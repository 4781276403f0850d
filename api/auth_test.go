package api

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/metrics"
)

// authEnv is a testEnv whose server requires keys, with a fixed clock.
type authEnv struct {
	*testEnv
	auth *Auth
	now  time.Time
}

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// newAuthEnv builds a server with auth on (Required unless loopback is
// asked for) and no rate limit unless configured by opts.
func newAuthEnv(t *testing.T, opts ...func(*Auth)) *authEnv {
	t.Helper()
	ae := &authEnv{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	ae.testEnv = newEnv(t, func(s *Server) { s.Embedder = hashEmbedder{dim: 8} })
	ae.auth = &Auth{Keys: ae.store, Secret: testSecret, Required: true, Logger: ae.srv.logger(), Now: func() time.Time { return ae.now }}
	for _, o := range opts {
		o(ae.auth)
	}
	ae.srv.Auth = ae.auth
	ae.srv.Middleware = []func(http.Handler) http.Handler{ae.auth.Middleware}
	return ae
}

// key creates a key and returns the token.
func (ae *authEnv) key(k lore.APIKey) string {
	ae.t.Helper()
	if k.CreatedAt.IsZero() {
		k.CreatedAt = ae.now.Add(-time.Hour)
	}
	token, err := NewKey(t0(ae.t), ae.store, testSecret, &k)
	if err != nil {
		ae.t.Fatalf("NewKey: %v", err)
	}
	return token
}

// revoked creates a key and revokes it.
func (ae *authEnv) revoked(k lore.APIKey) string {
	ae.t.Helper()
	token := ae.key(k)
	got, err := ae.store.KeyByHash(t0(ae.t), lore.KeyHash(testSecret, token))
	if err != nil {
		ae.t.Fatalf("KeyByHash: %v", err)
	}
	if _, err := ae.store.RevokeKey(t0(ae.t), "", got.ID, ae.now.Add(-time.Minute)); err != nil {
		ae.t.Fatalf("RevokeKey: %v", err)
	}
	return token
}

func bearer(token string) []string {
	if token == "" {
		return nil
	}
	return []string{"Authorization", "Bearer " + token}
}

// TestAuthorizationMatrix sends every route (but the public probes) with
// no key, a key of another tenant, a key pinned to another user, a revoked
// key, an expired key and the right key: only the right key gets through.
func TestAuthorizationMatrix(t *testing.T) {
	ae := newAuthEnv(t)
	// Fixtures, written before any key exists through the open server.
	ae.srv.Middleware = nil
	add := func(text string) string {
		rec := ae.must(http.StatusOK, "POST", "/v1/memories", map[string]any{
			"tenant_id": "acme", "user_id": "alice", "infer": false, "messages": []map[string]any{{"role": "user", "content": text}}})
		return decode[addDone](t, rec).EpisodeIDs[0]
	}
	epID, doomedID, mem0Doomed := add("I live in Paris."), add("Delete me."), add("Delete me through mem0.")
	acc := decode[addAccepted](t, ae.must(http.StatusAccepted, "POST", "/v1/memories", map[string]any{
		"tenant_id": "acme", "user_id": "alice", "messages": []map[string]any{{"role": "user", "content": "I work at Acme."}}}))
	// The MCP endpoint and the web inspector are handlers of their own
	// packages; stand-ins show whether a request reaches them.
	reached := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	ae.srv.MCP, ae.srv.UI = reached, reached
	ae.srv.Middleware = []func(http.Handler) http.Handler{ae.auth.Middleware}
	ae.srv.Metrics = metrics.New(prometheus.NewRegistry())
	ae.srv.Audit = &audit.Log{Store: ae.store, Key: testAuditKey}

	past := ae.now.Add(-time.Minute)
	right := ae.key(lore.APIKey{TenantID: "acme", UserID: "alice", Admin: true})
	throwaway := ae.key(lore.APIKey{TenantID: "acme"})
	throwawayKey, _ := ae.store.KeyByHash(t0(t), lore.KeyHash(testSecret, throwaway))
	callers := []struct {
		name  string
		token string
		want  int
	}{
		{"no key", "", http.StatusUnauthorized},
		{"wrong tenant", ae.key(lore.APIKey{TenantID: "other", UserID: "alice", Admin: true}), http.StatusForbidden},
		{"wrong user", ae.key(lore.APIKey{TenantID: "acme", UserID: "bob"}), http.StatusForbidden},
		{"revoked", ae.revoked(lore.APIKey{TenantID: "acme", UserID: "alice", Admin: true}), http.StatusUnauthorized},
		{"expired", ae.key(lore.APIKey{TenantID: "acme", UserID: "alice", Admin: true, ExpiresAt: &past}), http.StatusUnauthorized},
	}

	msg := map[string]any{"user_id": "alice", "infer": false, "messages": []map[string]any{{"role": "user", "content": "hello"}}}
	routes := []struct {
		method, path string
		body         any
		ok           int  // the right key's status
		userless     bool // names no user: a key pinned to another user may call it
	}{
		{"GET", "/openapi.json", nil, http.StatusOK, true},
		{"POST", "/v1/memories", msg, http.StatusOK, false},
		{"POST", "/v1/memories/search", map[string]any{"user_id": "alice", "query": "Paris"}, http.StatusOK, false},
		{"GET", "/v1/memories?user_id=alice", nil, http.StatusOK, false},
		{"DELETE", "/v1/memories?user_id=alice&run_id=nothing-here", nil, http.StatusOK, false},
		{"GET", "/v1/memories/" + epID + "?user_id=alice", nil, http.StatusOK, false},
		{"PUT", "/v1/memories/" + epID, map[string]any{"user_id": "alice", "text": "I live in Lyon."}, http.StatusOK, false},
		{"DELETE", "/v1/memories/" + doomedID + "?user_id=alice", nil, http.StatusOK, false},
		{"GET", "/v1/memories/" + epID + "/history?user_id=alice", nil, http.StatusOK, false},
		// Feedback before the mem0 block, whose entity delete erases alice.
		{"POST", "/v1/memories/" + epID + "/feedback", map[string]any{"user_id": "alice", "helpful": true}, http.StatusOK, false},
		{"GET", "/v1/users/alice/feedback?limit=10", nil, http.StatusOK, false},
		{"DELETE", "/v1/users/alice/feedback", nil, http.StatusOK, false},
		{"GET", "/v1/jobs/" + acc.JobID + "?user_id=alice", nil, http.StatusOK, false},
		// A queued job cannot be retried: 409 is the handler's answer.
		{"POST", "/v1/jobs/" + acc.JobID + "/retry?user_id=alice", nil, http.StatusConflict, false},
		{"POST", "/v1/facts", map[string]any{"user_id": "alice", "subject": "user", "predicate": "lives_in", "object": "Lyon"}, http.StatusCreated, false},
		{"GET", "/v1/users/alice/graph", nil, http.StatusOK, false},
		{"GET", "/v1/users/alice/export", nil, http.StatusOK, false},
		{"GET", "/v1/users/alice/profile", nil, http.StatusOK, false},
		{"PUT", "/v1/users/alice/profile", map[string]any{"entries": []map[string]any{{"key": "favourite-dinner-style", "value": "curry"}}}, http.StatusOK, false},
		// The key has two dashes so that the matrix reads it as a parameter.
		{"DELETE", "/v1/users/alice/profile/favourite-dinner-style", nil, http.StatusOK, false},
		{"POST", "/v1/embeddings", map[string]any{"input": "hello"}, http.StatusOK, true},
		// Key routes need an admin key; the wrong-user key is not one.
		{"POST", "/v1/keys", map[string]any{"user_id": "carol"}, http.StatusCreated, false},
		{"GET", "/v1/keys", nil, http.StatusOK, false},
		{"DELETE", "/v1/keys/" + throwawayKey.ID, nil, http.StatusOK, false},
		// mem0 compatibility (mem0.go). The id routes and the event name the
		// user so that a key pinned to another gets 403, not 404.
		{"GET", "/v1/ping/", nil, http.StatusOK, true},
		{"POST", "/v3/memories/add/", msg, http.StatusOK, false},
		{"POST", "/v1/memories/", msg, http.StatusOK, false},
		{"POST", "/v3/memories/search/", map[string]any{"query": "Paris", "filters": map[string]any{"user_id": "alice"}}, http.StatusOK, false},
		{"POST", "/v2/memories/search/", map[string]any{"query": "Paris", "filters": map[string]any{"AND": []any{map[string]any{"user_id": "alice"}}}}, http.StatusOK, false},
		{"POST", "/v1/memories/search/", map[string]any{"query": "Paris", "user_id": "alice"}, http.StatusOK, false},
		{"GET", "/v1/memories/?user_id=alice", nil, http.StatusOK, false},
		{"POST", "/v3/memories/", map[string]any{"filters": map[string]any{"user_id": "alice"}}, http.StatusOK, false},
		{"POST", "/v2/memories/", map[string]any{"filters": map[string]any{"user_id": "alice"}}, http.StatusOK, false},
		{"GET", "/v1/memories/" + epID + "/?user_id=alice", nil, http.StatusOK, false},
		{"PUT", "/v1/memories/" + epID + "/?user_id=alice", map[string]any{"text": "I live in Nice."}, http.StatusOK, false},
		{"DELETE", "/v1/memories/" + mem0Doomed + "/?user_id=alice", nil, http.StatusOK, false},
		{"GET", "/v1/memories/" + epID + "/history/?user_id=alice", nil, http.StatusOK, false},
		{"GET", "/v1/event/" + acc.JobID + "/?user_id=alice", nil, http.StatusOK, false},
		// A pinned key lists its own entities only, so another user's key
		// may call it.
		{"GET", "/v1/entities/", nil, http.StatusOK, true},
		{"DELETE", "/v1/memories/?user_id=alice&run_id=nothing-here", nil, http.StatusOK, false},
		{"DELETE", "/v2/entities/user/alice/", nil, http.StatusOK, false},
		// Observability (observe.go): metrics need an admin key.
		{"GET", "/metrics", nil, http.StatusOK, false},
		{"GET", "/v1/usage", nil, http.StatusOK, true},
		{"POST", "/mcp", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "ping"}, http.StatusOK, true},
		{"GET", "/v1/audit", nil, http.StatusOK, false},
		{"GET", "/v1/retention", nil, http.StatusOK, false},
		{"PUT", "/v1/retention", map[string]any{"raw_text_days": 30}, http.StatusOK, false},
		// Last: the right key erases the whole tenant.
		{"DELETE", "/v1/tenants/acme", nil, http.StatusOK, false},
	}

	covered := map[string]bool{}
	param := regexp.MustCompile(`/[^/?]*-[^/?]*-[^/?]*(/|\?|$)`)
	for _, r := range routes {
		covered[r.method+" "+strings.SplitN(param.ReplaceAllString(r.path, "/ID$1"), "?", 2)[0]] = true
		for _, c := range callers {
			if c.name == "wrong user" && r.userless {
				continue
			}
			rec := ae.do(r.method, r.path, r.body, append(bearer(c.token), TenantHeader, "acme")...)
			if rec.Code != c.want {
				t.Errorf("%s %s with %s: status=%d, want %d; body %s", r.method, r.path, c.name, rec.Code, c.want, rec.Body)
			}
			if !strings.Contains(rec.Body.String(), `"error":{"code":"`) {
				t.Errorf("%s %s with %s: body %s, want the JSON error shape", r.method, r.path, c.name, rec.Body)
			}
		}
		if rec := ae.do(r.method, r.path, r.body, append(bearer(right), TenantHeader, "acme")...); rec.Code != r.ok {
			t.Errorf("%s %s with the right key: status=%d, want %d; body %s", r.method, r.path, rec.Code, r.ok, rec.Body)
		}
	}
	// Every served route is in the matrix, but the public probes.
	for _, r := range ae.srv.engine().Routes() {
		p := regexp.MustCompile(`:[a-z_]+`).ReplaceAllString(r.Path, "ID")
		p = strings.Replace(p, "/users/ID/", "/users/alice/", 1)
		p = strings.Replace(p, "/tenants/ID", "/tenants/acme", 1)
		p = strings.Replace(p, "/entities/ID/ID/", "/entities/user/alice/", 1)
		if !covered[r.Method+" "+p] && !publicPaths[r.Path] && !isUIAsset(r.Path) {
			t.Errorf("route %s %s is not in the authorization matrix", r.Method, r.Path)
		}
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		ae.must(http.StatusOK, "GET", p, nil)
	}
	// The web inspector's page and assets hold no data and answer without
	// a key, whatever key is sent; the API calls the page makes need one.
	for _, p := range []string{"/ui", "/ui/app.js"} {
		for _, c := range callers {
			if rec := ae.do("GET", p, nil, bearer(c.token)...); rec.Code != http.StatusOK {
				t.Errorf("GET %s with %s: status=%d, want 200", p, c.name, rec.Code)
			}
		}
	}
	if rec := ae.do("GET", "/ui/a/b", nil); rec.Code != http.StatusUnauthorized {
		t.Errorf("GET /ui/a/b without a key: status=%d, want 401 (only the page and its assets are public)", rec.Code)
	}
}

// TestAuthBodyTenantAndPins: a tenant named in the body is checked like
// the header, and a pinned key fills in its user when the request names
// none.
func TestAuthBodyTenantAndPins(t *testing.T) {
	ae := newAuthEnv(t)
	alice := ae.key(lore.APIKey{TenantID: "acme", UserID: "alice"})
	bot := ae.key(lore.APIKey{TenantID: "acme", AgentID: "bot"})
	wantError(t, ae.do("POST", "/v1/memories", map[string]any{"tenant_id": "other", "user_id": "alice", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": "x"}}}, bearer(alice)...), http.StatusForbidden, lore.EFORBIDDEN, "tenant")
	rec := ae.must(http.StatusOK, "POST", "/v1/memories", map[string]any{"infer": false,
		"messages": []map[string]any{{"role": "user", "content": "pinned"}}}, bearer(alice)...)
	if len(decode[addDone](t, rec).EpisodeIDs) != 1 {
		t.Fatalf("add with the pinned user filled in: %s", rec.Body)
	}
	page := decode[memoryPage](t, ae.must(http.StatusOK, "GET", "/v1/memories", nil, bearer(alice)...))
	if len(page.Results) != 1 || page.Results[0].Scope.UserID != "alice" || page.Results[0].Scope.TenantID != "acme" {
		t.Errorf("list with the pinned key=%+v, want alice's one memory in acme", page.Results)
	}
	wantError(t, ae.do("GET", "/v1/memories?agent_id=other", nil, bearer(bot)...), http.StatusForbidden, lore.EFORBIDDEN, "agent")
	ae.must(http.StatusOK, "GET", "/v1/memories?user_id=alice&agent_id=bot", nil, bearer(bot)...)
	wantError(t, ae.do("GET", "/v1/memories?user_id=alice", nil, "Authorization", "Basic YWxpY2U6cHc="), http.StatusUnauthorized, lore.EUNAUTHORIZED, "Bearer")
	wantError(t, ae.do("GET", "/v1/memories?user_id=alice", nil, bearer("lore_"+strings.Repeat("A", 43))...), http.StatusUnauthorized, lore.EUNAUTHORIZED, "unknown")
}

// TestAuthLoopbackWithoutKeys: a loopback server with no key serves
// without one; the first key (here created over the open API) turns auth
// on. Off loopback, or with Required, a key is needed from the start.
func TestAuthLoopbackWithoutKeys(t *testing.T) {
	ae := newAuthEnv(t, func(a *Auth) { a.Required, a.Loopback = false, true })
	ae.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil)
	created := decode[createdKey](t, ae.must(http.StatusCreated, "POST", "/v1/keys", map[string]any{"tenant_id": "acme", "admin": true}))
	if !lore.LooksLikeKey(created.Key) || created.TenantID != "acme" || !created.Admin {
		t.Fatalf("POST /v1/keys=%+v, want an admin key of acme", created)
	}
	wantError(t, ae.do("GET", "/v1/memories?user_id=alice", nil), http.StatusUnauthorized, lore.EUNAUTHORIZED, "API key is required")
	ae.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil, bearer(created.Key)...)
	list := decode[keyList](t, ae.must(http.StatusOK, "GET", "/v1/keys", nil, bearer(created.Key)...))
	if len(list.Results) != 1 || list.Results[0].ID != created.ID || strings.Contains(ae.do("GET", "/v1/keys", nil, bearer(created.Key)...).Body.String(), created.Key) {
		t.Errorf("GET /v1/keys=%+v, want the one key's record without the key", list.Results)
	}

	remote := newAuthEnv(t, func(a *Auth) { a.Required, a.Loopback = false, false })
	wantError(t, remote.do("GET", "/v1/memories?user_id=alice", nil), http.StatusUnauthorized, lore.EUNAUTHORIZED, "API key")
	required := newAuthEnv(t, func(a *Auth) { a.Required, a.Loopback = true, true })
	wantError(t, required.do("GET", "/v1/memories?user_id=alice", nil), http.StatusUnauthorized, lore.EUNAUTHORIZED, "API key")
}

// TestAuthKeyRoutesStayInTenant: an admin key creates, lists and revokes
// only its own tenant's keys.
func TestAuthKeyRoutesStayInTenant(t *testing.T) {
	ae := newAuthEnv(t)
	admin := ae.key(lore.APIKey{TenantID: "acme", Admin: true})
	other := ae.key(lore.APIKey{TenantID: "other"})
	otherKey, _ := ae.store.KeyByHash(t0(t), lore.KeyHash(testSecret, other))
	wantError(t, ae.do("POST", "/v1/keys", map[string]any{"tenant_id": "other"}, bearer(admin)...), http.StatusForbidden, lore.EFORBIDDEN, "tenant")
	wantError(t, ae.do("DELETE", "/v1/keys/"+otherKey.ID, nil, bearer(admin)...), http.StatusNotFound, lore.ENOTFOUND, "not found")
	wantError(t, ae.do("POST", "/v1/keys", map[string]any{"user_id": "a", "agent_id": "b"}, bearer(admin)...), http.StatusBadRequest, lore.EINVALID, "not both")
	wantError(t, ae.do("POST", "/v1/keys", map[string]any{"expires_in": "-1h"}, bearer(admin)...), http.StatusBadRequest, lore.EINVALID, "expires_in")
	created := decode[createdKey](t, ae.must(http.StatusCreated, "POST", "/v1/keys", map[string]any{"expires_in": "1h"}, bearer(admin)...))
	if created.ExpiresAt == nil || !created.ExpiresAt.Equal(ae.now.Add(time.Hour)) {
		t.Errorf("expires_at=%v, want %v", created.ExpiresAt, ae.now.Add(time.Hour))
	}
	ae.must(http.StatusOK, "GET", "/v1/memories?user_id=u", nil, bearer(created.Key)...)
	ae.now = ae.now.Add(2 * time.Hour)
	wantError(t, ae.do("GET", "/v1/memories?user_id=u", nil, bearer(created.Key)...), http.StatusUnauthorized, lore.EUNAUTHORIZED, "expired")
	ae.must(http.StatusOK, "DELETE", "/v1/keys/"+created.ID, nil, bearer(admin)...)
	list := decode[keyList](t, ae.must(http.StatusOK, "GET", "/v1/keys", nil, bearer(admin)...))
	for _, k := range list.Results {
		if k.TenantID != "acme" {
			t.Errorf("GET /v1/keys lists %s of tenant %q, want acme's only", k.ID, k.TenantID)
		}
	}
}

// TestRateLimit: a key's bucket holds Burst requests and refills at Rate;
// past it, 429 with Retry-After and the JSON error. Keys do not share a
// bucket.
func TestRateLimit(t *testing.T) {
	ae := newAuthEnv(t, func(a *Auth) { a.Rate, a.Burst = 0.5, 2 })
	k1 := ae.key(lore.APIKey{TenantID: "acme"})
	k2 := ae.key(lore.APIKey{TenantID: "acme"})
	for range 2 {
		ae.must(http.StatusOK, "GET", "/v1/memories?user_id=u", nil, bearer(k1)...)
	}
	rec := ae.do("GET", "/v1/memories?user_id=u", nil, bearer(k1)...)
	wantError(t, rec, http.StatusTooManyRequests, lore.ERATELIMITED, "rate limit")
	if ra := rec.Header().Get("Retry-After"); ra != "2" {
		t.Errorf("Retry-After=%q, want 2 (one token at 0.5/s)", ra)
	}
	ae.must(http.StatusOK, "GET", "/v1/memories?user_id=u", nil, bearer(k2)...)
	ae.now = ae.now.Add(2 * time.Second)
	ae.must(http.StatusOK, "GET", "/v1/memories?user_id=u", nil, bearer(k1)...)
	wantError(t, ae.do("GET", "/v1/memories?user_id=u", nil, bearer(k1)...), http.StatusTooManyRequests, lore.ERATELIMITED, "rate limit")
}

func TestLimiterSweepsIdleBuckets(t *testing.T) {
	l := newLimiter(1, 1)
	now := time.Now()
	for i := range maxBuckets {
		l.take(string(rune(i)), now)
	}
	if _, ok := l.take("new", now.Add(2*time.Second)); !ok {
		t.Fatalf("new caller refused")
	}
	if len(l.b) != 1 {
		t.Errorf("buckets after a sweep=%d, want 1 (every idle one dropped)", len(l.b))
	}
}

// t0 returns a context for test setup calls.
func t0(t testing.TB) context.Context {
	t.Helper()
	return context.Background()
}
