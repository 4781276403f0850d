package api

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// longMessage returns a message of about n bytes of log lines with needle
// about at offset at.
func longMessage(n, at int, needle string) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if b.Len() >= at && !strings.Contains(b.String(), needle) {
			b.WriteString(needle + " ")
		}
		fmt.Fprintf(&b, "Entry %d of the travel log says the weather was mild and the road was long. ", i)
		if i%10 == 9 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

func TestLongMessageIsStoredWholeAndSearchedInPassages(t *testing.T) {
	e := newEnv(t)
	const needle = "We finally adopted a tortoise called Quixotic Marmalade."
	content := longMessage(76<<10, 60<<10, needle)
	if len(content) <= 64<<10 {
		t.Fatalf("test message is %d bytes, want over 64 KiB", len(content))
	}
	add := decode[addDone](t, e.must(http.StatusOK, "POST", "/v1/memories", map[string]any{
		"user_id": "alice", "sync": true,
		"messages": []map[string]any{{"role": "user", "content": content, "created_at": "2024-05-01T10:00:00Z"}},
	}))
	id := add.EpisodeIDs[0]
	got := decode[Memory](t, e.must(http.StatusOK, "GET", "/v1/memories/"+id+"?user_id=alice", nil))
	if got.Episode == nil || got.Episode.Content != content {
		t.Fatalf("stored episode is %d bytes, want the whole %d-byte message", len(got.Memory), len(content))
	}

	search := func() retrieve.Response {
		return decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{
			"query": "Quixotic Marmalade tortoise", "user_id": "alice", "types": []string{"episode"},
		}))
	}
	resp := search()
	if len(resp.Results) != 1 {
		t.Fatalf("len(results)=%d, want the one episode (its passages fold into it)", len(resp.Results))
	}
	r := resp.Results[0]
	if r.ID != id || r.Passage == nil {
		t.Fatalf("result id=%q passage=%v, want episode %s with the passage that matched", r.ID, r.Passage, id)
	}
	at := strings.Index(content, needle)
	p := r.Passage
	if p.Start > at || at+len(needle) > p.End || content[p.Start:p.End] != p.Text || !strings.Contains(p.Text, needle) {
		t.Fatalf("passage %d [%d,%d) does not hold the phrase at %d", p.Index, p.Start, p.End, at)
	}
	if len(p.Text) > lore.MaxPassageBytes {
		t.Errorf("passage is %d bytes, want at most %d", len(p.Text), lore.MaxPassageBytes)
	}

	// A short message is indexed and found as before, with no passage.
	short := e.addSync("alice", "My tortoise likes strawberries.")
	resp = decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{
		"query": "strawberries", "user_id": "alice", "types": []string{"episode"},
	}))
	if len(resp.Results) == 0 || resp.Results[0].ID != short.EpisodeIDs[0] || resp.Results[0].Passage != nil {
		t.Fatalf("short message result=%+v, want it first without a passage", resp.Results)
	}

	// Editing the episode re-indexes its passages; deleting it removes them.
	edited := strings.Replace(content, "Quixotic Marmalade", "Sir Reginald", 1)
	e.must(http.StatusOK, "PUT", "/v1/memories/"+id, map[string]any{"user_id": "alice", "text": edited})
	resp = decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{
		"query": "tortoise Sir Reginald", "user_id": "alice", "types": []string{"episode"},
	}))
	if len(resp.Results) == 0 || resp.Results[0].ID != id || resp.Results[0].Passage == nil || !strings.Contains(resp.Results[0].Passage.Text, "Sir Reginald") {
		t.Fatalf("search after the edit=%+v, want the episode pointing at the edited passage", resp.Results)
	}
	e.must(http.StatusOK, "DELETE", "/v1/memories/"+id+"?user_id=alice", nil)
	hits, err := e.srv.Index.SearchText(t.Context(), lore.IndexQuery{Scope: lore.Scope{TenantID: lore.DefaultTenant, UserID: "alice"}, Text: "travel log weather tortoise", Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.ID == id || strings.HasPrefix(h.ID, id+"#") {
			t.Errorf("index still holds %s after the episode was deleted", h.ID)
		}
	}
}
