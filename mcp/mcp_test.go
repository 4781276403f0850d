package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/api"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/mcp"
	"github.com/lore-memory/lore/retrieve"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// newAPI returns an API server over a fresh embedded store with the rules
// extractor.
func newAPI(t *testing.T) (*api.Server, *sqlite.Store) {
	t.Helper()
	store, idx := sqlitetest.Open(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &ingest.Service{Store: store, Index: idx, Extractor: rules.New(), Config: ingest.DefaultConfig(), Logger: log}
	return &api.Server{
		Store: store, Index: idx, Ingest: svc,
		Search: &retrieve.Pipeline{Graph: store, Index: idx, Feedback: store, Config: retrieve.DefaultConfig()},
		Logger: log, Version: "test",
	}, store
}

// connect runs m on an in-memory transport and returns a connected client.
func connect(t *testing.T, m *mcp.Server) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := m.New().Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server Connect: %v", err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("client Connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool and returns its structured output; a tool error fails
// the test.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s(%v): tool error %s", name, args, text(res))
	}
	var out map[string]any
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, raw, err)
	}
	return out
}

// callErr calls a tool that must fail and returns its error text.
func callErr(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err.Error()
	}
	if !res.IsError {
		t.Fatalf("%s(%v) = %s, want a tool error", name, args, text(res))
	}
	return text(res)
}

func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func results(t *testing.T, out map[string]any) []map[string]any {
	t.Helper()
	raw, _ := json.Marshal(out["results"])
	var rs []map[string]any
	if err := json.Unmarshal(raw, &rs); err != nil {
		t.Fatalf("results %s: %v", raw, err)
	}
	return rs
}

func TestToolsListedWithSchemas(t *testing.T) {
	srv, _ := newAPI(t)
	cs := connect(t, &mcp.Server{API: srv.Routes(), OperatorTenant: "acme"})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		schema, _ := json.Marshal(tool.InputSchema)
		if tool.Description == "" || !strings.Contains(string(schema), `"user_id"`) {
			t.Errorf("tool %s: description %q, schema %s; want a description and a user_id property", tool.Name, tool.Description, schema)
		}
	}
	slices.Sort(names)
	want := []string{"add_memory", "delete_memory", "delete_profile_key", "get_memory", "get_profile", "list_memories",
		"record_feedback", "search_memory", "set_profile", "update_memory"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	for _, tool := range res.Tools {
		schema, _ := json.Marshal(tool.InputSchema)
		if tool.Name == "search_memory" && !strings.Contains(string(schema), `"required":["query"]`) {
			t.Errorf("search_memory schema %s: want query required", schema)
		}
		if tool.Name == "record_feedback" && !strings.Contains(string(schema), `"required":["memory_id","helpful"]`) {
			t.Errorf("record_feedback schema %s: want memory_id and helpful required", schema)
		}
		if tool.Name == "set_profile" && !strings.Contains(string(schema), `"required":["entries"]`) {
			t.Errorf("set_profile schema %s: want entries required", schema)
		}
	}
}

// TestMemoryLifecycle walks every tool and the facts resource through the
// in-memory transport, as `lore mcp` serves them over stdio.
func TestMemoryLifecycle(t *testing.T) {
	srv, _ := newAPI(t)
	cs := connect(t, &mcp.Server{API: srv.Routes(), OperatorTenant: "acme"})

	added := call(t, cs, "add_memory", map[string]any{"user_id": "alice", "messages": []map[string]any{
		{"role": "user", "content": "I live in Paris. My sister Emma lives in Rome.", "created_at": "2024-05-01T10:00:00Z"},
	}})
	var paris string
	for _, r := range results(t, added) {
		if strings.Contains(r["memory"].(string), "Paris") && r["type"] == "fact" {
			paris = r["id"].(string)
		}
	}
	if paris == "" {
		t.Fatalf("add_memory gave no fact about Paris: %v", added)
	}

	found := call(t, cs, "search_memory", map[string]any{"user_id": "alice", "query": "Where does my sister live?", "explain": true})
	rs := results(t, found)
	if len(rs) == 0 || !strings.Contains(rs[0]["memory"].(string), "Rome") {
		t.Fatalf("search_memory top result %v, want Emma's Rome fact first", rs)
	}
	if _, ok := rs[0]["score_details"]; !ok {
		t.Errorf("explain gave no score_details: %v", rs[0])
	}

	listed := call(t, cs, "list_memories", map[string]any{"user_id": "alice", "type": "fact"})
	if n := len(results(t, listed)); n < 2 {
		t.Errorf("list_memories gave %d facts, want at least 2", n)
	}

	updated := call(t, cs, "update_memory", map[string]any{"user_id": "alice", "id": paris, "text": "I live in Lyon."})
	if !strings.Contains(updated["memory"].(string), "Lyon") {
		t.Errorf("update_memory answered %v, want the Lyon text", updated)
	}
	got := call(t, cs, "get_memory", map[string]any{"user_id": "alice", "id": paris, "history": true})
	hist, _ := got["history"].([]any)
	if len(hist) < 2 {
		t.Errorf("get_memory history %v, want ADD and UPDATE", got["history"])
	}

	// The resource lists the current facts.
	rr, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: mcp.FactsURI("alice")})
	if err != nil {
		t.Fatalf("ReadResource: %v", err)
	}
	if len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "Lyon") || !strings.Contains(rr.Contents[0].Text, "Rome") {
		t.Errorf("facts resource %+v, want the Lyon and Rome facts", rr.Contents)
	}

	call(t, cs, "delete_memory", map[string]any{"user_id": "alice", "id": paris})
	if msg := callErr(t, cs, "get_memory", map[string]any{"user_id": "alice", "id": paris}); !strings.Contains(msg, "not_found") {
		t.Errorf("get_memory after delete: %q, want not_found", msg)
	}

	// The operator's tenant is fixed: another tenant's user has nothing.
	other := connect(t, &mcp.Server{API: srv.Routes(), OperatorTenant: "other"})
	if n := len(results(t, call(t, other, "list_memories", map[string]any{"user_id": "alice"}))); n != 0 {
		t.Errorf("tenant other sees %d of acme's memories, want 0", n)
	}
}

// profileValues maps a profile's keys to "value source".
func profileValues(t *testing.T, out map[string]any) map[string]string {
	t.Helper()
	entries, ok := out["entries"].([]any)
	if !ok {
		t.Fatalf("profile %v has no entries list", out)
	}
	m := map[string]string{}
	for _, e := range entries {
		en := e.(map[string]any)
		m[en["key"].(string)] = en["value"].(string) + " " + en["source"].(string)
	}
	return m
}

// TestProfileAndFeedback reads a profile fed by a conversation, sets an
// entry, reads the profile resource, and rates a search result.
func TestProfileAndFeedback(t *testing.T) {
	srv, _ := newAPI(t)
	cs := connect(t, &mcp.Server{API: srv.Routes(), OperatorTenant: "acme"})
	call(t, cs, "add_memory", map[string]any{"user_id": "alice", "messages": []map[string]any{
		{"role": "user", "content": "I live in Paris. I have a dog named Max. My sister Emma lives in Rome.", "created_at": "2024-05-01T10:00:00Z"},
	}})
	got := profileValues(t, call(t, cs, "get_profile", map[string]any{"user_id": "alice"}))
	if got["location"] != "Paris explicit" || got["pet"] != "dog explicit" {
		t.Fatalf("get_profile after the conversation: %v, want location Paris and pet dog, explicit", got)
	}

	set := call(t, cs, "set_profile", map[string]any{"user_id": "alice", "entries": []map[string]any{
		{"key": "diet", "value": "vegetarian"}, {"key": "location", "value": "Lyon"}}})
	if w, _ := set["written"].([]any); len(w) != 2 {
		t.Errorf("set_profile written %v, want 2 writes", set["written"])
	}
	if got := profileValues(t, set); got["diet"] != "vegetarian explicit" || got["location"] != "Lyon explicit" {
		t.Errorf("set_profile answered %v, want diet vegetarian and location Lyon", got)
	}
	withHist := call(t, cs, "get_profile", map[string]any{"user_id": "alice", "history": true})
	hist, _ := withHist["history"].([]any)
	if len(hist) != 1 || hist[0].(map[string]any)["value"] != "Paris" {
		t.Errorf("get_profile history %v, want the replaced Paris entry", withHist["history"])
	}

	rr, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: mcp.ProfileURI("alice")})
	if err != nil {
		t.Fatalf("ReadResource profile: %v", err)
	}
	body := rr.Contents[0].Text
	for _, want := range []string{"diet: vegetarian (explicit, confidence", "location: Lyon", "pet: dog"} {
		if !strings.Contains(body, want) {
			t.Errorf("profile resource %q, want %q in it", body, want)
		}
	}
	gone := call(t, cs, "delete_profile_key", map[string]any{"user_id": "alice", "key": "pet"})
	if gone["key"] != "pet" || !near(gone["deleted"], 1) {
		t.Errorf("delete_profile_key answered %v, want pet with 1 entry deleted", gone)
	}
	if got := profileValues(t, call(t, cs, "get_profile", map[string]any{"user_id": "alice"})); got["pet"] != "" || got["diet"] == "" {
		t.Errorf("profile after forgetting pet: %v, want no pet and the diet kept", got)
	}
	if msg := callErr(t, cs, "delete_profile_key", map[string]any{"user_id": "alice", "key": "pet"}); !strings.Contains(msg, "not_found") {
		t.Errorf("forgetting pet twice: %q, want not_found", msg)
	}
	empty, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: mcp.ProfileURI("nobody")})
	if err != nil || !strings.Contains(empty.Contents[0].Text, "No profile entries yet") {
		t.Errorf("profile resource of a user without entries: %v, %v", empty, err)
	}

	const q = "Where does my sister live?"
	rs := results(t, call(t, cs, "search_memory", map[string]any{"user_id": "alice", "query": q}))
	if len(rs) == 0 {
		t.Fatal("search_memory found nothing")
	}
	id := rs[0]["id"].(string)
	up := call(t, cs, "record_feedback", map[string]any{"user_id": "alice", "memory_id": id, "helpful": true, "query": q})
	if up["memory_id"] != id || up["helpful"] != true || !near(up["new_relevance"], 1.15) || !near(up["delta_applied"], 0.15) || up["event_id"] == "" {
		t.Errorf("record_feedback helpful: %v, want relevance 1.15 after +0.15", up)
	}
	down := call(t, cs, "record_feedback", map[string]any{"user_id": "alice", "memory_id": id, "helpful": false})
	if !near(down["new_relevance"], 1.05) || !near(down["delta_applied"], -0.10) {
		t.Errorf("record_feedback unhelpful: %v, want relevance 1.05 after -0.10", down)
	}
	// Another user cannot rate alice's memory: it is not in their scope.
	if msg := callErr(t, cs, "record_feedback", map[string]any{"user_id": "bob", "memory_id": id, "helpful": true}); !strings.Contains(msg, "not_found") {
		t.Errorf("bob rating alice's memory: %q, want not_found", msg)
	}
}

func near(v any, want float64) bool {
	f, ok := v.(float64)
	return ok && f > want-1e-9 && f < want+1e-9
}

func TestBadInputIsAToolError(t *testing.T) {
	srv, _ := newAPI(t)
	cs := connect(t, &mcp.Server{API: srv.Routes(), OperatorTenant: "acme"})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search_memory", map[string]any{"user_id": "alice", "query": " "}, "query is required"},
		{"search_memory", map[string]any{"user_id": "alice", "query": "x", "top_k": 5000}, "top_k must be between"},
		{"search_memory", map[string]any{"query": "x"}, "user_id"},
		{"add_memory", map[string]any{"user_id": "alice"}, "messages (or text) is required"},
		{"add_memory", map[string]any{"user_id": "alice", "text": "a", "messages": []map[string]any{{"role": "user", "content": "b"}}}, "not both"},
		{"get_memory", map[string]any{"user_id": "alice", "id": "../keys"}, "id"},
		{"list_memories", map[string]any{"user_id": "alice", "type": "thing"}, "type must be"},
		{"get_profile", map[string]any{}, "user_id is required"},
		{"get_profile", map[string]any{"user_id": "a/b"}, "slash"},
		{"set_profile", map[string]any{"user_id": "alice", "entries": []map[string]any{}}, "entries is required"},
		{"set_profile", map[string]any{"user_id": "alice", "entries": []map[string]any{{"key": "diet", "value": ""}}}, "entries[0]"},
		{"delete_profile_key", map[string]any{"user_id": "alice", "key": " "}, "key is required"},
		{"delete_profile_key", map[string]any{"user_id": "alice", "key": "../keys"}, "not a profile key"},
		{"record_feedback", map[string]any{"user_id": "alice", "memory_id": "", "helpful": true}, "id is required"},
		{"record_feedback", map[string]any{"user_id": "alice", "memory_id": "x"}, "helpful"},
		{"record_feedback", map[string]any{"user_id": "alice", "memory_id": "00000000-0000-0000-0000-000000000000", "helpful": true}, "not_found"},
	} {
		if msg := callErr(t, cs, c.tool, c.args); !strings.Contains(msg, c.want) {
			t.Errorf("%s(%v): %q, want it to say %q", c.tool, c.args, msg, c.want)
		}
	}
}

// TestHTTPEndpointAuth serves /mcp behind Lore's own auth middleware and
// connects with the SDK's streamable HTTP client: no key is refused, a key
// pinned to a user fills it in and refuses others, a tenant's key never
// sees another tenant.
func TestHTTPEndpointAuth(t *testing.T) {
	srv, store := newAPI(t)
	m := &mcp.Server{API: srv.Routes(), Version: "test"}
	srv.MCP = m.HTTPHandler()
	a := &api.Auth{Keys: store, Secret: testSecret, Required: true, Logger: srv.Logger}
	srv.Auth = a
	srv.Middleware = []func(http.Handler) http.Handler{a.Middleware}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	ctx := context.Background()
	key := func(k lore.APIKey) string {
		k.CreatedAt = time.Now().Add(-time.Minute)
		tok, err := api.NewKey(ctx, store, testSecret, &k)
		if err != nil {
			t.Fatalf("NewKey: %v", err)
		}
		return tok
	}
	dial := func(token string) (*sdk.ClientSession, error) {
		hc := &http.Client{Transport: bearerTransport{token: token}}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
			Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: hc}, nil)
		if err == nil {
			t.Cleanup(func() { _ = cs.Close() })
		}
		return cs, err
	}

	if _, err := dial(""); err == nil {
		t.Fatal("connecting without a key succeeded, want 401")
	}
	if _, err := dial("lore_" + strings.Repeat("x", 43)); err == nil {
		t.Fatal("connecting with an unknown key succeeded, want 401")
	}

	alice, err := dial(key(lore.APIKey{TenantID: "acme", UserID: "alice"}))
	if err != nil {
		t.Fatalf("connect with alice's key: %v", err)
	}
	call(t, alice, "add_memory", map[string]any{"text": "I work at Acme as a welder."})
	rs := results(t, call(t, alice, "search_memory", map[string]any{"query": "Where do I work?"}))
	if len(rs) == 0 || !strings.Contains(rs[0]["memory"].(string), "Acme") {
		t.Fatalf("search with the pinned key: %v, want the Acme fact", rs)
	}
	if msg := callErr(t, alice, "list_memories", map[string]any{"user_id": "bob"}); !strings.Contains(msg, "forbidden") {
		t.Errorf("alice's key listing bob: %q, want forbidden", msg)
	}
	// The profile tools take the key's user when none is named.
	call(t, alice, "set_profile", map[string]any{"entries": []map[string]any{{"key": "diet", "value": "vegan"}}})
	if got := profileValues(t, call(t, alice, "get_profile", nil)); got["diet"] != "vegan explicit" {
		t.Errorf("get_profile with alice's pinned key: %v, want diet vegan", got)
	}
	if msg := callErr(t, alice, "get_profile", map[string]any{"user_id": "bob"}); !strings.Contains(msg, "forbidden") {
		t.Errorf("alice's key reading bob's profile: %q, want forbidden", msg)
	}
	if rr, err := alice.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.ProfileURI("bob")}); err == nil {
		t.Errorf("alice's key read bob's profile resource: %v", rr.Contents)
	}

	tenantKey := key(lore.APIKey{TenantID: "acme"})
	acme, err := dial(tenantKey)
	if err != nil {
		t.Fatalf("connect with acme's key: %v", err)
	}
	if n := len(results(t, call(t, acme, "list_memories", map[string]any{"user_id": "alice"}))); n == 0 {
		t.Error("acme's tenant key sees none of alice's memories")
	}
	other, err := dial(key(lore.APIKey{TenantID: "other"}))
	if err != nil {
		t.Fatalf("connect with other's key: %v", err)
	}
	if n := len(results(t, call(t, other, "list_memories", map[string]any{"user_id": "alice"}))); n != 0 {
		t.Errorf("another tenant's key sees %d of acme's memories, want 0", n)
	}
	rr, err := acme.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.FactsURI("alice")})
	if err != nil || !strings.Contains(rr.Contents[0].Text, "Acme") {
		t.Errorf("facts resource over HTTP: %v, %v; want the Acme fact", rr, err)
	}

	// A body over the server's limit is refused before the SDK buffers it.
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_memory","arguments":{"text":"` + strings.Repeat("x", 3<<20) + `"}}}`
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(big))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tenantKey)
	if res, err := http.DefaultClient.Do(req); err != nil {
		t.Errorf("oversized POST /mcp: %v", err)
	} else {
		res.Body.Close()
		if res.StatusCode < 400 {
			t.Errorf("oversized POST /mcp: %s, want a refusal", res.Status)
		}
	}

	// A revoked key stops working at its next request.
	k, err := store.KeyByHash(ctx, lore.KeyHash(testSecret, tenantKey))
	if err != nil {
		t.Fatalf("KeyByHash: %v", err)
	}
	if _, err := store.RevokeKey(ctx, "", k.ID, time.Now()); err != nil {
		t.Fatalf("RevokeKey: %v", err)
	}
	_, err = acme.CallTool(ctx, &sdk.CallToolParams{Name: "list_memories", Arguments: map[string]any{"user_id": "alice"}})
	if err == nil || !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Errorf("call with a revoked key: %v, want a 401", err)
	}
}

// TestHTTPOpenLoopback: a loopback server without keys serves /mcp without
// one, as it serves the API, and the X-Lore-Tenant header of the MCP
// request picks the tenant.
func TestHTTPOpenLoopback(t *testing.T) {
	srv, store := newAPI(t)
	srv.MCP = (&mcp.Server{API: srv.Routes()}).HTTPHandler()
	a := &api.Auth{Keys: store, Secret: testSecret, Loopback: true, Logger: srv.Logger}
	srv.Auth = a
	srv.Middleware = []func(http.Handler) http.Handler{a.Middleware}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	hc := &http.Client{Transport: headerTransport{name: api.TenantHeader, value: "acme"}}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect without a key to an open loopback server: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	call(t, cs, "add_memory", map[string]any{"user_id": "alice", "text": "I live in Oslo."})

	acme := connect(t, &mcp.Server{API: srv.Routes(), OperatorTenant: "acme"})
	if rs := results(t, call(t, acme, "list_memories", map[string]any{"user_id": "alice", "type": "fact"})); len(rs) == 0 {
		t.Error("the memory added over open HTTP with X-Lore-Tenant: acme is not in tenant acme")
	}
	def := connect(t, &mcp.Server{API: srv.Routes(), OperatorTenant: "default"})
	if rs := results(t, call(t, def, "list_memories", map[string]any{"user_id": "alice"})); len(rs) != 0 {
		t.Errorf("tenant default holds %d memories, want none", len(rs))
	}
}

// headerTransport sends one header with every request.
type headerTransport struct{ name, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// bearerTransport sends an Authorization header with every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}
