package neo4j

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

// planLines flattens a profiled plan into one line per operator, indented
// by depth: operator, details, rows and db hits.
func planLines(p driver.ProfiledPlan, depth int, out *[]string) {
	details, _ := p.Arguments()["Details"].(string)
	*out = append(*out, fmt.Sprintf("%s%s %s rows=%d hits=%d", strings.Repeat("  ", depth),
		strings.TrimSuffix(p.Operator(), "@neo4j"), details, p.Records(), p.DbHits()))
	for _, c := range p.Children() {
		planLines(c, depth+1, out)
	}
}

// runAll runs fn(0..n-1) on 8 goroutines and fails on the first error.
func runAll(t *testing.T, n int, fn func(i int) error) {
	t.Helper()
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	next := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
}

// openTest opens the test server's store (skipping, or failing under CI,
// when LORE_TEST_NEO4J_URL is unset) and returns a user scope in a fresh
// tenant whose records are deleted with the test.
func openTest(t *testing.T, ctx context.Context, tenantPrefix string) (*Store, lore.Scope) {
	t.Helper()
	url := storetest.ServerURL(t, "LORE_TEST_NEO4J_URL", "start a server with `scripts/neo4j/start.sh` and export the LORE_TEST_NEO4J_URL it prints")
	st, err := Open(ctx, Config{URL: url, Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	sc := lore.Scope{TenantID: tenantPrefix + uuid.NewString(), UserID: "alice"}
	t.Cleanup(func() {
		if _, err := st.DeleteScope(context.Background(), sc); err != nil {
			t.Errorf("cleanup DeleteScope: %v", err)
		}
		st.Close()
	})
	return st, sc
}

// TestHotQueriesUseIndexes profiles the hot statements on a small graph
// and fails if any of them starts from a label or full scan instead of an
// index. The plans are logged (go test -v) and summarized in docs/neo4j.md.
func TestHotQueriesUseIndexes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, sc := openTest(t, ctx, "neo4j-profile-")

	// A graph of 100 entities and 1,000 facts, then fresh index statistics,
	// so the planner costs the plans as it would on a real user's memory.
	const nEnt, nFact = 100, 1000
	ents := make([]*lore.Entity, nEnt)
	runAll(t, nEnt, func(i int) error {
		e, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: fmt.Sprintf("entity %d", i), Type: "thing",
			Aliases: []string{fmt.Sprintf("e%d", i)}})
		ents[i] = e
		return err
	})
	facts := make([]*lore.Fact, nFact)
	runAll(t, nFact, func(i int) error {
		s, o := ents[i%nEnt], ents[(i*7+3)%nEnt]
		f, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: s.ID, Predicate: fmt.Sprintf("p%d", i/nEnt),
			ObjectID: o.ID, Text: fmt.Sprintf("%s p%d %s", s.Name, i/nEnt, o.Name)}, "test")
		facts[i] = f
		return err
	})
	lastFact := facts[nFact-1]
	helper := sc
	helper.AgentID = "helper"
	var eps []*lore.Episode
	for i := range 40 {
		eps = append(eps, &lore.Episode{Scope: helper, Role: "user", Speaker: []string{"Melanie", "Caroline"}[i%2],
			Content: fmt.Sprintf("turn %d", i), OccurredAt: time.Now()})
	}
	if err := st.AddEpisodes(ctx, eps); err != nil {
		t.Fatalf("AddEpisodes: %v", err)
	}
	for _, q := range []string{"CALL db.resampleOutdatedIndexes()", "CALL db.clearQueryCaches()"} {
		if err := st.exec(ctx, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	now := time.Now().UTC()
	base := func() map[string]any {
		p := scopeParams(sc)
		p["now"], p["limit"], p["offset"], p["fanout"] = now, int64(50), int64(0), int64(neighborFanout)
		return p
	}
	user := scopeShape(sc)
	current := user
	current.Current = true
	names := user
	names.Names = true
	cases := []struct {
		name   string
		stmt   string
		sh     shape
		params map[string]any
	}{
		{"neighbourhood, one hop", "NeighborhoodOneHop", current, map[string]any{"seed_ids": []string{ents[1].ID}}},
		{"neighbourhood, two hops", "NeighborhoodTwoHops", current, map[string]any{"seed_ids": []string{ents[1].ID}, "exclude": []string{}}},
		{"entity lookup by name", "FindEntities", names, map[string]any{"ids": []string{}, "names": []string{"entity 7"}}},
		{"entity merge: alias lookup", "MergeEntityFindAlias", shape{}, map[string]any{"normalized_name": "e7", "aliases": []string{}}},
		{"fact dedup lookup (MERGE)", "MergeFactDedupLookup", shape{}, map[string]any{"dedup_key": "x"}},
		{"latest facts of a user", "FindFacts", current, map[string]any{"ids": []string{}}},
		{"history of a fact", "History", user, map[string]any{"memory_id": lastFact.ID}},
		{"speakers of a user", "Speakers", user, nil},
		{"speakers of an agent", "Speakers", shape{Agent: true}, map[string]any{"agent_id": "helper"}},
	}
	// Operators a plan must contain, beyond using an index.
	wantOps := map[string]string{
		"latest facts of a user":    "PartialTop",
		"fact dedup lookup (MERGE)": "NodeUniqueIndexSeek",
		"neighbourhood, one hop":    "NodeUniqueIndexSeek",
		"neighbourhood, two hops":   "NodeUniqueIndexSeek",
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			params := base()
			for k, v := range c.params {
				params[k] = v
			}
			var (
				q   string
				err error
			)
			if c.stmt == "MergeFactDedupLookup" {
				// The lookup half of MergeFact, read-only so the profile writes nothing.
				q = "MATCH (f:Fact {dedup_key: $dedup_key}) RETURN f"
			} else if q, err = st.render(c.stmt, c.sh); err != nil {
				t.Fatalf("render: %v", err)
			}
			sess := st.driver.NewSession(ctx, driver.SessionConfig{DatabaseName: st.db, AccessMode: driver.AccessModeRead})
			defer sess.Close(ctx)
			res, err := sess.Run(ctx, "PROFILE "+q, params)
			if err != nil {
				t.Fatalf("PROFILE: %v", err)
			}
			sum, err := res.Consume(ctx)
			if err != nil {
				t.Fatalf("PROFILE: %v", err)
			}
			if sum.Profile() == nil {
				t.Fatal("no profile returned")
			}
			var lines []string
			planLines(sum.Profile(), 0, &lines)
			t.Logf("%s:\n%s", c.name, strings.Join(lines, "\n"))
			plan := strings.Join(lines, "\n")
			for _, bad := range []string{"AllNodesScan", "NodeByLabelScan"} {
				if strings.Contains(plan, bad) {
					t.Errorf("%s plan uses %s, want index seeks only", c.name, bad)
				}
			}
			if !strings.Contains(plan, "Index") {
				t.Errorf("%s plan uses no index", c.name)
			}
			if op := wantOps[c.name]; op != "" && !strings.Contains(plan, op) {
				t.Errorf("%s plan has no %s", c.name, op)
			}
		})
	}
}

// TestDeleteScopeInBatches deletes a scope two nodes per transaction, so
// every kind of record takes several batches, and checks the counts.
func TestDeleteScopeInBatches(t *testing.T) {
	url := storetest.ServerURL(t, "LORE_TEST_NEO4J_URL", "start a server with `scripts/neo4j/start.sh` and export the LORE_TEST_NEO4J_URL it prints")
	ctx := context.Background()
	st, err := Open(ctx, Config{URL: url, Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer st.Close()
	st.deleteBatch = 2
	sc := lore.Scope{TenantID: "neo4j-batch-" + uuid.NewString(), UserID: "alice"}
	var eps []*lore.Episode
	for i := range 5 {
		eps = append(eps, &lore.Episode{Scope: sc, Role: "user", Content: fmt.Sprint("episode ", i)})
	}
	if err := st.AddEpisodes(ctx, eps); err != nil {
		t.Fatalf("AddEpisodes: %v", err)
	}
	var ents []*lore.Entity
	for i := range 3 {
		e, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: fmt.Sprint("entity ", i)})
		if err != nil {
			t.Fatalf("MergeEntity: %v", err)
		}
		ents = append(ents, e)
	}
	for i := range 4 {
		if _, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: ents[i%3].ID, Predicate: "likes",
			Object: fmt.Sprint("thing ", i)}, "test"); err != nil {
			t.Fatalf("MergeFact: %v", err)
		}
	}
	got, err := st.DeleteScope(ctx, sc)
	if err != nil {
		t.Fatalf("DeleteScope: %v", err)
	}
	if want := (lore.DeleteStats{Episodes: 5, Entities: 3, Facts: 4}); got != want {
		t.Errorf("DeleteScope stats=%+v, want %+v", got, want)
	}
	// The episodes' ADD events went with them.
	if _, err := st.History(ctx, sc, eps[0].ID); lore.ErrorCode(err) != lore.ENOTFOUND {
		t.Errorf("History after DeleteScope: err=%v, want ENOTFOUND", err)
	}
	left, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
	if err != nil || len(left) != 0 {
		t.Errorf("FindEpisodes after DeleteScope: %d episodes, err=%v, want none", len(left), err)
	}
}
