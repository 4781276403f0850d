package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite"
)

// openSQLite opens the embedded store at path and returns it with its index;
// both are closed when the test ends.
func openSQLite(tb testing.TB, path string) (*sqlite.Store, lore.Index) {
	tb.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		tb.Fatalf("sqlite.Open(%s): %v", path, err)
	}
	idx := st.Index()
	tb.Cleanup(func() {
		idx.Close()
		st.Close()
	})
	return st, idx
}

// fixtureConversation is fixtures/extract/rules_basic.json.
type fixtureConversation struct {
	Episodes []struct {
		ID         string    `json:"id"`
		Role       string    `json:"role"`
		Content    string    `json:"content"`
		OccurredAt time.Time `json:"occurred_at"`
	} `json:"episodes"`
	WantFacts []struct {
		Subject   string `json:"subject"`
		Predicate string `json:"predicate"`
		Object    string `json:"object"`
		Episode   string `json:"episode"`
	} `json:"want_facts"`
	Never []struct {
		Subject   string `json:"subject"`
		Predicate string `json:"predicate"`
		Object    string `json:"object"`
	} `json:"never"`
}

func loadConversation(tb testing.TB) (fixtureConversation, []Message) {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "fixtures", "extract", "rules_basic.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var fx fixtureConversation
	if err := json.Unmarshal(raw, &fx); err != nil {
		tb.Fatal(err)
	}
	var out []Message
	for _, e := range fx.Episodes {
		at := e.OccurredAt
		out = append(out, Message{Role: e.Role, Content: e.Content, CreatedAt: &at, SourceID: e.ID})
	}
	return fx, out
}

func TestSQLiteRulesConversation(t *testing.T) {
	ctx := context.Background()
	st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
	s := &Service{Store: st, Index: idx, Extractor: rules.New(), Config: testConfig(), Logger: quietLogger()}
	fx, messages := loadConversation(t)
	res, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: true, Sync: true, Messages: messages})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	scope := alice().WithDefaults()
	sourceOf := map[string]string{} // episode id → fixture id
	for i, id := range res.EpisodeIDs {
		sourceOf[id] = fx.Episodes[i].ID
	}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: scope, IncludeInvalidated: true})
	if err != nil {
		t.Fatal(err)
	}
	has := func(subject, pred, obj string) *lore.Fact {
		for _, f := range facts {
			subj := lore.NormalizeName(f.Subject)
			if subject == "user" && subj == "alice" {
				subj = "user"
			}
			if subj == lore.NormalizeName(subject) && f.Predicate == pred && strings.EqualFold(f.Object, obj) {
				return f
			}
		}
		return nil
	}
	for _, w := range fx.WantFacts {
		t.Run(w.Predicate+"/"+w.Object, func(t *testing.T) {
			f := has(w.Subject, w.Predicate, w.Object)
			if f == nil {
				t.Fatalf("no fact %s %s %s among %d facts", w.Subject, w.Predicate, w.Object, len(facts))
			}
			var srcs []string
			for _, id := range f.SourceEpisodeIDs {
				srcs = append(srcs, sourceOf[id])
			}
			if !slices.Contains(srcs, w.Episode) {
				t.Fatalf("sources=%v, want %s among them", srcs, w.Episode)
			}
			if f.Extractor != rules.Version || f.Current(time.Now()) != true {
				t.Fatalf("extractor=%q current=%v, want %q and current", f.Extractor, f.Current(time.Now()), rules.Version)
			}
		})
	}
	for _, n := range fx.Never {
		if f := has(n.Subject, n.Predicate, n.Object); f != nil {
			t.Errorf("unwanted fact %q from the assistant's turn", f.Text)
		}
	}
	users, _ := st.FindEntities(ctx, lore.EntityFilter{Scope: scope, Names: []string{"alex"}})
	if len(users) != 1 || users[0].Type != lore.UserEntityType {
		t.Errorf("entities named alex=%v, want the user entity (from \"my name is Alex\")", users)
	}
	hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: scope, Text: "Siemens", Kinds: []lore.DocKind{lore.KindFact}})
	if err != nil || len(hits) == 0 {
		t.Fatalf("SearchText(Siemens) over facts: %v, %v; want a hit", hits, err)
	}
}

func TestSQLiteDedupAndContradiction(t *testing.T) {
	ctx := context.Background()
	st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
	s := &Service{Store: st, Index: idx, Extractor: rules.New(), Config: testConfig(), Logger: quietLogger()}
	t0 := time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)
	for i, text := range []string{"I live in Lisbon.", "I still live in Lisbon.", "I live in Porto now."} {
		if _, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: true, Sync: true, Messages: msgs(t0.Add(time.Duration(i)*24*time.Hour), "user", text)}); err != nil {
			t.Fatalf("Add(%q): %v", text, err)
		}
	}
	scope := alice().WithDefaults()
	all, _ := st.FindFacts(ctx, lore.FactFilter{Scope: scope, Predicate: "lives_in", IncludeInvalidated: true})
	var lisbon, porto *lore.Fact
	for _, f := range all {
		switch lore.NormalizeName(f.Object) {
		case "lisbon":
			lisbon = f
		case "porto":
			porto = f
		}
	}
	if lisbon == nil || porto == nil || len(all) != 2 {
		t.Fatalf("lives_in facts=%d (lisbon %v, porto %v), want exactly both", len(all), lisbon != nil, porto != nil)
	}
	if lisbon.Count != 2 || len(lisbon.SourceEpisodeIDs) != 2 {
		t.Errorf("Lisbon count=%d sources=%d, want 2 and 2", lisbon.Count, len(lisbon.SourceEpisodeIDs))
	}
	if lisbon.InvalidAt == nil || !lisbon.InvalidAt.Equal(t0.Add(48*time.Hour)) || lisbon.ExpiredAt == nil {
		t.Errorf("Lisbon invalid_at=%v expired_at=%v, want %v and set", lisbon.InvalidAt, lisbon.ExpiredAt, t0.Add(48*time.Hour))
	}
	if !porto.Current(time.Now()) {
		t.Errorf("Porto fact is not current")
	}
	hist, err := st.History(ctx, scope, lisbon.ID)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []lore.EventKind
	for _, h := range hist {
		kinds = append(kinds, h.Event)
	}
	if want := []lore.EventKind{lore.EventAdd, lore.EventMerge, lore.EventInvalidate}; !slices.Equal(kinds, want) {
		t.Errorf("Lisbon history=%v, want %v", kinds, want)
	}
}

func TestSQLiteRestartResumesQueue(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	var jobIDs []string
	{
		st, err := sqlite.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		idx := st.Index()
		s := &Service{Store: st, Index: idx, Extractor: rules.New(), Config: testConfig(), Logger: quietLogger()}
		for _, u := range []string{"alice", "bob", "carol"} {
			res, err := s.Add(ctx, AddRequest{Scope: lore.Scope{UserID: u}, Infer: true, Messages: msgs(time.Now(), "user", "I work at Acme Robotics.")})
			if err != nil {
				t.Fatalf("Add: %v", err)
			}
			jobIDs = append(jobIDs, res.JobID)
		}
		// One job was claimed by a worker that died with the process.
		if _, err := st.ClaimJob(ctx, lore.ClaimRequest{Now: time.Now(), Lease: 50 * time.Millisecond}); err != nil {
			t.Fatalf("ClaimJob: %v", err)
		}
		idx.Close()
		st.Close()
	}
	st, idx := openSQLite(t, path)
	s := &Service{Store: st, Index: idx, Extractor: rules.New(), Config: testConfig(), Logger: quietLogger()}
	runWorkers(t, s)
	for _, id := range jobIDs {
		waitJob(t, st, lore.DefaultTenant, id, lore.JobDone)
	}
	for _, u := range []string{"alice", "bob", "carol"} {
		facts, _ := st.FindFacts(ctx, lore.FactFilter{Scope: lore.Scope{TenantID: lore.DefaultTenant, UserID: u}, Predicate: "works_at"})
		if len(facts) != 1 || facts[0].Count != 1 {
			t.Errorf("%s works_at facts=%d, want 1 counted once", u, len(facts))
		}
	}
}

func TestSQLiteDeadLetterAndRetry(t *testing.T) {
	ctx := context.Background()
	st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
	calls := 0
	s := &Service{Store: st, Index: idx, Extractor: flakyExtractor(2, lore.Errorf(lore.EUNAVAILABLE, "model answered 429"), &calls), Config: testConfig(), Logger: quietLogger()}
	s.Config.MaxAttempts = 2
	res, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: true, Messages: msgs(time.Now(), "user", "I like jazz")})
	if err != nil {
		t.Fatal(err)
	}
	runWorkers(t, s)
	failed := waitJob(t, st, lore.DefaultTenant, res.JobID, lore.JobFailed)
	if failed.Attempts != 2 || !strings.Contains(failed.Error, "model answered 429") {
		t.Fatalf("dead letter attempts=%d error=%q, want 2 and the model's error", failed.Attempts, failed.Error)
	}
	// The episode stays stored and searchable although extraction failed.
	hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: alice().WithDefaults(), Text: "jazz"})
	if err != nil || len(hits) != 1 || hits[0].Kind != lore.KindEpisode {
		t.Fatalf("SearchText(jazz)=%v, %v; want the episode", hits, err)
	}
	if _, err := s.RetryJob(ctx, lore.DefaultTenant, res.JobID); err != nil {
		t.Fatalf("RetryJob: %v", err)
	}
	done := waitJob(t, st, lore.DefaultTenant, res.JobID, lore.JobDone)
	if len(done.Events) != 1 || done.Events[0].Event != lore.EventAdd {
		t.Fatalf("events after retry=%v, want one ADD", done.Events)
	}
}

// BenchmarkIngestSync measures synchronous ingestion into the embedded
// store: each op adds a batch of turns of the fixture conversation (user
// messages, each with a short assistant reply) for one of 20 users and
// extracts from them. Reported as messages/s.
func BenchmarkIngestSync(b *testing.B) {
	cases := []struct {
		name  string
		ext   lore.Extractor
		turns int // user messages per Add; each has a reply
	}{
		{"stub/1turn", oneFact("likes", "jazz", "likes jazz", lore.Resolution{Kind: "new"}, nil), 1},
		{"rules/1turn", rules.New(), 1},
		{"rules/10turns", rules.New(), 10},
	}
	_, conv := loadConversation(b)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			st, idx := openSQLite(b, filepath.Join(b.TempDir(), "lore.db"))
			s := &Service{Store: st, Index: idx, Extractor: c.ext, Config: DefaultConfig(), Logger: quietLogger()}
			at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
			n := 0
			for i := 0; b.Loop(); i++ {
				var m []Message
				for range c.turns {
					ts := at.Add(time.Duration(n) * time.Minute)
					user := conv[n%len(conv)]
					user.CreatedAt = &ts
					m = append(m, user, Message{Role: "assistant", Content: "Noted, thanks for telling me.", CreatedAt: &ts})
					n++
				}
				if _, err := s.Add(ctx, AddRequest{Scope: lore.Scope{UserID: fmt.Sprintf("u%d", i%20)}, Infer: true, Sync: true, Messages: m}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(2*n)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

// A fact whose object normalizes to nothing ("Nate likes -", seen on LoCoMo)
// is dropped; the rest of the batch still lands.
func TestSQLiteDropsUnnameableObject(t *testing.T) {
	st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
	ext := stubExtractor{fn: func(_ context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		id := req.Episodes[0].ID
		return &lore.Extraction{Extractor: "stub", Facts: []lore.ExtractedFact{
			{Subject: "Nate", Predicate: "likes", Object: "-", Text: "Nate likes -", Confidence: 0.5, EpisodeIDs: []string{id}},
			{Subject: "Nate", Predicate: "lives_in", Object: "Oslo", ObjectIsEntity: true, Text: "Nate lives in Oslo", Confidence: 0.8, EpisodeIDs: []string{id}},
		}}, nil
	}}
	s := &Service{Store: st, Index: idx, Extractor: ext, Config: testConfig(), Logger: quietLogger()}
	res, err := s.Add(context.Background(), AddRequest{Scope: alice(), Messages: msgs(time.Now(), "user", "I like - and I live in Oslo"), Infer: true, Sync: true})
	if err != nil {
		t.Fatalf("Add: %v, want the unnameable fact dropped and the batch stored", err)
	}
	facts, err := st.FindFacts(context.Background(), lore.FactFilter{Scope: alice().WithDefaults()})
	if err != nil {
		t.Fatal(err)
	}
	if len(facts) != 1 || facts[0].Predicate != "lives_in" {
		t.Fatalf("facts=%v (events %v), want only lives_in", facts, eventKinds(res.Events))
	}
}
