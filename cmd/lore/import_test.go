package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/ingest"
)

// openStore opens the sqlite store a command left in dir.
func openStore(t *testing.T, dir string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(dir, "lore.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// facts returns the scope's facts as "subject predicate object" strings,
// current ones and, separately, invalidated ones.
func facts(t *testing.T, s *sqlite.Store, user string) (current, old map[string]bool) {
	t.Helper()
	all, err := s.FindFacts(context.Background(), lore.FactFilter{Scope: lore.Scope{TenantID: lore.DefaultTenant, UserID: user}, IncludeInvalidated: true})
	if err != nil {
		t.Fatalf("FindFacts: %v", err)
	}
	current, old = map[string]bool{}, map[string]bool{}
	now := time.Now()
	for _, f := range all {
		// The subject of first-person facts is the user's entity, named
		// after the user id; case is not what these tests check.
		key := strings.ToLower(f.Subject + " " + f.Predicate + " " + f.Object)
		if f.Current(now) {
			current[key] = true
		} else {
			old[key] = true
		}
	}
	return current, old
}

// TestImportFixtureConversation imports fixtures/conversations/basic.jsonl
// and checks the facts it must yield, the contradiction it holds and that
// its two users stay apart.
func TestImportFixtureConversation(t *testing.T) {
	dir := t.TempDir()
	out, err := run(t, nil, "", "import", "--data-dir", dir, "--embedder", "none", "--json", "../../fixtures/conversations/basic.jsonl")
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	if sum.Batches != 3 || sum.Messages != 6 || sum.Episodes != 6 || sum.Scopes != 2 || sum.Jobs != 0 {
		t.Errorf("summary=%+v, want 3 batches, 6 messages and episodes, 2 scopes, no jobs", sum)
	}
	s := openStore(t, dir)
	cur, old := facts(t, s, "maria")
	for _, want := range []string{"maria lives_in porto", "maria works_at feedzai"} {
		if !cur[want] {
			t.Errorf("maria's current facts %v lack %q", cur, want)
		}
	}
	if !old["maria lives_in lisbon"] || cur["maria lives_in lisbon"] {
		t.Errorf("Lisbon should be superseded by Porto: current %v, old %v", cur, old)
	}
	kcur, _ := facts(t, s, "ken")
	if !kcur["ken works_at toyota"] {
		t.Errorf("ken's facts %v lack works_at Toyota", kcur)
	}
	for k := range kcur {
		if strings.Contains(k, "maria") || strings.Contains(k, "feedzai") {
			t.Errorf("ken sees maria's fact %q", k)
		}
	}
	eps, err := s.FindEpisodes(context.Background(), lore.EpisodeFilter{Scope: lore.Scope{TenantID: lore.DefaultTenant, UserID: "maria"}, SourceIDs: []string{"c1:1"}})
	if err != nil || len(eps) != 1 {
		t.Fatalf("episode c1:1: %d found, err %v; want 1", len(eps), err)
	}
	if want := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC); !eps[0].OccurredAt.Equal(want) || eps[0].Speaker != "Maria" || eps[0].Metadata["source"] != "fixture" {
		t.Errorf("episode c1:1=%+v, want occurred %v, speaker Maria, metadata source=fixture", eps[0], want)
	}
}

func TestImportLoCoMo(t *testing.T) {
	dir := t.TempDir()
	out, err := run(t, nil, "", "import", "--data-dir", dir, "--embedder", "none", "testdata/locomo_small.json")
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if !strings.Contains(out, "imported 5 messages in 4 batches for 2 scopes") {
		t.Errorf("output=%q, want 5 messages, 4 batches, 2 scopes", out)
	}
	s := openStore(t, dir)
	ctx := context.Background()
	s1 := lore.Scope{TenantID: lore.DefaultTenant, UserID: "s-1"}
	eps, err := s.FindEpisodes(ctx, lore.EpisodeFilter{Scope: s1})
	if err != nil {
		t.Fatalf("FindEpisodes: %v", err)
	}
	var ids []string
	for _, ep := range eps {
		ids = append(ids, ep.SourceID)
	}
	// Sessions in numeric order: 1, 2, then 10.
	if got, want := strings.Join(ids, ","), "D1:1,D1:2,D2:1,D10:1"; got != want {
		t.Errorf("source ids in time order=%s, want %s", got, want)
	}
	byID := map[string]*lore.Episode{}
	for _, ep := range eps {
		byID[ep.SourceID] = ep
	}
	if got := byID["D1:2"].Content; got != "Look what I painted! [shared an image: a painting of a red barn]" {
		t.Errorf("D1:2 content=%q, want the caption kept in the text", got)
	}
	if got, want := byID["D1:1"].OccurredAt, time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("D1:1 occurred_at=%v, want %v", got, want)
	}
	if got, want := byID["D1:2"].OccurredAt, time.Date(2023, 5, 8, 13, 56, 1, 0, time.UTC); !got.Equal(want) {
		t.Errorf("D1:2 occurred_at=%v, want %v (one second after the first turn)", got, want)
	}
	if byID["D10:1"].Speaker != "Nora" || byID["D10:1"].Metadata["session"] != float64(10) {
		t.Errorf("D10:1=%+v, want speaker Nora and session 10", byID["D10:1"])
	}
	cur, old := facts(t, s, "s-1")
	if !cur["nora lives_in austin"] || !old["nora lives_in denver"] {
		t.Errorf("s-1 facts current %v old %v, want Austin current and Denver superseded", cur, old)
	}
	if c2, _ := facts(t, s, "s-2"); !c2["ivo works_at siemens"] || len(c2) != 1 {
		t.Errorf("s-2 facts=%v, want only Ivo works_at Siemens", c2)
	}
}

func TestImportLoCoMoIntoOneUser(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, nil, "", "import", "--data-dir", dir, "--embedder", "none", "--user", "everyone", "--sync=false", "testdata/locomo_small.json"); err != nil {
		t.Fatalf("import: %v", err)
	}
	s := openStore(t, dir)
	eps, err := s.FindEpisodes(context.Background(), lore.EpisodeFilter{Scope: lore.Scope{TenantID: lore.DefaultTenant, UserID: "everyone"}})
	if err != nil || len(eps) != 5 {
		t.Fatalf("everyone has %d episodes (err %v), want all 5", len(eps), err)
	}
	job, err := s.ClaimJob(context.Background(), lore.ClaimRequest{Now: time.Now().Add(time.Minute), Lease: time.Minute})
	if err != nil || job.Scope.UserID != "everyone" {
		t.Fatalf("queued job=%+v err=%v, want a job for everyone (import --sync=false)", job, err)
	}
}

func TestParseImportErrors(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		flags scopeFlags
		want  string
	}{
		{"empty", "  \n", scopeFlags{}, "empty"},
		{"neither format", "hello", scopeFlags{}, "neither JSONL"},
		{"jsonl bad line", "{\"user_id\":\"a\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}\n{oops", scopeFlags{}, "line 2"},
		{"jsonl unknown field", `{"user_id":"a","msgs":[]}`, scopeFlags{}, `line 1: unknown field "msgs"`},
		{"jsonl no user", `{"messages":[{"role":"user","content":"x"}]}`, scopeFlags{Tenant: "default"}, "line 1: user_id or agent_id is required"},
		{"jsonl no messages", `{"user_id":"a"}`, scopeFlags{}, "line 1: messages is empty"},
		{"jsonl bad time", `{"user_id":"a","messages":[{"role":"user","content":"x","created_at":"soon"}]}`, scopeFlags{}, "line 1"},
		{"locomo not a list of samples", `[1, 2]`, scopeFlags{}, "LoCoMo JSON"},
		{"locomo no sample id", `[{"conversation": {}}]`, scopeFlags{}, "no sample_id"},
		{"locomo bad date", `[{"sample_id":"x","conversation":{"session_1":[{"speaker":"a","dia_id":"D1:1","text":"hi"}],"session_1_date_time":"yesterday"}}]`, scopeFlags{}, "x session_1: date_time \"yesterday\""},
		{"locomo no date", `[{"sample_id":"x","conversation":{"session_1":[{"speaker":"a","dia_id":"D1:1","text":"hi"}]}}]`, scopeFlags{}, "no date_time"},
		{"locomo no sessions", `[{"sample_id":"x","conversation":{"speaker_a":"a"}}]`, scopeFlags{}, "no sessions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseImport([]byte(tt.data), tt.flags)
			if lore.ErrorCode(err) != lore.EINVALID || !strings.Contains(lore.ErrorMessage(err), tt.want) {
				t.Fatalf("err=%v, want EINVALID containing %q", err, tt.want)
			}
		})
	}
}

func TestImportKeepGoing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mixed.jsonl")
	data := `{"user_id": "a", "messages": [{"role": "user", "content": "I work at Acme."}]}
{"user_id": "a", "messages": [{"role": "robot", "content": "beep"}]}
{"user_id": "a", "messages": [{"role": "user", "content": "I live in Oslo."}]}
`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	// Without --keep-going the import stops at line 2, naming it.
	_, err := run(t, nil, "", "import", "--data-dir", filepath.Join(dir, "stop"), "--embedder", "none", path)
	if err == nil || !strings.Contains(message(err), "import line 2 (batch 2 of 3") || !strings.Contains(message(err), "messages[0].role") {
		t.Fatalf("err=%v, want the failure of line 2 naming messages[0].role", err)
	}
	if c, _ := facts(t, openStore(t, filepath.Join(dir, "stop")), "a"); !c["a works_at acme"] || c["a lives_in oslo"] {
		t.Errorf("after stopping: facts %v, want line 1 imported and line 3 not", c)
	}
	out, err := run(t, nil, "", "import", "--keep-going", "--json", "--data-dir", filepath.Join(dir, "go"), "--embedder", "none", path)
	if err == nil || !strings.Contains(err.Error(), "1 of 3 batches failed") {
		t.Fatalf("err=%v, want 1 of 3 batches failed", err)
	}
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	if sum.Batches != 2 || len(sum.Failed) != 1 || !strings.HasPrefix(sum.Failed[0], "line 2: ") {
		t.Errorf("summary=%+v, want 2 batches done and line 2 failed", sum)
	}
	if c, _ := facts(t, openStore(t, filepath.Join(dir, "go")), "a"); !c["a works_at acme"] || !c["a lives_in oslo"] {
		t.Errorf("with --keep-going: facts %v, want lines 1 and 3 imported", c)
	}
}

func TestImportLanes(t *testing.T) {
	batch := func(tenant, user, agent string) importBatch {
		return importBatch{Req: ingest.AddRequest{Scope: lore.Scope{TenantID: tenant, UserID: user, AgentID: agent}}}
	}
	batches := []importBatch{
		batch("", "a", ""), batch("", "b", ""), batch("", "a", "bot"), // a's runs with and without an agent share a's graph
		batch("t2", "a", ""), batch("", "", "bot"), batch("", "b", ""), batch("", "", "bot"),
	}
	got := importLanes(batches)
	want := [][]int{{0, 2}, {1, 5}, {3}, {4, 6}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("importLanes = %v, want %v", got, want)
	}
}

// TestImportUsersAtOnce imports several users at once and one at a time:
// the same facts come out, and each user's later line still supersedes
// the earlier one.
func TestImportUsersAtOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "users.jsonl")
	var lines strings.Builder
	users := []string{"u1", "u2", "u3", "u4", "u5"}
	for _, step := range []string{"I live in Oslo and I work at Acme.", "I moved to Rome.", "My sister Emma lives in Paris."} {
		for _, u := range users {
			fmt.Fprintf(&lines, `{"user_id": %q, "messages": [{"role": "user", "content": %q}]}`+"\n", u, step)
		}
	}
	if err := os.WriteFile(path, []byte(lines.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []string{"1", "4"} {
		out, err := run(t, nil, "", "import", "--workers", workers, "--json", "--data-dir", filepath.Join(dir, workers), "--embedder", "none", path)
		if err != nil {
			t.Fatalf("import --workers %s: %v", workers, err)
		}
		var sum importSummary
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatalf("summary %q: %v", out, err)
		}
		if sum.Scopes != len(users) || sum.Batches != 3*len(users) {
			t.Errorf("--workers %s: summary %+v, want %d scopes and %d batches", workers, sum, len(users), 3*len(users))
		}
	}
	one, many := openStore(t, filepath.Join(dir, "1")), openStore(t, filepath.Join(dir, "4"))
	for _, u := range users {
		c1, o1 := facts(t, one, u)
		c4, o4 := facts(t, many, u)
		if !reflect.DeepEqual(c1, c4) || !reflect.DeepEqual(o1, o4) {
			t.Errorf("%s: one at a time current %v old %v; at once current %v old %v", u, c1, o1, c4, o4)
		}
		if !c4[u+" lives_in rome"] || c4[u+" lives_in oslo"] {
			t.Errorf("%s: current facts %v, want lives_in rome superseding oslo", u, c4)
		}
	}
	if _, err := run(t, nil, "", "import", "--workers", "-1", "--data-dir", filepath.Join(dir, "bad"), "--embedder", "none", path); lore.ErrorCode(err) != lore.EINVALID {
		t.Errorf("--workers -1: err=%v, want EINVALID", err)
	}
}
