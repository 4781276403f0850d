package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lore-memory/lore/audit"
)

// FuzzRequestDecoders sends any body to every route that decodes one, and
// any query string to the routes that read one: the answer is never a 5xx
// and always JSON (the error shape when it is not a success).
func FuzzRequestDecoders(f *testing.F) {
	routes := []struct{ method, path string }{
		{"POST", "/v1/memories"}, {"POST", "/v1/memories/search"}, {"POST", "/v1/facts"},
		{"PUT", "/v1/memories/00000000-0000-0000-0000-000000000000"},
		{"POST", "/v1/embeddings"}, {"PUT", "/v1/retention"},
		{"GET", "/v1/memories"}, {"DELETE", "/v1/memories"}, {"GET", "/v1/audit"}, {"GET", "/v1/users/alice/graph"},
	}
	for _, s := range []struct{ body, query string }{
		{`{"user_id":"alice","infer":false,"messages":[{"role":"user","content":"I live in Paris"}]}`, "user_id=alice"},
		{`{"user_id":"alice","query":"where do I live last week?","top_k":3,"filters":{"a":{"in":[1]}}}`, "user_id=alice&page=2&page_size=10"},
		{`{"user_id":"alice","subject":"user","predicate":"lives_in","object":"Rome","expires_at":"2999-01-01"}`, "agent_id=bot&type=fact"},
		{`{"input":["a","b"],"raw_text_days":3}`, "limit=5&after_seq=1&action=erase"},
		{`{"user_id":"alice","query":"ȺȺȺȺȺȺȺȺȺȺ last week"}`, "user_id=%FF"},
		// Runes whose lower case is longer once crashed the date parser
		// inside extraction.
		{`{"user_id":"alice","sync":true,"messages":[{"role":"user","content":"ȺȺȺȺȺȺȺȺȺȺȺȺȺȺ I moved to Paris last week."}]}`, ""},
		{`[`, "page=-1"}, {`{"messages":null}`, "run_id=x&user_id="}, {"\xff", "include_invalidated=maybe"},
	} {
		f.Add(s.body, s.query, uint8(0))
	}
	e := newEnv(f, func(s *Server) { s.Embedder = hashEmbedder{dim: 8} })
	// A loopback server without keys yet: every route answers, the audit
	// log included. POST /v1/keys is left out: the first key it made would
	// turn auth on for the rest of the run.
	auth := &Auth{Keys: e.store, Secret: testSecret, Loopback: true}
	e.srv.Auth, e.srv.Audit = auth, &audit.Log{Store: e.store, Key: testAuditKey}
	e.srv.Middleware = []func(http.Handler) http.Handler{auth.Middleware}
	h := e.srv.Handler()
	f.Fuzz(func(t *testing.T, body, query string, pick uint8) {
		r := routes[int(pick)%len(routes)]
		path := r.path
		if query != "" {
			path += "?" + query
		}
		req, err := http.NewRequest(r.method, "http://127.0.0.1"+path, strings.NewReader(body))
		if err != nil {
			return // not a request a client can send
		}
		if r.method != "GET" && r.method != "DELETE" {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Host = "127.0.0.1"
		req.RemoteAddr = "127.0.0.1:1234"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s with body %q: status %d; %s", r.method, path, body, rec.Code, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s: the answer is not JSON: %q", r.method, path, rec.Body)
		}
		if rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"error":{"code":"`) {
			t.Fatalf("%s %s: status %d without the error shape: %s", r.method, path, rec.Code, rec.Body)
		}
	})
}
