package export_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/export"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

var now = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

func day(d int) *time.Time {
	t := time.Date(2024, 5, d, 10, 0, 0, 0, time.UTC)
	return &t
}

// answers runs each query through the search pipeline and renders what
// comes back, ids aside (entities and facts get new ones on import).
func answers(t *testing.T, p *retrieve.Pipeline, scope lore.Scope, queries []string) []string {
	t.Helper()
	var out []string
	for _, q := range queries {
		res, err := p.Search(context.Background(), retrieve.Request{Scope: scope, Query: q, TopK: 8, IncludeInvalidated: true})
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s →", q)
		for _, r := range res.Results {
			fmt.Fprintf(&b, " [%s %.6f %q]", r.Type, r.Score, r.Memory)
		}
		out = append(out, b.String())
	}
	return out
}

// TestExportImportSameAnswers ingests conversations for alice (with a move,
// so a fact is invalidated) and bob, exports alice, imports the file into
// another embedded store, and asks both the same questions: the answers are
// the same, and bob's data never leaves.
func TestExportImportSameAnswers(t *testing.T) {
	ctx := context.Background()
	srcStore, srcIndex := sqlitetest.Open(t)
	src := &ingest.Service{Store: srcStore, Index: srcIndex, Extractor: rules.New(), Now: func() time.Time { return now }}
	alice := lore.Scope{TenantID: "acme", UserID: "alice"}
	bob := lore.Scope{TenantID: "acme", UserID: "bob"}
	for _, add := range []ingest.AddRequest{
		{Scope: alice, Infer: true, Sync: true, Messages: []ingest.Message{
			{Role: "user", Content: "I live in Paris and I work at Google. My sister Emma moved to Rome last week.", CreatedAt: day(1)},
			{Role: "assistant", Content: "Paris is lovely in spring.", CreatedAt: day(1)},
		}},
		{Scope: alice, Infer: true, Sync: true, Messages: []ingest.Message{
			{Role: "user", Content: "I moved to Lisbon. I started learning the cello two weeks ago.", CreatedAt: day(20)},
		}},
		{Scope: alice, Infer: false, Messages: []ingest.Message{{Role: "user", Content: "Remember: my locker code is 4417.", CreatedAt: day(21)}}},
		{Scope: bob, Infer: true, Sync: true, Messages: []ingest.Message{{Role: "user", Content: "I live in Oslo and I work at Equinor.", CreatedAt: day(2)}}},
	} {
		if _, err := src.Add(ctx, add); err != nil {
			t.Fatalf("Add: %v", err)
		}
	}

	var file bytes.Buffer
	n, err := export.Write(ctx, &file, srcStore, alice, now)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	if n.Episodes != 4 || n.Entities == 0 || n.Facts == 0 {
		t.Fatalf("exported %+v, want 4 episodes and some entities and facts", n)
	}
	if strings.Contains(file.String(), "Oslo") || strings.Contains(file.String(), "Equinor") {
		t.Error("alice's export holds bob's memories")
	}
	if !strings.Contains(file.String(), `"invalid_at"`) || !strings.Contains(file.String(), `"history":[{`) {
		t.Error("export holds no invalidated fact or no history, want facts with their history")
	}
	lines := strings.Split(strings.TrimSpace(file.String()), "\n")
	if !strings.HasPrefix(lines[0], `{"type":"lore.export","version":1,`) || !strings.HasPrefix(lines[len(lines)-1], `{"type":"end",`) {
		t.Errorf("export starts %q and ends %q, want the header and the end record", lines[0], lines[len(lines)-1])
	}

	dump, err := export.Read(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	dstStore, dstIndex := sqlitetest.Open(t)
	dst := &ingest.Service{Store: dstStore, Index: dstIndex, Extractor: rules.New(), Now: func() time.Time { return now }}
	got, err := export.Import(ctx, dstStore, dump, nil, now)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	if got != n {
		t.Errorf("imported %+v, want %+v", got, n)
	}
	if _, err := dst.Reindex(ctx, alice); err != nil {
		t.Fatalf("Reindex: %v", err)
	}

	queries := []string{
		"Where does alice live?", "Where did I live before?", "Where does my sister live?", "Where do I work?",
		"What instrument am I learning?", "locker code", "Emma", "Rome", "spring",
	}
	now := func() time.Time { return now }
	want := answers(t, &retrieve.Pipeline{Graph: srcStore, Index: srcIndex, Config: retrieve.DefaultConfig(), Now: now}, alice, queries)
	have := answers(t, &retrieve.Pipeline{Graph: dstStore, Index: dstIndex, Config: retrieve.DefaultConfig(), Now: now}, alice, queries)
	for i := range want {
		if !strings.Contains(want[i], "[") {
			t.Errorf("the source store answers nothing: %s", want[i])
		}
		if want[i] != have[i] {
			t.Errorf("after import:\n got %s\nwant %s", have[i], want[i])
		}
	}

	// A second export of the imported user holds the same records.
	var again bytes.Buffer
	if _, err := export.Write(ctx, &again, dstStore, alice, now()); err != nil {
		t.Fatalf("Write again: %v", err)
	}
	d2, err := export.Read(&again)
	if err != nil {
		t.Fatalf("Read again: %v", err)
	}
	if len(d2.Episodes) != len(dump.Episodes) || len(d2.Entities) != len(dump.Entities) || len(d2.Facts) != len(dump.Facts) {
		t.Errorf("re-export holds %d/%d/%d episodes/entities/facts, want %d/%d/%d",
			len(d2.Episodes), len(d2.Entities), len(d2.Facts), len(dump.Episodes), len(dump.Entities), len(dump.Facts))
	}
}

func TestReadRefusesBrokenFiles(t *testing.T) {
	header := `{"type":"lore.export","version":1,"scope":{"tenant_id":"t","user_id":"u"}}`
	cases := []struct{ name, file, want string }{
		{"empty", "", "empty"},
		{"no header", `{"type":"episode","episode":{"id":"e"}}`, "not a Lore export header"},
		{"other version", `{"type":"lore.export","version":9,"scope":{"tenant_id":"t","user_id":"u"}}`, "version 9"},
		{"cut short", header + "\n" + `{"type":"episode","episode":{"id":"e"}}`, "cut short"},
		{"counts differ", header + "\n" + `{"type":"end","counts":{"episodes":1,"entities":0,"facts":0}}`, "counts"},
		{"after the end", header + "\n" + `{"type":"end","counts":{"episodes":0,"entities":0,"facts":0}}` + "\n" + `{"type":"episode","episode":{"id":"e"}}`, "after the end"},
		{"unknown type", header + "\n" + `{"type":"profile"}`, "unknown"},
		{"bad json", header + "\n{", "line 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := export.Read(strings.NewReader(c.file))
			if lore.ErrorCode(err) != lore.EINVALID || !strings.Contains(lore.ErrorMessage(err), c.want) {
				t.Errorf("Read: err=%v, want EINVALID mentioning %q", err, c.want)
			}
		})
	}
}
