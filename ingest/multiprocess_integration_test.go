package ingest

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/index/weaviate"
)

// Environment of a queue worker child process (TestQueueWorkerChild).
const (
	workerChildEnv = "LORE_INGEST_WORKER_CHILD_LOG"
	workerChildID  = "LORE_INGEST_WORKER_CHILD_ID"
)

// loggingExtractor is the rules extractor, slowed down, writing when each
// extraction starts and ends (tenant, job's first episode) to a file that
// several processes append to.
type loggingExtractor struct {
	log  *os.File
	name string
}

func (x loggingExtractor) Extract(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
	tenant := req.Scope.TenantID
	fmt.Fprintf(x.log, "start %s %s %d\n", tenant, x.name, time.Now().UnixNano())
	defer func() { fmt.Fprintf(x.log, "end %s %s %d\n", tenant, x.name, time.Now().UnixNano()) }()
	select {
	case <-time.After(150 * time.Millisecond):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return rules.New().Extract(ctx, req)
}

// TestQueueWorkerChild is a child of TestTwoProcessesShareTheQueue: a
// separate process working the shared Neo4j + Weaviate queue until killed.
func TestQueueWorkerChild(t *testing.T) {
	logPath := os.Getenv(workerChildEnv)
	if logPath == "" {
		t.Skip("run by TestTwoProcessesShareTheQueue as its child process")
	}
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, idx := openNeo4jWeaviate(t)
	cfg := testConfig()
	cfg.Workers, cfg.PerTenantConcurrency, cfg.InstanceID = 4, 2, os.Getenv(workerChildID)
	s := &Service{Store: st, Index: idx, Embedder: hashEmbedder{name: "hash", dim: 384},
		Extractor: loggingExtractor{log: log, name: cfg.InstanceID}, Config: cfg, Logger: quietLogger()}
	_ = s.RunWorkers(context.Background())
}

// openNeo4jWeaviate opens the real servers the integration suite runs.
func openNeo4jWeaviate(t *testing.T) (lore.Store, lore.Index) {
	neoURL := serverURL(t, "LORE_TEST_NEO4J_URL", "scripts/neo4j/start.sh PORT")
	wvURL := serverURL(t, "LORE_TEST_WEAVIATE_URL", "scripts/weaviate/start.sh")
	st, err := neo4j.Open(context.Background(), neo4j.Config{URL: neoURL,
		Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
	if err != nil {
		t.Fatalf("neo4j.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	idx, err := weaviate.Open(context.Background(), weaviate.Config{URL: wvURL})
	if err != nil {
		t.Fatalf("weaviate.Open: %v", err)
	}
	t.Cleanup(func() { idx.Close() })
	return st, idx
}

// TestTwoProcessesShareTheQueue runs two real worker processes on one
// Neo4j + Weaviate queue, over jobs of three tenants whose messages all
// state the same facts: every job runs once, no tenant ever has more than
// PerTenantConcurrency (2) extractions running across both processes, and
// concurrent extraction leaves no duplicate current fact.
func TestTwoProcessesShareTheQueue(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	st, idx := openNeo4jWeaviate(t)
	ctx := context.Background()
	run := uuid.NewString()[:8]
	tenants := []string{"mp-a-" + run, "mp-b-" + run, "mp-c-" + run}
	queue := &Service{Store: st, Index: idx, Embedder: hashEmbedder{name: "hash", dim: 384}, Extractor: rules.New(), Config: testConfig(), Logger: quietLogger()}
	var jobs []lore.Job
	for _, tenant := range tenants {
		scope := lore.Scope{TenantID: tenant, UserID: "u"}
		t.Cleanup(func() {
			_, _ = st.DeleteScope(context.Background(), scope)
			_ = idx.DeleteScope(context.Background(), scope)
		})
		for i := range 8 {
			at := time.Date(2024, 5, 1, 10, i, 0, 0, time.UTC)
			res, err := queue.Add(ctx, AddRequest{Scope: scope, Infer: true, Messages: msgs(at, "user", "I live in Oslo and my sister Emma lives in Rome.")})
			if err != nil {
				t.Fatalf("Add: %v", err)
			}
			jobs = append(jobs, lore.Job{ID: res.JobID, Scope: scope})
		}
	}

	logPath := filepath.Join(t.TempDir(), "extractions.log")
	if err := os.WriteFile(logPath, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var children []*exec.Cmd
	for _, id := range []string{"p1-" + run, "p2-" + run} {
		c := exec.Command(os.Args[0], "-test.run=^TestQueueWorkerChild$", "-test.count=1")
		c.Env = append(os.Environ(), workerChildEnv+"="+logPath, workerChildID+"="+id)
		if err := c.Start(); err != nil {
			t.Fatalf("start child: %v", err)
		}
		children = append(children, c)
	}
	defer func() {
		for _, c := range children {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	}()

	deadline := time.Now().Add(90 * time.Second)
	for _, j := range jobs {
		for {
			got, err := st.GetJob(ctx, j.Scope.TenantID, j.ID)
			if err == nil && got.Status == lore.JobDone {
				if got.Attempts != 1 {
					t.Errorf("job %s ran %d times, want once", j.ID, got.Attempts)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("job %s not done after 90 s: %+v %v", j.ID, got, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// Replay the extraction log: the most extractions running at once per
	// tenant, across both processes, and which processes took part.
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type event struct {
		start        bool
		tenant, proc string
		at           int64
	}
	var events []event
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e event
		var kind string
		if _, err := fmt.Sscanf(sc.Text(), "%s %s %s %d", &kind, &e.tenant, &e.proc, &e.at); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		e.start = kind == "start"
		events = append(events, e)
	}
	// Order by time; an end before a start at the same instant.
	slices.SortStableFunc(events, func(a, b event) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(boolInt(a.start), boolInt(b.start))
	})
	running, peak, procs := map[string]int{}, map[string]int{}, map[string]bool{}
	for _, e := range events {
		procs[e.proc] = true
		if e.start {
			running[e.tenant]++
			peak[e.tenant] = max(peak[e.tenant], running[e.tenant])
		} else {
			running[e.tenant]--
		}
	}
	for _, tenant := range tenants {
		if peak[tenant] > 2 {
			t.Errorf("tenant %s had %d extractions running at once across the processes, want at most 2", tenant, peak[tenant])
		}
	}
	if len(procs) != 2 {
		t.Errorf("extractions ran in %d processes, want both", len(procs))
	}

	// The same statements, extracted concurrently: one current fact each.
	for _, tenant := range tenants {
		facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: lore.Scope{TenantID: tenant, UserID: "u"}, Limit: 1000})
		if err != nil {
			t.Fatalf("FindFacts: %v", err)
		}
		seen := map[string]int{}
		for _, f := range facts {
			seen[f.SubjectID+"|"+f.Predicate+"|"+f.ObjectKey()]++
		}
		for k, n := range seen {
			if n > 1 {
				t.Errorf("tenant %s: %d current facts %s, want 1", tenant, n, strings.ReplaceAll(k, "|", " "))
			}
		}
		if len(facts) == 0 {
			t.Errorf("tenant %s: no facts extracted", tenant)
		}
	}
	t.Logf("%d jobs over %d tenants done once each by 2 processes; peak per-tenant concurrency %v", len(jobs), len(tenants), peak)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
