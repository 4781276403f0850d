package api

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

func TestIsLoopbackAndHosts(t *testing.T) {
	tests := []struct {
		addr     string
		loopback bool
	}{
		{"127.0.0.1:8420", true},
		{"localhost:8420", true},
		{"[::1]:8420", true},
		{"127.0.0.2:8420", true},
		{"0.0.0.0:8420", false},
		{":8420", false},
		{"192.168.1.5:8420", false},
		{"[::]:8420", false},
		{"nonsense", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if got := IsLoopback(tt.addr); got != tt.loopback {
				t.Errorf("IsLoopback(%q)=%v, want %v", tt.addr, got, tt.loopback)
			}
			if hosts := LoopbackHosts(tt.addr); (hosts != nil) != tt.loopback {
				t.Errorf("LoopbackHosts(%q)=%v, want hosts only for loopback", tt.addr, hosts)
			}
		})
	}
	hosts := LoopbackHosts("127.0.0.1:8420")
	for _, h := range []string{"localhost:8420", "127.0.0.1:8420", "[::1]:8420", "localhost"} {
		if !slices.Contains(hosts, h) {
			t.Errorf("LoopbackHosts lacks %q: %v", h, hosts)
		}
	}
}

// browserEnv is a server behind the Browser middleware.
func browserEnv(t *testing.T, b *Browser) *testEnv {
	e := newEnv(t)
	e.srv.Middleware = []func(http.Handler) http.Handler{b.Middleware}
	return e
}

// TestHostCheck: a loopback server answers only Host values naming it, so
// a DNS-rebinding page (Host: its own name) is refused.
func TestHostCheck(t *testing.T) {
	e := browserEnv(t, &Browser{AllowedHosts: LoopbackHosts("127.0.0.1:8420")})
	for _, h := range []string{"127.0.0.1:8420", "localhost:8420", "LOCALHOST:8420", "[::1]:8420"} {
		e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil, "Host", h)
	}
	for _, h := range []string{"evil.example:8420", "127.0.0.1:9999", "evil.example", "127.0.0.1.nip.io:8420"} {
		wantError(t, e.do("GET", "/v1/memories?user_id=alice", nil, "Host", h), http.StatusForbidden, lore.EFORBIDDEN, "Host")
	}
}

// TestCORS: no origin is allowed by default; listed origins get CORS
// headers and their preflights pass; a page of this server itself (same
// origin) is served.
func TestCORS(t *testing.T) {
	deny := browserEnv(t, &Browser{})
	rec := deny.do("POST", "/v1/memories", map[string]any{"user_id": "alice", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": "planted"}}}, "Origin", "https://evil.example")
	wantError(t, rec, http.StatusForbidden, lore.EFORBIDDEN, "origin")
	if rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("denied origin got Access-Control-Allow-Origin %q", rec.Header().Get("Access-Control-Allow-Origin"))
	}
	if p := decode[memoryPage](t, deny.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil)); len(p.Results) != 0 {
		t.Errorf("a refused cross-origin add stored %d memories, want 0", len(p.Results))
	}
	wantError(t, deny.do("OPTIONS", "/v1/memories", nil, "Origin", "https://evil.example", "Access-Control-Request-Method", "POST"),
		http.StatusForbidden, lore.EFORBIDDEN, "origin")
	// httptest requests go to Host example.com.
	deny.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil, "Origin", "http://example.com")

	allow := browserEnv(t, &Browser{AllowedOrigins: []string{"https://app.example"}})
	pre := allow.must(http.StatusNoContent, "OPTIONS", "/v1/memories", nil, "Origin", "https://app.example",
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type")
	if got := pre.Header().Get("Access-Control-Allow-Origin"); got != "https://app.example" {
		t.Errorf("preflight Access-Control-Allow-Origin=%q, want the origin", got)
	}
	if got := pre.Header().Get("Access-Control-Allow-Headers"); !strings.Contains(got, "Authorization") || !strings.Contains(got, "Content-Type") {
		t.Errorf("preflight Access-Control-Allow-Headers=%q, want Authorization and Content-Type", got)
	}
	got := allow.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil, "Origin", "https://app.example")
	if got.Header().Get("Access-Control-Allow-Origin") != "https://app.example" || !strings.Contains(got.Header().Get("Vary"), "Origin") {
		t.Errorf("allowed origin headers=%v, want Access-Control-Allow-Origin and Vary: Origin", got.Header())
	}
	wantError(t, allow.do("GET", "/v1/memories?user_id=alice", nil, "Origin", "https://app.example.evil"), http.StatusForbidden, lore.EFORBIDDEN, "origin")
}

// TestContentType: bodies must be JSON; text/plain and forms, which a
// browser sends cross-origin without a preflight, are refused before
// anything is stored.
func TestContentType(t *testing.T) {
	e := newEnv(t)
	body := `{"user_id":"alice","infer":false,"messages":[{"role":"user","content":"planted"}]}`
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
		wantError(t, e.do("POST", "/v1/memories", body, "Content-Type", ct), http.StatusUnsupportedMediaType, lore.EMEDIATYPE, "application/json")
	}
	wantError(t, e.do("PUT", "/v1/memories/x", `{"user_id":"alice","text":"x"}`, "Content-Type", "text/plain"), http.StatusUnsupportedMediaType, lore.EMEDIATYPE, "application/json")
	if p := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil)); len(p.Results) != 0 {
		t.Fatalf("refused bodies stored %d memories, want 0", len(p.Results))
	}
	e.must(http.StatusOK, "POST", "/v1/memories", body, "Content-Type", "application/json; charset=utf-8")
	e.must(http.StatusOK, "POST", "/v1/memories/search", `{"user_id":"alice","query":"planted"}`, "Content-Type", "application/vnd.lore+json")
}

// TestInputLimits: invalid UTF-8 anywhere is 400 naming the field; an
// update is capped like an add; queries and pages are bounded.
func TestInputLimits(t *testing.T) {
	e := newEnv(t)
	e.svc.Config.MaxContentBytes = 100
	wantError(t, e.do("POST", "/v1/memories", "{\"user_id\":\"alice\",\"messages\":[{\"role\":\"user\",\"content\":\"caf\xe9\"}]}"),
		http.StatusBadRequest, lore.EINVALID, "messages[0].content is not valid UTF-8")
	wantError(t, e.do("POST", "/v1/memories/search", "{\"user_id\":\"alice\",\"query\":\"\xff\"}"), http.StatusBadRequest, lore.EINVALID, "query is not valid UTF-8")
	wantError(t, e.do("GET", "/v1/memories?user_id=al%FFice", nil), http.StatusBadRequest, lore.EINVALID, "user_id is not valid UTF-8")

	long := strings.Repeat("a", 101)
	wantError(t, e.do("POST", "/v1/memories", map[string]any{"user_id": "alice", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": long}}}), http.StatusRequestEntityTooLarge, lore.ETOOLARGE, "100 bytes")
	id := decode[addDone](t, e.must(http.StatusOK, "POST", "/v1/memories", map[string]any{"user_id": "alice", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": "short"}}})).EpisodeIDs[0]
	wantError(t, e.do("PUT", "/v1/memories/"+id, map[string]any{"user_id": "alice", "text": long}), http.StatusRequestEntityTooLarge, lore.ETOOLARGE, "text is longer than 100 bytes")
	wantError(t, e.do("PUT", "/v1/memories/"+id, "{\"user_id\":\"alice\",\"text\":\"\xc3\"}"), http.StatusBadRequest, lore.EINVALID, "text is not valid UTF-8")
	e.must(http.StatusOK, "PUT", "/v1/memories/"+id, map[string]any{"user_id": "alice", "text": strings.Repeat("b", 100)})

	wantError(t, e.do("POST", "/v1/memories/search", map[string]any{"user_id": "alice", "query": strings.Repeat("q", MaxQueryBytes+1)}),
		http.StatusBadRequest, lore.EINVALID, "query is longer than 4096 bytes")
	e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"user_id": "alice", "query": strings.Repeat("q ", MaxQueryBytes/2)})

	for _, q := range []string{"page=9223372036854775807", "page=1002&page_size=1000", "page=9223372036854775807&page_size=1000"} {
		wantError(t, e.do("GET", "/v1/memories?user_id=alice&"+q, nil), http.StatusBadRequest, lore.EINVALID, "page")
	}
	e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice&page=1001&page_size=999", nil)
}
