package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/api"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// openAPI is the part of /openapi.json the contract test reads.
type openAPI struct {
	Paths      map[string]map[string]operation `json:"paths"`
	Components struct {
		Schemas map[string]schema `json:"schemas"`
	} `json:"components"`
}

type operation struct {
	Parameters []struct {
		Name string `json:"name"`
		In   string `json:"in"`
	} `json:"parameters"`
	RequestBody *struct {
		Content map[string]struct {
			Schema schema `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
	Responses map[string]struct {
		Content map[string]struct {
			Schema schema `json:"schema"`
		} `json:"content"`
	} `json:"responses"`
}

type schema struct {
	Ref        string            `json:"$ref"`
	Properties map[string]schema `json:"properties"`
	OneOf      []schema          `json:"oneOf"`
}

// props returns the property names of s, following $ref and oneOf.
func (d *openAPI) props(s schema) map[string]bool {
	out := map[string]bool{}
	if s.Ref != "" {
		return d.props(d.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")])
	}
	for k := range s.Properties {
		out[k] = true
	}
	for _, o := range s.OneOf {
		for k := range d.props(o) {
			out[k] = true
		}
	}
	return out
}

// jsonFields returns the JSON names of a struct's fields, embedded structs
// without a tag flattened.
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if tag == "-" || !f.IsExported() {
			continue
		}
		if tag == "" {
			continue // query-only fields (ListRequest) are checked as parameters
		}
		out = append(out, tag)
	}
	return out
}

// call is one client call and the contract it must keep.
type call struct {
	method, path string   // as openapi.json spells it
	query        []string // query parameters the client sends
	req          any      // body type, nil for none
	resp         any      // answer type
	codes        []string // answers whose schemas together cover resp
}

var calls = []call{
	{"POST", "/v1/memories", nil, AddRequest{}, AddResult{}, []string{"200", "202"}},
	{"POST", "/v1/memories/search", nil, SearchRequest{}, retrieve.Response{}, []string{"200"}},
	{"GET", "/v1/memories", []string{"user_id", "agent_id", "run_id", "type", "page", "page_size", "include_invalidated"}, nil, MemoryPage{}, []string{"200"}},
	{"GET", "/v1/memories/{id}", []string{"user_id", "agent_id", "run_id"}, nil, Memory{}, []string{"200"}},
	{"PUT", "/v1/memories/{id}", nil, UpdateRequest{}, Memory{}, []string{"200"}},
	{"DELETE", "/v1/memories/{id}", []string{"user_id", "agent_id", "run_id"}, nil, Deleted{}, []string{"200"}},
	{"GET", "/v1/memories/{id}/history", []string{"user_id", "agent_id", "run_id"}, nil, History{}, []string{"200"}},
	{"DELETE", "/v1/memories", []string{"user_id", "agent_id", "run_id"}, nil, Erased{}, []string{"200"}},
	{"POST", "/v1/facts", nil, FactRequest{}, FactWritten{}, []string{"201"}},
	{"GET", "/v1/jobs/{id}", []string{"user_id", "agent_id", "run_id"}, nil, lore.Job{}, []string{"200"}},
	{"GET", "/v1/usage", nil, nil, Usage{}, []string{"200"}},
}

// TestMatchesOpenAPI fails when a call's route, query parameter, or a JSON
// field of its body or answer is not in the server's OpenAPI document.
func TestMatchesOpenAPI(t *testing.T) {
	var doc openAPI
	if err := json.Unmarshal(api.OpenAPI(), &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	for _, c := range calls {
		op, ok := doc.Paths[c.path][strings.ToLower(c.method)]
		if !ok {
			t.Errorf("%s %s is not in openapi.json", c.method, c.path)
			continue
		}
		params := map[string]bool{}
		for _, p := range op.Parameters {
			params[p.Name] = true
		}
		for _, q := range c.query {
			if !params[q] {
				t.Errorf("%s %s: query parameter %q is not documented", c.method, c.path, q)
			}
		}
		if c.req != nil {
			if op.RequestBody == nil {
				t.Errorf("%s %s: the client sends a body, the document none", c.method, c.path)
			} else {
				want := doc.props(op.RequestBody.Content["application/json"].Schema)
				for _, f := range jsonFields(reflect.TypeOf(c.req)) {
					if !want[f] {
						t.Errorf("%s %s: request field %q is not in the document's schema", c.method, c.path, f)
					}
				}
			}
		}
		have := map[string]bool{}
		for _, code := range c.codes {
			r, ok := op.Responses[code]
			if !ok {
				t.Errorf("%s %s: no %s answer documented", c.method, c.path, code)
				continue
			}
			for k := range doc.props(r.Content["application/json"].Schema) {
				have[k] = true
			}
		}
		for _, f := range jsonFields(reflect.TypeOf(c.resp)) {
			if !have[f] {
				t.Errorf("%s %s: answer field %q is not in the document's schema", c.method, c.path, f)
			}
		}
	}
}

// server runs Lore's API over a temporary store and records the route
// pattern of every request it answers.
func server(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	store, idx := sqlitetest.Open(t)
	svc := &ingest.Service{Store: store, Index: idx, Extractor: rules.New(), Config: ingest.DefaultConfig()}
	srv := &api.Server{Store: store, Index: idx, Ingest: svc,
		Search: &retrieve.Pipeline{Graph: store, Index: idx, Config: retrieve.DefaultConfig()}, Version: "test"}
	var mu sync.Mutex
	var hit []string
	id := regexp.MustCompile(`/[0-9a-f]{8}-[0-9a-f-]{27}`)
	h := srv.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hit = append(hit, r.Method+" "+id.ReplaceAllString(r.URL.Path, "/{id}"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), hit...) }
}

// TestAgainstServer walks every call against a real API and checks that
// it reached the route the contract names.
func TestAgainstServer(t *testing.T) {
	ts, hits := server(t)
	ctx := context.Background()
	c := New(ts.URL)
	alice := Scope{UserID: "alice"}
	if err := c.Health(ctx); err != nil {
		t.Fatalf("Health: %v", err)
	}
	added, err := c.Add(ctx, AddRequest{UserID: "alice", Sync: true, Messages: []Message{{Role: "user", Content: "I live in Paris and my sister Emma lives in Rome."}}})
	if err != nil || len(added.Results) == 0 {
		t.Fatalf("Add=%+v, %v; want extracted memories", added, err)
	}
	found, err := c.Search(ctx, SearchRequest{UserID: "alice", Query: "Where does my sister live?", TopK: 3})
	if err != nil || len(found.Results) == 0 || !strings.Contains(found.Results[0].Memory, "Rome") {
		t.Fatalf("Search=%+v, %v; want the Rome fact first", found, err)
	}
	page, err := c.List(ctx, ListRequest{Scope: alice, Type: lore.KindFact, PageSize: 2})
	if err != nil || len(page.Results) != 2 || !page.HasMore {
		t.Fatalf("List=%+v, %v; want two facts and more", page, err)
	}
	id := page.Results[0].ID
	if m, err := c.Get(ctx, alice, id); err != nil || m.ID != id {
		t.Fatalf("Get=%+v, %v", m, err)
	}
	meta := map[string]any{"k": "v"}
	if m, err := c.Update(ctx, id, UpdateRequest{UserID: "alice", Metadata: meta}); err != nil || m.Metadata["k"] != "v" {
		t.Fatalf("Update=%+v, %v", m, err)
	}
	if h, err := c.History(ctx, alice, id); err != nil || len(h.Results) < 2 {
		t.Fatalf("History=%+v, %v; want ADD and UPDATE", h, err)
	}
	if d, err := c.Delete(ctx, alice, id); err != nil || d.Event != lore.EventDelete {
		t.Fatalf("Delete=%+v, %v", d, err)
	}
	_, err = c.Get(ctx, alice, id)
	var ce *Error
	if !errors.As(err, &ce) || ce.Status != http.StatusNotFound || lore.ErrorCode(err) != lore.ENOTFOUND {
		t.Fatalf("Get after delete err=%v, want a 404 not_found", err)
	}
	if f, err := c.AddFact(ctx, FactRequest{UserID: "alice", Subject: "Emma", Predicate: "works_as", Object: "architect"}); err != nil || f.Fact == nil {
		t.Fatalf("AddFact=%+v, %v", f, err)
	}
	queued, err := c.Add(ctx, AddRequest{UserID: "alice", Messages: []Message{{Role: "user", Content: "I work at Acme."}}})
	if err != nil || queued.JobID == "" {
		t.Fatalf("Add (queued)=%+v, %v", queued, err)
	}
	if j, err := c.Job(ctx, alice, queued.JobID); err != nil || j.ID != queued.JobID {
		t.Fatalf("Job=%+v, %v", j, err)
	}
	if u, err := c.Usage(ctx); err != nil || u.TenantID != "default" || u.LLM {
		t.Fatalf("Usage=%+v, %v", u, err)
	}
	if e, err := c.Erase(ctx, alice); err != nil || e.Deleted.Facts == 0 {
		t.Fatalf("Erase=%+v, %v", e, err)
	}
	ctx2, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if _, err := New("http://127.0.0.1:1").Search(ctx2, SearchRequest{UserID: "a", Query: "q"}); lore.ErrorCode(err) != lore.EUNAVAILABLE {
		t.Errorf("unreachable server err=%v, want unavailable", err)
	}

	// Every contract route was exercised, and nothing else was called.
	want := map[string]bool{"GET /healthz": true}
	for _, c := range calls {
		want[c.method+" "+c.path] = true
	}
	got := map[string]bool{}
	for _, h := range hits() {
		got[h] = true
		if !want[h] {
			t.Errorf("the client called %s, which is not in its contract", h)
		}
	}
	var missing []string
	for w := range want {
		if !got[w] {
			missing = append(missing, w)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("calls never exercised: %v", missing)
	}
}
