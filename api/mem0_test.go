package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// mem0Add adds text for alice through mem0's v3 add, extracting within the
// request (async_mode false), and returns the events.
func mem0AddSync(t *testing.T, e *testEnv, text string, header ...string) []mem0Event {
	t.Helper()
	rec := e.must(http.StatusOK, "POST", "/v3/memories/add/", map[string]any{
		"messages": []map[string]any{{"role": "user", "content": text}}, "filters": map[string]any{"user_id": "alice"},
		"async_mode": false, "version": "v2", "output_format": "v1.1", "metadata": map[string]any{"src": "chat"},
	}, header...)
	var out struct {
		Status  string      `json:"status"`
		Results []mem0Event `json:"results"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Status != "SUCCEEDED" {
		t.Fatalf("add answered %s (%v), want status SUCCEEDED", rec.Body, err)
	}
	return out.Results
}

func TestMem0RoundTrip(t *testing.T) {
	ae := newAuthEnv(t)
	key := ae.key(lore.APIKey{TenantID: "acme"})
	tok := []string{"Authorization", "Token " + key}
	e := ae.testEnv

	ping := decode[map[string]any](t, e.must(http.StatusOK, "GET", "/v1/ping/", nil, tok...))
	if ping["status"] != "ok" || ping["tenant_id"] != "acme" {
		t.Errorf("ping=%v, want status ok in tenant acme", ping)
	}

	events := mem0AddSync(t, e, "I live in Paris and my sister Emma lives in Rome.", tok...)
	var factID string
	for _, ev := range events {
		if ev.Type == lore.KindFact && strings.HasPrefix(ev.Memory, "user's sister Emma lives in Rome") && ev.Event == "ADD" {
			factID = ev.ID
		}
	}
	if factID == "" {
		t.Fatalf("add events=%+v, want a fact about Rome", events)
	}

	// infer false stores the message itself as a memory.
	rec := e.must(http.StatusOK, "POST", "/v3/memories/add/", map[string]any{
		"messages": []map[string]any{{"role": "user", "content": "Remember: the wifi password is tulip."}},
		"user_id":  "alice", "infer": false, "metadata": map[string]any{"src": "note"}}, tok...)
	verbatim := decode[struct{ Results []mem0Event }](t, rec).Results
	if len(verbatim) != 1 || verbatim[0].Type != lore.KindEpisode {
		t.Fatalf("infer false events=%+v, want one episode", verbatim)
	}

	// Search with a v2 filter and a v1 filter finds the same memory.
	for _, filters := range []any{
		map[string]any{"AND": []any{map[string]any{"user_id": "alice"}, map[string]any{"created_at": map[string]any{"gte": "2000-01-01"}}}},
		map[string]any{"user_id": "alice"},
	} {
		res := decode[struct {
			Results   []mem0Memory   `json:"results"`
			Relations []mem0Relation `json:"relations"`
		}](t, e.must(http.StatusOK, "POST", "/v3/memories/search/", map[string]any{
			"query": "Where does my sister live?", "filters": filters, "top_k": 3, "enable_graph": true}, tok...))
		if len(res.Results) == 0 || !strings.Contains(res.Results[0].Memory, "Rome") || res.Results[0].Score == nil {
			t.Fatalf("search %v=%+v, want the Rome fact first with a score", filters, res.Results)
		}
		if *res.Results[0].UserID != "alice" || res.Results[0].Lore.Type != lore.KindFact {
			t.Errorf("result=%+v, want alice's fact", res.Results[0])
		}
		if len(res.Relations) == 0 || res.Relations[0].Destination == "" {
			t.Errorf("relations=%+v, want the facts' triples", res.Relations)
		}
	}
	// v2 answers a bare list. The add's metadata stays on the stored
	// message (extracted facts carry none), so a metadata filter finds it.
	list := decode[[]mem0Memory](t, e.must(http.StatusOK, "POST", "/v2/memories/search/", map[string]any{
		"query": "wifi password", "filters": map[string]any{"AND": []any{map[string]any{"user_id": "alice"}, map[string]any{"metadata": map[string]any{"src": "note"}}}}, "version": "v2"}, tok...))
	if len(list) != 1 || list[0].ID != verbatim[0].ID || list[0].Metadata["src"] != "note" {
		t.Errorf("v2 search=%+v, want the verbatim memory alone", list)
	}

	// get_all: facts and the verbatim message, never the conversation turn.
	page := decode[struct {
		Count   int          `json:"count"`
		Next    *string      `json:"next"`
		Results []mem0Memory `json:"results"`
	}](t, e.must(http.StatusOK, "POST", "/v3/memories/?page=1&page_size=2", map[string]any{"filters": map[string]any{"user_id": "alice"}}, tok...))
	if page.Count < 3 || len(page.Results) != 2 || page.Next == nil {
		t.Errorf("get_all page=%+v, want count >= 3, two results and a next link", page)
	}
	all := decode[[]mem0Memory](t, e.must(http.StatusOK, "GET", "/v1/memories/?user_id=alice", nil, tok...))
	for _, m := range all {
		if m.Lore.Type == lore.KindEpisode && m.ID != verbatim[0].ID {
			t.Errorf("listing holds conversation turn %q, want facts and verbatim messages only", m.Memory)
		}
	}

	// get, update and history by id alone, as the SDK sends them.
	got := decode[mem0Memory](t, e.must(http.StatusOK, "GET", "/v1/memories/"+factID+"/", nil, tok...))
	if got.ID != factID || got.UserID == nil || *got.UserID != "alice" {
		t.Errorf("get=%+v, want the fact of alice", got)
	}
	upd := decode[mem0Memory](t, e.must(http.StatusOK, "PUT", "/v1/memories/"+factID+"/", map[string]any{"data": "Emma lives in Milan"}, tok...))
	if upd.Memory != "Emma lives in Milan" || upd.Lore.Object != "Milan" {
		t.Errorf("update=%+v, want the new text and triple", upd)
	}
	// expiration_date closes the fact's validity; it then shows only with
	// show_expired.
	exp := decode[mem0Memory](t, e.must(http.StatusOK, "PUT", "/v1/memories/"+factID+"/", map[string]any{"expiration_date": "2020-01-31"}, tok...))
	if exp.ExpirationDate == nil || *exp.ExpirationDate != "2020-01-31" || exp.Lore.Current {
		t.Errorf("expired=%+v, want expiration_date 2020-01-31 and not current", exp)
	}
	for _, c := range []struct {
		show bool
		want bool
	}{{false, false}, {true, true}} {
		res := decode[struct{ Results []mem0Memory }](t, e.must(http.StatusOK, "POST", "/v3/memories/", map[string]any{
			"filters": map[string]any{"user_id": "alice"}, "show_expired": c.show}, tok...))
		found := false
		for _, m := range res.Results {
			found = found || m.ID == factID
		}
		if found != c.want {
			t.Errorf("get_all show_expired=%v lists the expired fact: %v, want %v", c.show, found, c.want)
		}
	}
	wantError(t, e.do("PUT", "/v1/memories/"+factID+"/", map[string]any{"expiration_date": nil}, tok...), http.StatusBadRequest, lore.EINVALID, "cannot be cleared")
	hist := decode[[]mem0HistoryEntry](t, e.must(http.StatusOK, "GET", "/v1/memories/"+factID+"/history/", nil, tok...))
	if len(hist) < 3 || hist[0].Event != "ADD" || hist[1].Event != "UPDATE" || hist[len(hist)-1].LoreEvent != lore.EventInvalidate {
		t.Errorf("history=%+v, want ADD, UPDATE…, INVALIDATE last", hist)
	}

	// users(), then delete one memory, then delete the user as reset does.
	ents := decode[struct {
		Results    []mem0Entity `json:"results"`
		TotalUsers int          `json:"total_users"`
	}](t, e.must(http.StatusOK, "GET", "/v1/entities/", nil, tok...))
	if ents.TotalUsers != 1 || len(ents.Results) != 1 || ents.Results[0].Name != "alice" || ents.Results[0].TotalMemories < 3 {
		t.Errorf("entities=%+v, want alice alone with her memories", ents)
	}
	del := decode[map[string]string](t, e.must(http.StatusOK, "DELETE", "/v1/memories/"+verbatim[0].ID+"/", nil, tok...))
	if del["message"] == "" {
		t.Errorf("delete=%v, want a message", del)
	}
	e.must(http.StatusNotFound, "GET", "/v1/memories/"+verbatim[0].ID+"/", nil, tok...)
	// History outlives the memory and is found without a user.
	if h := decode[[]mem0HistoryEntry](t, e.must(http.StatusOK, "GET", "/v1/memories/"+verbatim[0].ID+"/history/", nil, tok...)); h[len(h)-1].Event != "DELETE" {
		t.Errorf("history after delete=%+v, want DELETE last", h)
	}
	e.must(http.StatusOK, "DELETE", "/v2/entities/user/alice/", nil, tok...)
	if left := decode[[]mem0Memory](t, e.must(http.StatusOK, "GET", "/v1/memories/?user_id=alice", nil, tok...)); len(left) != 0 {
		t.Errorf("after deleting the user: %d memories, want none", len(left))
	}
}

func TestMem0AsyncAddAndEvent(t *testing.T) {
	e := newEnv(t)
	e.runWorkers()
	rec := e.must(http.StatusOK, "POST", "/v3/memories/add/", map[string]any{
		"messages": []map[string]any{{"role": "user", "content": "I work at Google."}}, "filters": map[string]any{"user_id": "bob"}})
	queued := decode[map[string]any](t, rec)
	id, _ := queued["event_id"].(string)
	if queued["status"] != "PENDING" || id == "" {
		t.Fatalf("add=%v, want PENDING with an event_id", queued)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		ev := decode[map[string]any](t, e.must(http.StatusOK, "GET", "/v1/event/"+id+"/", nil))
		if ev["status"] == "SUCCEEDED" {
			if res, _ := ev["results"].([]any); len(res) == 0 {
				t.Errorf("event=%v, want the extracted memories", ev)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("event still %v after 10 s", ev["status"])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMem0RefusesWhatItCannotHonour(t *testing.T) {
	e := newEnv(t)
	msg := []map[string]any{{"role": "user", "content": "hi"}}
	cases := []struct {
		name, method, path string
		body               any
		substr             string
	}{
		{"custom instructions", "POST", "/v3/memories/add/", map[string]any{"messages": msg, "user_id": "a", "custom_instructions": "only food"}, "custom_instructions"},
		{"app scope", "POST", "/v3/memories/add/", map[string]any{"messages": msg, "app_id": "x"}, "app_id"},
		{"no scope", "POST", "/v3/memories/add/", map[string]any{"messages": msg}, "user_id or agent_id"},
		{"OR of users", "POST", "/v3/memories/search/", map[string]any{"query": "q", "filters": map[string]any{"OR": []any{map[string]any{"user_id": "a"}, map[string]any{"user_id": "b"}}}}, "OR"},
		{"wildcard user", "POST", "/v3/memories/search/", map[string]any{"query": "q", "filters": map[string]any{"user_id": "*"}}, "wildcard"},
		{"two users", "POST", "/v3/memories/search/", map[string]any{"query": "q", "user_id": "a", "filters": map[string]any{"user_id": "b"}}, "twice"},
		{"categories", "POST", "/v3/memories/search/", map[string]any{"query": "q", "filters": map[string]any{"user_id": "a", "categories": map[string]any{"contains": "x"}}}, "categories"},
		{"contains on metadata", "POST", "/v3/memories/search/", map[string]any{"query": "q", "filters": map[string]any{"user_id": "a", "metadata": map[string]any{"k": map[string]any{"contains": "x"}}}}, "contains"},
		{"empty query", "POST", "/v3/memories/search/", map[string]any{"query": " ", "filters": map[string]any{"user_id": "a"}}, "query"},
		{"unknown field", "POST", "/v3/memories/", map[string]any{"filters": map[string]any{"user_id": "a"}, "colour": 1}, "colour"},
		{"delete all of nobody", "DELETE", "/v1/memories/", nil, "user_id, agent_id or run_id"},
		{"app entity", "DELETE", "/v2/entities/app/x/", nil, "app"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := e.do(c.method, c.path, c.body)
			wantError(t, rec, http.StatusBadRequest, lore.EINVALID, c.substr)
			if !strings.Contains(rec.Body.String(), `"detail"`) {
				t.Errorf("body %s, want mem0's detail beside the error", rec.Body)
			}
		})
	}
}

func TestMem0Filters(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	cases := []struct {
		name, raw       string
		user, agent     string
		since, until    time.Time
		meta            string
		wantErrContains string
	}{
		{name: "v1 flat", raw: `{"user_id":"u","topic":"x"}`, user: "u", meta: `{"topic":"x"}`},
		{name: "v2 AND with dates", raw: `{"AND":[{"user_id":{"eq":"u"}},{"created_at":{"gte":"2024-01-01","lte":"2024-01-31"}}]}`, user: "u", since: day("2024-01-01"), until: day("2024-02-01")},
		{name: "in of one", raw: `{"agent_id":{"in":["bot"]}}`, agent: "bot"},
		{name: "OR of one", raw: `{"OR":[{"user_id":"u"}]}`, user: "u"},
		{name: "metadata ops", raw: `{"user_id":"u","metadata":{"n":{"gte":2},"k":{"eq":"v"}}}`, user: "u", meta: `{"k":"v","n":{"gte":2}}`},
		{name: "NOT", raw: `{"NOT":[{"user_id":"u"}]}`, wantErrContains: "NOT"},
		{name: "in of two", raw: `{"user_id":{"in":["a","b"]}}`, wantErrContains: "exactly one"},
		{name: "keywords", raw: `{"user_id":"u","keywords":{"icontains":"x"}}`, wantErrContains: "keywords"},
		{name: "bad date op", raw: `{"user_id":"u","created_at":{"ne":"2024-01-01"}}`, wantErrContains: "unknown operator"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var f mem0Filters
			err := parseMem0Filters(json.RawMessage(c.raw), &f)
			if c.wantErrContains != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErrContains) {
					t.Fatalf("err=%v, want one containing %q", err, c.wantErrContains)
				}
				return
			}
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if f.UserID != c.user || f.AgentID != c.agent {
				t.Errorf("scope=%q/%q, want %q/%q", f.UserID, f.AgentID, c.user, c.agent)
			}
			if (f.Since == nil) != c.since.IsZero() || (f.Since != nil && !f.Since.Equal(c.since)) {
				t.Errorf("since=%v, want %v", f.Since, c.since)
			}
			if (f.Until == nil) != c.until.IsZero() || (f.Until != nil && !f.Until.Equal(c.until)) {
				t.Errorf("until=%v, want %v", f.Until, c.until)
			}
			meta := ""
			if f.Meta != nil {
				b, _ := json.Marshal(f.Meta)
				meta = string(b)
			}
			if meta != c.meta {
				t.Errorf("metadata filter=%s, want %s", meta, c.meta)
			}
		})
	}
}
