package api

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

func TestProfileRoutes(t *testing.T) {
	e := newEnv(t)
	if got := decode[profileView](t, e.must(http.StatusOK, "GET", "/v1/users/alice/profile", nil)); got.Entries == nil || len(got.Entries) != 0 {
		t.Fatalf("empty profile=%+v, want entries []", got)
	}
	for _, c := range []struct {
		name string
		body any
		want string
	}{
		{"no entries", map[string]any{"entries": []any{}}, "entries is required"},
		{"bad second entry", map[string]any{"entries": []map[string]any{{"key": "diet", "value": "vegan"}, {"key": "!!", "value": "x"}}}, "entries[1]"},
		{"empty value", map[string]any{"entries": []map[string]any{{"key": "diet", "value": "  "}}}, "needs a value"},
		{"inferred not allowed", map[string]any{"entries": []map[string]any{{"key": "diet", "value": "vegan", "source": "inferred"}}}, "source"},
		{"not JSON", "{", "malformed"},
	} {
		wantError(t, e.do("PUT", "/v1/users/alice/profile", c.body), http.StatusBadRequest, lore.EINVALID, c.want)
	}
	if got := decode[profileView](t, e.must(http.StatusOK, "GET", "/v1/users/alice/profile", nil)); len(got.Entries) != 0 {
		t.Fatalf("bad PUTs wrote %+v, want nothing", got.Entries)
	}
	put := func(key, value string) profileView {
		return decode[profileView](t, e.must(http.StatusOK, "PUT", "/v1/users/alice/profile",
			map[string]any{"entries": []map[string]any{{"key": key, "value": value}}}))
	}
	put("diet", "vegan")
	got := put("Diet", "vegetarian")
	if len(got.Written) != 1 || !got.Written[0].Written || len(got.Written[0].Replaced) != 1 || len(got.Entries) != 1 || got.Entries[0].Value != "vegetarian" {
		t.Fatalf("second PUT=%+v, want vegetarian replacing vegan", got)
	}
	hist := decode[profileView](t, e.must(http.StatusOK, "GET", "/v1/users/alice/profile?history=true", nil))
	if len(hist.History) != 1 || hist.History[0].Value != "vegan" || hist.History[0].ReplacedAt == nil {
		t.Errorf("history=%+v, want vegan replaced", hist.History)
	}
	wantError(t, e.do("DELETE", "/v1/users/alice/profile/allergy", nil), http.StatusNotFound, lore.ENOTFOUND, "allergy")
	wantError(t, e.do("GET", "/v1/users/alice/profile?history=maybe", nil), http.StatusBadRequest, lore.EINVALID, "history")
	// bob's profile is his own.
	if got := decode[profileView](t, e.must(http.StatusOK, "GET", "/v1/users/bob/profile", nil)); len(got.Entries) != 0 {
		t.Errorf("bob's profile=%+v, want empty", got.Entries)
	}
	e.must(http.StatusOK, "DELETE", "/v1/users/alice/profile/diet", nil)
	if got := decode[profileView](t, e.must(http.StatusOK, "GET", "/v1/users/alice/profile?history=true", nil)); len(got.Entries) != 0 || len(got.History) != 0 {
		t.Errorf("after DELETE: %+v, want nothing", got)
	}
}

func TestSearchCarriesAndFeedsProfile(t *testing.T) {
	e := newEnv(t, func(s *Server) { s.Search.Profiles = s.Store.(lore.ProfileStore) })
	e.runWorkers()
	e.addSync("alice", "I'm vegetarian and I live in Denver.")
	var resp retrieve.Response
	resp = decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search",
		map[string]any{"user_id": "alice", "query": "vegan recipes for tonight", "infer_profile": false}))
	if len(resp.Profile) != 2 || !strings.HasPrefix(resp.Context, "About the user:\n") || !strings.Contains(resp.Context, "diet: vegetarian (stated)") {
		t.Fatalf("profile=%+v context=%q, want the stated profile and its section", resp.Profile, resp.Context)
	}
	time.Sleep(50 * time.Millisecond)
	if n := len(decode[profileView](t, e.must(http.StatusOK, "GET", "/v1/users/alice/profile", nil)).Entries); n != 2 {
		t.Errorf("infer_profile false: %d entries, want the 2 stated", n)
	}
	e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"user_id": "alice", "query": "best climbing gyms around here"})
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := decode[profileView](t, e.must(http.StatusOK, "GET", "/v1/users/alice/profile", nil))
		if len(got.Entries) == 3 {
			if got.Entries[1].Key != "interest" || got.Entries[1].Source != lore.ProfileInferred || !strings.HasPrefix(got.Entries[1].Evidence[0], "query:") {
				t.Errorf("inferred entry %+v, want interest from the query hash", got.Entries[1])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("profile=%+v, want the inferred interest after the search", got.Entries)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// An agent-only search has no profile.
	resp = decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"agent_id": "bot", "query": "x"}))
	if resp.Profile == nil || len(resp.Profile) != 0 {
		t.Errorf("agent-only profile=%v, want []", resp.Profile)
	}
}
