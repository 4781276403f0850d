package bench

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// newServices opens an embedded store with the rules extractor and no
// embedder (BM25 and graph only, fast), with ingestion's content limit set
// to maxBytes.
func newServices(t *testing.T, maxBytes int) (*ingest.Service, *retrieve.Pipeline) {
	t.Helper()
	st, idx := sqlitetest.Open(t)
	cfg := ingest.DefaultConfig()
	cfg.MaxContentBytes = maxBytes
	svc := &ingest.Service{Store: st, Index: idx, Extractor: rules.New(), Config: cfg}
	return svc, &retrieve.Pipeline{Graph: st, Index: idx, Config: retrieve.DefaultConfig()}
}

// TestRunnerSkipsFailedRecords: a turn over the size limit is counted and
// skipped; the other turns of its session are ingested and the question is
// still asked.
func TestRunnerSkipsFailedRecords(t *testing.T) {
	ctx := context.Background()
	svc, pipe := newServices(t, 200)
	at := time.Date(2024, 3, 2, 10, 0, 0, 0, time.UTC)
	long := strings.Repeat("blah ", 60)
	ds := &Dataset{Name: "locomo", SessionOf: map[string]string{"c1|D1:1": "S1", "c1|D1:2": "S1", "c1|D1:3": "S1"}}
	ds.Spaces = []Space{{ID: "c1", Sessions: []Session{{ID: "S1", Time: at, Turns: []Turn{
		{ID: "D1:1", Role: "user", Speaker: "Ann", Text: "I adopted a cat named Miso.", Time: at},
		{ID: "D1:2", Role: "user", Speaker: "Bob", Text: long, Time: at.Add(time.Second)},
		{ID: "D1:3", Role: "user", Speaker: "Bob", Text: "Miso sounds lovely, Ann.", Time: at.Add(2 * time.Second)},
	}}}, Questions: []Question{{ID: "q1", Text: "What is the name of Ann's cat?", Time: at.Add(24 * time.Hour), Group: "4", GoldTurns: []string{"D1:1"}, GoldSesses: []string{"S1"}}}}}
	r := &Runner{Ingest: svc, Pipeline: pipe, Ablations: []retrieve.Ablation{}}
	rep, err := r.Run(ctx, ds)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rep.Failures.Records != 1 || len(rep.Failures.Errors) != 1 || !strings.Contains(rep.Failures.Errors[0], "D1:2") {
		t.Errorf("failures=%+v, want 1 record naming D1:2", rep.Failures)
	}
	eps, err := svc.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: lore.Scope{TenantID: "bench-locomo", UserID: "c1"}, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != 2 {
		t.Errorf("%d episodes stored, want the 2 valid turns", len(eps))
	}
	if rep.Overall.Questions != 1 || rep.Overall.Turn[RecallAny]["10"] != 1 {
		t.Errorf("overall=%+v, want the question asked and its turn found", rep.Overall)
	}
}

func TestFailuresKeepFirstErrors(t *testing.T) {
	var f Failures
	for i := range maxFailureErrors + 3 {
		f.add(2, "rec", lore.Errorf(lore.EINVALID, "bad %d", i))
	}
	if f.Records != 2*(maxFailureErrors+3) || len(f.Errors) != maxFailureErrors {
		t.Errorf("records=%d errors=%d, want %d and %d", f.Records, len(f.Errors), 2*(maxFailureErrors+3), maxFailureErrors)
	}
}

// TestRunnerIngestsSpacesInParallel: spaces ingest several at once; each
// keeps its own turns, every space's failures are counted and every space's
// question is asked.
func TestRunnerIngestsSpacesInParallel(t *testing.T) {
	ctx := context.Background()
	svc, pipe := newServices(t, 200)
	at := time.Date(2024, 3, 2, 10, 0, 0, 0, time.UTC)
	long := strings.Repeat("blah ", 60)
	ds := &Dataset{Name: "locomo", SessionOf: map[string]string{}}
	const spaces = 5
	for i := range spaces {
		id := fmt.Sprintf("c%d", i)
		for _, turn := range []string{"D1:1", "D1:2"} {
			ds.SessionOf[id+"|"+turn] = "S1"
		}
		ds.Spaces = append(ds.Spaces, Space{ID: id, Sessions: []Session{{ID: "S1", Time: at, Turns: []Turn{
			{ID: "D1:1", Role: "user", Speaker: "Ann", Text: fmt.Sprintf("I adopted a cat named Miso%d.", i), Time: at},
			{ID: "D1:2", Role: "user", Speaker: "Bob", Text: long, Time: at.Add(time.Second)},
		}}}, Questions: []Question{{ID: "q" + id, Text: "What is the name of Ann's cat?", Time: at.Add(24 * time.Hour), Group: "4", GoldTurns: []string{"D1:1"}, GoldSesses: []string{"S1"}}}})
	}
	r := &Runner{Ingest: svc, Pipeline: pipe, Ablations: []retrieve.Ablation{}, IngestWorkers: 3}
	rep, err := r.Run(ctx, ds)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rep.IngestedSpaces != spaces || rep.Failures.Records != spaces {
		t.Errorf("ingested %d spaces with %d failed records, want %d and %d", rep.IngestedSpaces, rep.Failures.Records, spaces, spaces)
	}
	for i := range spaces {
		eps, err := svc.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: lore.Scope{TenantID: "bench-locomo", UserID: fmt.Sprintf("c%d", i)}, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(eps) != 1 || !strings.Contains(eps[0].Content, fmt.Sprintf("Miso%d", i)) {
			t.Errorf("space c%d holds %d episodes, want its own valid turn", i, len(eps))
		}
	}
	if rep.Overall.Questions != spaces || rep.Overall.Turn[RecallAny]["10"] != 1 {
		t.Errorf("overall=%+v, want every space's question asked and its turn found", rep.Overall)
	}
}
