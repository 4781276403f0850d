package export_test

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/export"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
)

// TestExportImportSignals: verdicts, usage and success rows are exported
// and come back on the imported memories' new ids with the same relevance.
func TestExportImportSignals(t *testing.T) {
	ctx := context.Background()
	srcStore, srcIndex := sqlitetest.Open(t)
	src := &ingest.Service{Store: srcStore, Index: srcIndex, Extractor: rules.New()}
	alice := lore.Scope{TenantID: "acme", UserID: "alice"}
	res, err := src.Add(ctx, ingest.AddRequest{Scope: alice, Infer: true, Sync: true, Messages: []ingest.Message{
		{Role: "user", Content: "I live in Paris and I work at Google.", CreatedAt: day(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	facts, err := srcStore.FindFacts(ctx, lore.FactFilter{Scope: alice})
	if err != nil || len(facts) == 0 {
		t.Fatalf("facts=%v, %v", facts, err)
	}
	fact, ep := facts[0], res.EpisodeIDs[0]
	rule := lore.DefaultFeedbackRule()
	for _, v := range []lore.Verdict{
		{MemoryID: fact.ID, Helpful: true, QueryHash: lore.QueryHash("where do I live")},
		{MemoryID: fact.ID, Helpful: true},
		{MemoryID: fact.ID, Helpful: true},
		{MemoryID: fact.ID, Helpful: true},
		{MemoryID: fact.ID, Helpful: true}, // at the cap: delta 0
		{MemoryID: ep, Helpful: false},
	} {
		v.Scope = alice
		if _, err := srcStore.RecordVerdict(ctx, &v, rule); err != nil {
			t.Fatal(err)
		}
	}
	if err := srcStore.RecordUsage(ctx, []lore.UsageRecord{{Scope: alice, MemoryID: ep, Returned: 3}}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := export.Write(ctx, &buf, srcStore, alice, now)
	if err != nil {
		t.Fatal(err)
	}
	if n.Verdicts != 6 || n.Usage != 2 || n.Successes != 1 {
		t.Fatalf("counts=%+v, want 6 verdicts, 2 usage rows (the episode's, the fact's citations), 1 success row", n)
	}
	if !strings.Contains(buf.String(), `"type":"verdict"`) {
		t.Fatalf("export has no verdict line")
	}
	d, err := export.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	dst, _ := sqlitetest.Open(t)
	if _, err := export.Import(ctx, dst, d, nil, now); err != nil {
		t.Fatal(err)
	}
	newFacts, err := dst.FindFacts(ctx, lore.FactFilter{Scope: alice})
	if err != nil {
		t.Fatal(err)
	}
	var newFact string
	for _, f := range newFacts {
		if f.Text == fact.Text {
			newFact = f.ID
		}
	}
	sig, err := dst.MemorySignals(ctx, alice, []string{newFact, ep}, lore.QueryHash("Where do I live?"))
	if err != nil {
		t.Fatal(err)
	}
	if m := sig[newFact]; math.Abs(m.Adjustment-0.6) > 1e-9 || m.Helpful != 5 || m.Cited != 5 || m.SuccessHelpful != 1 {
		t.Fatalf("imported fact signal=%+v, want adjustment 0.6, 5 helpful, 5 cited, 1 success", m)
	}
	if m := sig[ep]; math.Abs(m.Adjustment+0.1) > 1e-9 || m.Returned != 3 {
		t.Fatalf("imported episode signal=%+v, want adjustment -0.1 and returned 3", m)
	}
}
