package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// postFact writes a fact for alice and returns the 201 answer.
func (e *testEnv) postFact(body map[string]any) factWritten {
	e.t.Helper()
	if _, ok := body["user_id"]; !ok {
		body["user_id"] = "alice"
	}
	return decode[factWritten](e.t, e.must(http.StatusCreated, "POST", "/v1/facts", body))
}

func TestPostFactMergesCountsAndSupersedes(t *testing.T) {
	e := newEnv(t)
	first := e.postFact(map[string]any{"subject": "I", "predicate": "Lives In", "object": "Paris", "source": "agent:planner"})
	if first.Event != lore.EventAdd || first.ID == "" || first.Fact == nil {
		t.Fatalf("first write=%+v, want ADD of a fact", first)
	}
	f := first.Fact
	if f.Subject != "alice" || f.Predicate != "lives_in" || f.Object != "Paris" || f.ObjectID == "" || f.Extractor != "agent:planner" || f.Count != 1 {
		t.Fatalf("fact=%+v, want alice (the user) lives_in the entity Paris, extractor agent:planner, count 1", f)
	}
	if f.Text != "alice lives in Paris" || f.ValidAt == nil {
		t.Errorf("text=%q valid_at=%v, want the default sentence and valid from now", f.Text, f.ValidAt)
	}
	// "me" and the user id are the user as well: the same fact, counted.
	again := e.postFact(map[string]any{"subject": "me", "predicate": "lives_in", "object": "paris"})
	if again.Event != lore.EventMerge || again.ID != first.ID || again.Fact.Count != 2 {
		t.Fatalf("repeat=%s %s count %d, want MERGE into %s with count 2", again.Event, again.ID, again.Fact.Count, first.ID)
	}
	// The same subject entity as extraction gives "I".
	factEvent(t, e.addSync("alice", "I work at Google.").Results, "Google")
	ents, _ := e.store.FindEntities(t.Context(), lore.EntityFilter{Scope: lore.Scope{TenantID: lore.DefaultTenant, UserID: "alice"}, Names: []string{"alice"}})
	if len(ents) != 1 || ents[0].ID != f.SubjectID {
		t.Fatalf("user entities=%v, want one, the fact's subject %s", ents, f.SubjectID)
	}

	// lives_in is single-valued: Berlin closes Paris.
	moved := e.postFact(map[string]any{"subject": "user", "predicate": "lives_in", "object": "Berlin", "text": "alice moved to Berlin"})
	if moved.Event != lore.EventAdd {
		t.Fatalf("move=%s, want ADD", moved.Event)
	}
	var kinds []string
	for _, ev := range moved.Results {
		kinds = append(kinds, string(ev.Event)+":"+ev.ID)
	}
	if !slices.Equal(kinds, []string{"INVALIDATE:" + first.ID, "ADD:" + moved.ID}) {
		t.Fatalf("move results=%q, want the Paris fact closed, then the Berlin one added", kinds)
	}
	paris := decode[Memory](t, e.must(http.StatusOK, "GET", "/v1/memories/"+first.ID+"?user_id=alice", nil))
	if paris.Fact.InvalidAt == nil || paris.Fact.ExpiredAt == nil {
		t.Errorf("Paris fact=%+v, want it closed", paris.Fact)
	}
	hist := decode[history](t, e.must(http.StatusOK, "GET", "/v1/memories/"+moved.ID+"/history?user_id=alice", nil))
	if len(hist.Results) != 1 || hist.Results[0].Actor != apiActor || hist.Results[0].Event != lore.EventAdd {
		t.Errorf("history=%+v, want ADD by api", hist.Results)
	}
	// Indexed like extracted facts.
	resp := decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"query": "Berlin", "user_id": "alice", "types": []string{"fact"}}))
	if len(resp.Results) == 0 || resp.Results[0].ID != moved.ID {
		t.Fatalf("search Berlin=%+v, want the written fact first", resp.Results)
	}
}

func TestPostFactLiteralAndEnded(t *testing.T) {
	e := newEnv(t)
	lit := e.postFact(map[string]any{"subject": "I", "predicate": "diet", "object": "vegetarian", "object_is_entity": false, "confidence": 0.95})
	if lit.Fact.ObjectID != "" || lit.Fact.Object != "vegetarian" || lit.Fact.Confidence != 0.95 {
		t.Fatalf("literal fact=%+v, want the literal vegetarian with confidence 0.95", lit.Fact)
	}
	job := e.postFact(map[string]any{"subject": "I", "predicate": "works_at", "object": "Spotify", "valid_at": "2020-01-01"})
	if job.Fact.ValidAt == nil || job.Fact.ValidAt.Year() != 2020 {
		t.Fatalf("valid_at=%v, want 2020-01-01", job.Fact.ValidAt)
	}
	// An ending closes the current twin.
	left := e.postFact(map[string]any{"subject": "I", "predicate": "works_at", "object": "Spotify", "invalid_at": "2024-06-01T00:00:00Z", "text": "alice left Spotify"})
	if left.Event != lore.EventInvalidate || left.ID != job.ID || left.Fact.InvalidAt == nil || left.Fact.InvalidAt.Year() != 2024 {
		t.Fatalf("ending=%s %s invalid_at %v, want INVALIDATE of %s at 2024-06-01", left.Event, left.ID, left.Fact.InvalidAt, job.ID)
	}
	// With nothing current to close, an ending is kept as history.
	old := e.postFact(map[string]any{"subject": "I", "predicate": "lives_in", "object": "Ottawa", "invalid_at": "2023-01-01"})
	if old.Event != lore.EventAdd || old.Fact.InvalidAt == nil || old.Fact.ValidAt != nil {
		t.Fatalf("past fact=%s %+v, want ADD, closed, start unknown", old.Event, old.Fact)
	}
	list := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice&type=fact", nil))
	for _, m := range list.Results {
		if m.ID == old.ID || m.ID == job.ID {
			t.Errorf("closed fact %s listed as current", m.ID)
		}
	}
}

func TestPostFactValidation(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name   string
		body   any
		status int
		code   string
		field  string
	}{
		{"no scope", map[string]any{"subject": "I", "predicate": "likes", "object": "tea"}, 400, lore.EINVALID, "user_id"},
		{"no subject", map[string]any{"user_id": "alice", "predicate": "likes", "object": "tea"}, 400, lore.EINVALID, "subject"},
		{"blank subject", map[string]any{"user_id": "alice", "subject": " - ", "predicate": "likes", "object": "tea"}, 400, lore.EINVALID, "subject"},
		{"no predicate", map[string]any{"user_id": "alice", "subject": "I", "object": "tea"}, 400, lore.EINVALID, "predicate"},
		{"bad predicate", map[string]any{"user_id": "alice", "subject": "I", "predicate": "!!!", "object": "tea"}, 400, lore.EINVALID, "predicate"},
		{"no object", map[string]any{"user_id": "alice", "subject": "I", "predicate": "likes"}, 400, lore.EINVALID, "object"},
		{"bad valid_at", map[string]any{"user_id": "alice", "subject": "I", "predicate": "likes", "object": "tea", "valid_at": "last week"}, 400, lore.EINVALID, "valid_at"},
		{"ends before it starts", map[string]any{"user_id": "alice", "subject": "I", "predicate": "likes", "object": "tea", "valid_at": "2024-05-01", "invalid_at": "2024-01-01"}, 400, lore.EINVALID, "invalid_at"},
		{"bad confidence", map[string]any{"user_id": "alice", "subject": "I", "predicate": "likes", "object": "tea", "confidence": 2}, 400, lore.EINVALID, "confidence"},
		{"long object", map[string]any{"user_id": "alice", "subject": "I", "predicate": "likes", "object": strings.Repeat("x", 2000)}, 400, lore.EINVALID, "object"},
		{"unknown field", map[string]any{"user_id": "alice", "subject": "I", "predicate": "likes", "object": "tea", "subjet": "x"}, 400, lore.EINVALID, "subjet"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.do("POST", "/v1/facts", c.body), c.status, c.code, c.field)
		})
	}
	list := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice&include_invalidated=true", nil))
	if len(list.Results) != 0 {
		t.Errorf("refused writes stored %d memories, want none", len(list.Results))
	}
}

func TestPutFactChangesItsTriple(t *testing.T) {
	e := newEnv(t)
	id := factEvent(t, e.addSync("alice", "I live in Paris.").Results, "Paris").ID

	// Given the triple's parts: the fact states them from now on.
	upd := decode[Memory](t, e.must(http.StatusOK, "PUT", "/v1/memories/"+id, map[string]any{
		"user_id": "alice", "text": "alice lives in Lisbon", "object": "Lisbon",
	}))
	if upd.Fact.Object != "Lisbon" || upd.Fact.ObjectID == "" || upd.Fact.Predicate != "lives_in" || upd.Memory != "alice lives in Lisbon" {
		t.Fatalf("update=%+v, want alice lives_in the entity Lisbon", upd.Fact)
	}
	graph := decode[map[string]any](t, e.must(http.StatusOK, "GET", "/v1/users/alice/graph", nil))
	if s := mustJSON(t, graph); !strings.Contains(s, "Lisbon") {
		t.Errorf("graph=%s, want the Lisbon entity", s)
	}
	hist := decode[history](t, e.must(http.StatusOK, "GET", "/v1/memories/"+id+"/history?user_id=alice", nil))
	last := hist.Results[len(hist.Results)-1]
	if last.Event != lore.EventUpdate || last.Actor != apiActor || !strings.Contains(last.Reason, "Lisbon") || !strings.Contains(last.Reason, "Paris") {
		t.Errorf("last event=%+v, want UPDATE by api whose reason names the old and new objects", last)
	}
	// Deduplication follows: the new triple stated again merges.
	again := factEvent(t, e.addSync("alice", "I live in Lisbon.").Results, "Lisbon")
	if again.ID != id || again.Event != lore.EventMerge {
		t.Errorf("restatement=%+v, want MERGE into %s", again, id)
	}

	// A literal object and a new predicate.
	upd = decode[Memory](t, e.must(http.StatusOK, "PUT", "/v1/memories/"+id, map[string]any{
		"user_id": "alice", "predicate": "Home Town", "object": "lisbon", "object_is_entity": false,
	}))
	if upd.Fact.Predicate != "home_town" || upd.Fact.ObjectID != "" || upd.Fact.Object != "lisbon" {
		t.Fatalf("update=%+v, want home_town the literal lisbon", upd.Fact)
	}
}

func TestPutFactRederivesOrRefuses(t *testing.T) {
	e := newEnv(t)
	id := factEvent(t, e.addSync("alice", "I live in Paris.").Results, "Paris").ID
	other := factEvent(t, e.addSync("alice", "I work at Google.").Results, "Google").ID

	// Only the text: the triple is read from it.
	upd := decode[Memory](t, e.must(http.StatusOK, "PUT", "/v1/memories/"+id, map[string]any{"user_id": "alice", "text": "I live in Madrid"}))
	if upd.Fact.Predicate != "lives_in" || upd.Fact.Object != "Madrid" || upd.Fact.ObjectID == "" {
		t.Fatalf("re-derived fact=%+v, want lives_in Madrid", upd.Fact)
	}
	// A text no fact can be read from is refused, saying what to do.
	rec := e.do("PUT", "/v1/memories/"+id, map[string]any{"user_id": "alice", "text": "hmm, not sure any more"})
	wantError(t, rec, http.StatusBadRequest, lore.EINVALID, "give subject, predicate and object to change what this fact states, or delete it and add a new one")
	got := decode[Memory](t, e.must(http.StatusOK, "GET", "/v1/memories/"+id+"?user_id=alice", nil))
	if got.Memory != "I live in Madrid" || got.Fact.Object != "Madrid" {
		t.Errorf("refused update changed the fact: %+v", got.Fact)
	}
	// Another current fact's triple is a conflict.
	rec = e.do("PUT", "/v1/memories/"+other, map[string]any{"user_id": "alice", "predicate": "lives_in", "object": "Madrid"})
	wantError(t, rec, http.StatusConflict, lore.ECONFLICT, id)
	// Episodes have no triple.
	epID := e.addSync("alice", "I like tea.").EpisodeIDs[0]
	wantError(t, e.do("PUT", "/v1/memories/"+epID, map[string]any{"user_id": "alice", "object": "coffee"}), http.StatusBadRequest, lore.EINVALID, "facts only")
}

// mustJSON renders v as JSON for a failure message or a substring check.
func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
