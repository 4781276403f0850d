package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

func TestAddSyncReturnsFactsAndEpisodes(t *testing.T) {
	e := newEnv(t)
	res := e.addSync("alice", "I live in Paris. I work at Google.")
	if len(res.EpisodeIDs) != 1 {
		t.Fatalf("len(episode_ids)=%d, want 1", len(res.EpisodeIDs))
	}
	ev := factEvent(t, res.Results, "Paris")
	if ev.Event != lore.EventAdd {
		t.Errorf("event=%q, want ADD", ev.Event)
	}
	factEvent(t, res.Results, "Google")
}

func TestAddAsyncQueuesJobThatWorkersFinish(t *testing.T) {
	e := newEnv(t)
	rec := e.must(http.StatusAccepted, "POST", "/v1/memories", map[string]any{
		"user_id":  "alice",
		"messages": []map[string]any{{"role": "user", "content": "I live in Lisbon."}},
	})
	acc := decode[addAccepted](t, rec)
	if acc.JobID == "" || len(acc.EpisodeIDs) != 1 {
		t.Fatalf("answer=%+v, want a job id and one episode id", acc)
	}
	job := decode[lore.Job](t, e.must(http.StatusOK, "GET", "/v1/jobs/"+acc.JobID+"?user_id=alice", nil))
	if job.Status != lore.JobQueued {
		t.Errorf("status before workers=%q, want queued", job.Status)
	}
	e.runWorkers()
	deadline := time.Now().Add(10 * time.Second)
	for job.Status != lore.JobDone {
		if time.Now().After(deadline) {
			t.Fatalf("job status=%q after 10s, want done", job.Status)
		}
		time.Sleep(20 * time.Millisecond)
		job = decode[lore.Job](t, e.must(http.StatusOK, "GET", "/v1/jobs/"+acc.JobID+"?user_id=alice", nil))
	}
	factEvent(t, job.Events, "Lisbon")
	// A finished job cannot be retried.
	wantError(t, e.do("POST", "/v1/jobs/"+acc.JobID+"/retry?user_id=alice", nil), http.StatusConflict, lore.ECONFLICT, "only failed jobs")
}

// failingExtractor fails every extraction, to dead-letter jobs.
type failingExtractor struct{}

func (failingExtractor) Extract(context.Context, lore.ExtractRequest) (*lore.Extraction, error) {
	return nil, errors.New("extractor down")
}

func TestRetryRequeuesFailedJob(t *testing.T) {
	e := newEnv(t)
	e.svc.Extractor = failingExtractor{}
	e.svc.Config.MaxAttempts = 1
	acc := decode[addAccepted](t, e.must(http.StatusAccepted, "POST", "/v1/memories", map[string]any{
		"user_id": "alice", "messages": []map[string]any{{"role": "user", "content": "I live in Rome."}},
	}))
	e.runWorkers()
	path := "/v1/jobs/" + acc.JobID + "?user_id=alice"
	deadline := time.Now().Add(10 * time.Second)
	for decode[lore.Job](t, e.must(http.StatusOK, "GET", path, nil)).Status != lore.JobFailed {
		if time.Now().After(deadline) {
			t.Fatalf("job not failed after 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	wantError(t, e.do("POST", "/v1/jobs/"+acc.JobID+"/retry?user_id=bob", nil), http.StatusNotFound, lore.ENOTFOUND, acc.JobID)
	job := decode[lore.Job](t, e.must(http.StatusAccepted, "POST", "/v1/jobs/"+acc.JobID+"/retry?user_id=alice", nil))
	if job.Status == lore.JobFailed {
		t.Errorf("status after retry=%q, want it queued again", job.Status)
	}
}

func TestAddInferFalseStoresVerbatim(t *testing.T) {
	e := newEnv(t)
	rec := e.must(http.StatusOK, "POST", "/v1/memories", map[string]any{
		"user_id": "alice", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": "Remember the blue door code 4411."}},
	})
	res := decode[addDone](t, rec)
	if len(res.Results) != 1 || res.Results[0].Type != lore.KindEpisode || res.Results[0].Event != lore.EventAdd {
		t.Fatalf("results=%+v, want one ADD episode", res.Results)
	}
	page := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil))
	if len(page.Results) != 1 || page.Results[0].Memory != "Remember the blue door code 4411." {
		t.Fatalf("list=%+v, want the verbatim episode only", page.Results)
	}
}

func TestSearchFindsFactWithSources(t *testing.T) {
	e := newEnv(t)
	e.addSync("alice", "I live in Paris.")
	rec := e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{
		"query": "where does she live", "user_id": "alice", "explain": true, "types": []string{"fact"},
	})
	resp := decode[retrieve.Response](t, rec)
	if len(resp.Results) == 0 {
		t.Fatalf("no results; want the Paris fact")
	}
	top := resp.Results[0]
	if top.Type != lore.KindFact || !strings.Contains(top.Memory, "Paris") {
		t.Errorf("top=%q (%s), want the Paris fact", top.Memory, top.Type)
	}
	if len(top.Sources) != 1 || top.Sources[0].SourceID != "D1:1" || !top.Sources[0].OccurredAt.Equal(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("sources=%+v, want the D1:1 turn of 2024-05-01", top.Sources)
	}
	if len(top.ScoreDetails) == 0 {
		t.Errorf("score_details empty with explain")
	}
	if !strings.Contains(resp.Context, "Paris") {
		t.Errorf("context=%q, want it to mention Paris", resp.Context)
	}
}

func TestSearchEmptyScopeAnswersEmptyArrays(t *testing.T) {
	e := newEnv(t)
	rec := e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"query": "anything", "user_id": "nobody"})
	body := rec.Body.String()
	if !strings.Contains(body, `"results":[]`) || !strings.Contains(body, `"entities":[]`) {
		t.Errorf("body=%s, want empty arrays, not null", body)
	}
}

func TestGetUpdateHistoryDeleteFact(t *testing.T) {
	e := newEnv(t)
	id := factEvent(t, e.addSync("alice", "I live in Paris.").Results, "Paris").ID

	got := decode[Memory](t, e.must(http.StatusOK, "GET", "/v1/memories/"+id+"?user_id=alice", nil))
	if got.Type != lore.KindFact || got.Fact == nil || got.Fact.Object != "Paris" {
		t.Fatalf("get=%+v, want the Paris fact", got)
	}

	upd := decode[Memory](t, e.must(http.StatusOK, "PUT", "/v1/memories/"+id, map[string]any{
		"user_id": "alice", "text": "Alice lives in Paris, near the Louvre", "metadata": map[string]any{"checked": true},
	}))
	if upd.Memory != "Alice lives in Paris, near the Louvre" || upd.Metadata["checked"] != true {
		t.Fatalf("update=%+v, want the new text and metadata", upd)
	}
	// The index holds the new text: a word only it contains finds it.
	resp := decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"query": "Louvre", "user_id": "alice", "types": []string{"fact"}}))
	if len(resp.Results) == 0 || resp.Results[0].ID != id {
		t.Fatalf("search Louvre=%+v, want the updated fact %s first", resp.Results, id)
	}

	hist := decode[history](t, e.must(http.StatusOK, "GET", "/v1/memories/"+id+"/history?user_id=alice", nil))
	if n := len(hist.Results); n < 2 {
		t.Fatalf("len(history)=%d, want ADD and UPDATE", n)
	}
	last := hist.Results[len(hist.Results)-1]
	if last.Event != lore.EventUpdate || last.Actor != apiActor || last.After != "Alice lives in Paris, near the Louvre" {
		t.Errorf("last event=%+v, want UPDATE by api with the new text", last)
	}

	del := decode[deleted](t, e.must(http.StatusOK, "DELETE", "/v1/memories/"+id+"?user_id=alice", nil))
	if del.ID != id || del.Type != lore.KindFact {
		t.Errorf("delete=%+v, want fact %s", del, id)
	}
	wantError(t, e.do("GET", "/v1/memories/"+id+"?user_id=alice", nil), http.StatusNotFound, lore.ENOTFOUND, id)
	resp = decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"query": "Louvre", "user_id": "alice", "types": []string{"fact"}}))
	if len(resp.Results) != 0 {
		t.Errorf("search after delete=%+v, want nothing", resp.Results)
	}
	hist = decode[history](t, e.must(http.StatusOK, "GET", "/v1/memories/"+id+"/history?user_id=alice", nil))
	if ev := hist.Results[len(hist.Results)-1]; ev.Event != lore.EventDelete {
		t.Errorf("last event after delete=%q, want DELETE (history outlives the memory)", ev.Event)
	}
}

func TestUpdateAndDeleteEpisode(t *testing.T) {
	e := newEnv(t)
	id := e.addSync("alice", "I live in Paris.").EpisodeIDs[0]
	upd := decode[Memory](t, e.must(http.StatusOK, "PUT", "/v1/memories/"+id+"?user_id=alice", map[string]any{"memory": "I live in Paris with my cat Tom."}))
	if upd.Type != lore.KindEpisode || upd.Memory != "I live in Paris with my cat Tom." {
		t.Fatalf("update=%+v, want the episode with new content", upd)
	}
	resp := decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"query": "cat Tom", "user_id": "alice", "types": []string{"episode"}}))
	if len(resp.Results) == 0 || resp.Results[0].ID != id {
		t.Fatalf("search=%+v, want the updated episode", resp.Results)
	}
	e.must(http.StatusOK, "DELETE", "/v1/memories/"+id+"?user_id=alice", nil)
	wantError(t, e.do("GET", "/v1/memories/"+id+"?user_id=alice", nil), http.StatusNotFound, lore.ENOTFOUND, id)
}

func TestListPaginatesFactsThenEpisodes(t *testing.T) {
	e := newEnv(t)
	e.addSync("alice", "I live in Paris.")
	e.addSync("alice", "I work at Google.")
	var msgs []map[string]any
	for i := range 3 {
		msgs = append(msgs, map[string]any{"role": "user", "content": fmt.Sprintf("note number %d", i)})
	}
	e.must(http.StatusOK, "POST", "/v1/memories", map[string]any{"user_id": "alice", "infer": false, "messages": msgs})

	all := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice&page_size=1000", nil))
	var facts, eps int
	for i, m := range all.Results {
		switch m.Type {
		case lore.KindFact:
			facts++
			if eps > 0 {
				t.Fatalf("result %d is a fact after an episode; want facts first", i)
			}
		case lore.KindEpisode:
			eps++
		}
	}
	if facts < 2 || eps != 5 || all.HasMore {
		t.Fatalf("facts=%d eps=%d has_more=%v, want >=2, 5, false", facts, eps, all.HasMore)
	}
	// Walking pages of two yields the same sequence.
	var walked []string
	for page := 1; ; page++ {
		p := decode[memoryPage](t, e.must(http.StatusOK, "GET", fmt.Sprintf("/v1/memories?user_id=alice&page=%d&page_size=2", page), nil))
		for _, m := range p.Results {
			walked = append(walked, m.ID)
		}
		if !p.HasMore {
			break
		}
		if page > 20 {
			t.Fatalf("more than 20 pages")
		}
	}
	if len(walked) != len(all.Results) {
		t.Fatalf("walked %d memories, want %d", len(walked), len(all.Results))
	}
	for i := range walked {
		if walked[i] != all.Results[i].ID {
			t.Fatalf("walked[%d]=%s, want %s", i, walked[i], all.Results[i].ID)
		}
	}
	only := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice&type=episode", nil))
	if len(only.Results) != 5 {
		t.Errorf("type=episode gave %d, want 5", len(only.Results))
	}
	onlyFacts := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice&type=fact&page_size=1", nil))
	if len(onlyFacts.Results) != 1 || onlyFacts.Results[0].Type != lore.KindFact || !onlyFacts.HasMore {
		t.Errorf("type=fact page_size=1 gave %+v has_more=%v, want one fact and more", onlyFacts.Results, onlyFacts.HasMore)
	}
}

func TestGraphShowsEntitiesAndEdges(t *testing.T) {
	e := newEnv(t)
	e.addSync("alice", "I live in Paris. My sister Emma works at Google.")
	g := decode[graphView](t, e.must(http.StatusOK, "GET", "/v1/users/alice/graph", nil))
	names := map[string]bool{}
	for _, ent := range g.Entities {
		names[ent.Name] = true
	}
	if !names["Paris"] {
		t.Errorf("entities=%v, want Paris among them", names)
	}
	var found bool
	for _, ed := range g.Edges {
		if ed.Predicate == "lives_in" && ed.Object == "Paris" {
			found = ed.Source != "" && ed.Target != ""
		}
	}
	if !found {
		t.Errorf("edges=%+v, want lives_in Paris between two entities", g.Edges)
	}
	small := decode[graphView](t, e.must(http.StatusOK, "GET", "/v1/users/alice/graph?limit=1", nil))
	if len(small.Entities) != 1 || len(small.Edges) != 1 {
		t.Errorf("limit=1 gave %d entities, %d edges; want 1 and 1", len(small.Entities), len(small.Edges))
	}
}

func TestEraseUserRemovesEverything(t *testing.T) {
	e := newEnv(t)
	e.addSync("alice", "I live in Paris.")
	e.addSync("bob", "I live in Oslo.")
	er := decode[erased](t, e.must(http.StatusOK, "DELETE", "/v1/memories?user_id=alice", nil))
	if er.Deleted.Episodes != 1 || er.Deleted.Facts < 1 || er.Deleted.Entities < 1 {
		t.Errorf("deleted=%+v, want 1 episode and at least one fact and entity", er.Deleted)
	}
	if p := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil)); len(p.Results) != 0 {
		t.Errorf("alice's list after erase=%+v, want empty", p.Results)
	}
	resp := decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"query": "Paris", "user_id": "alice"}))
	if len(resp.Results) != 0 {
		t.Errorf("alice's search after erase=%+v, want nothing", resp.Results)
	}
	if p := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=bob", nil)); len(p.Results) == 0 {
		t.Errorf("bob's memories are gone after erasing alice")
	}
}

// TestScopeIsolation: user B never sees user A's memories, by any route.
func TestScopeIsolation(t *testing.T) {
	e := newEnv(t)
	a := e.addSync("alice", "I live in Paris. I work at Google.")
	factID := factEvent(t, a.Results, "Paris").ID
	epID := a.EpisodeIDs[0]
	acc := decode[addAccepted](t, e.must(http.StatusAccepted, "POST", "/v1/memories", map[string]any{
		"user_id": "alice", "messages": []map[string]any{{"role": "user", "content": "I like jazz."}},
	}))

	resp := decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"query": "Paris Google live work", "user_id": "bob"}))
	if len(resp.Results) != 0 || len(resp.Entities) != 0 {
		t.Errorf("bob's search=%+v entities=%+v, want nothing", resp.Results, resp.Entities)
	}
	if p := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=bob", nil)); len(p.Results) != 0 {
		t.Errorf("bob's list=%+v, want empty", p.Results)
	}
	if g := decode[graphView](t, e.must(http.StatusOK, "GET", "/v1/users/bob/graph", nil)); len(g.Entities) != 0 || len(g.Edges) != 0 {
		t.Errorf("bob's graph=%+v, want empty", g)
	}
	for _, id := range []string{factID, epID} {
		wantError(t, e.do("GET", "/v1/memories/"+id+"?user_id=bob", nil), http.StatusNotFound, lore.ENOTFOUND, id)
		wantError(t, e.do("GET", "/v1/memories/"+id+"/history?user_id=bob", nil), http.StatusNotFound, lore.ENOTFOUND, id)
		wantError(t, e.do("PUT", "/v1/memories/"+id+"?user_id=bob", map[string]any{"text": "hijacked"}), http.StatusNotFound, lore.ENOTFOUND, id)
		wantError(t, e.do("DELETE", "/v1/memories/"+id+"?user_id=bob", nil), http.StatusNotFound, lore.ENOTFOUND, id)
		// Another tenant with the same user id is another user.
		wantError(t, e.do("GET", "/v1/memories/"+id+"?user_id=alice", nil, TenantHeader, "acme"), http.StatusNotFound, lore.ENOTFOUND, id)
	}
	wantError(t, e.do("GET", "/v1/jobs/"+acc.JobID+"?user_id=bob", nil), http.StatusNotFound, lore.ENOTFOUND, acc.JobID)
	e.must(http.StatusOK, "DELETE", "/v1/memories?user_id=bob", nil)

	// Alice still has everything, unchanged.
	got := decode[Memory](t, e.must(http.StatusOK, "GET", "/v1/memories/"+factID+"?user_id=alice", nil))
	if !strings.Contains(got.Memory, "Paris") {
		t.Errorf("alice's fact=%q after bob's attempts, want it unchanged", got.Memory)
	}
	e.must(http.StatusOK, "GET", "/v1/memories/"+epID+"?user_id=alice", nil)
	e.must(http.StatusOK, "GET", "/v1/jobs/"+acc.JobID+"?user_id=alice", nil)
}

func TestTenantFromHeaderBodyAndMiddleware(t *testing.T) {
	e := newEnv(t)
	e.must(http.StatusOK, "POST", "/v1/memories", map[string]any{
		"user_id": "alice", "tenant_id": "acme", "infer": false, "messages": []map[string]any{{"role": "user", "content": "acme note"}},
	})
	if p := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil, TenantHeader, "acme")); len(p.Results) != 1 {
		t.Fatalf("acme's list=%d memories, want 1", len(p.Results))
	}
	if p := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil)); len(p.Results) != 0 {
		t.Fatalf("default tenant's list=%d memories, want 0", len(p.Results))
	}
	wantError(t, e.do("GET", "/v1/memories?user_id=alice&tenant_id=acme", nil, TenantHeader, "other"), http.StatusBadRequest, lore.EINVALID, "tenant_id")

	// An authentication middleware fixes the tenant; the request may not
	// name another.
	e.srv.Middleware = []func(http.Handler) http.Handler{func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(WithTenant(r.Context(), "acme")))
		})
	}}
	if p := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil)); len(p.Results) != 1 {
		t.Errorf("list under the authenticated tenant=%d memories, want 1", len(p.Results))
	}
	wantError(t, e.do("GET", "/v1/memories?user_id=alice", nil, TenantHeader, "default"), http.StatusForbidden, lore.EFORBIDDEN, "authenticated tenant")
}

func TestHealthAndReadiness(t *testing.T) {
	e := newEnv(t)
	h := decode[map[string]string](t, e.must(http.StatusOK, "GET", "/healthz", nil))
	if h["status"] != "ok" || h["version"] != "test" {
		t.Errorf("healthz=%v, want ok and the version", h)
	}
	e.must(http.StatusOK, "GET", "/readyz", nil)
	e.store.Close()
	e.srv.Index.Close()
	wantError(t, e.do("GET", "/readyz", nil), http.StatusServiceUnavailable, lore.EUNAVAILABLE, "store")
}

// brokenStore fails reads with an infrastructure error carrying details
// that must not reach the caller.
type brokenStore struct{ lore.Store }

func (brokenStore) FindFacts(context.Context, lore.FactFilter) ([]*lore.Fact, error) {
	return nil, fmt.Errorf("sqlite: query /var/secret/lore.db: disk I/O error")
}

func TestInternalErrorIsLoggedOnceAndHidden(t *testing.T) {
	e := newEnv(t)
	e.srv.Store = brokenStore{e.store}
	wantError(t, e.do("GET", "/v1/memories?user_id=alice", nil), http.StatusInternalServerError, lore.EINTERNAL, "internal error")
	rec := e.do("GET", "/v1/memories?user_id=alice", nil)
	if strings.Contains(rec.Body.String(), "secret") {
		t.Errorf("body=%s leaks the internal error", rec.Body)
	}
	if n := strings.Count(e.logs.String(), "disk I/O error"); n != 2 {
		t.Errorf("internal error logged %d times for 2 requests, want 2:\n%s", n, e.logs)
	}
}

func TestQueryEscapedIDs(t *testing.T) {
	e := newEnv(t)
	wantError(t, e.do("GET", "/v1/memories/"+url.PathEscape("no such id")+"?user_id=alice", nil), http.StatusNotFound, lore.ENOTFOUND, "no such id")
}
