package ingest_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/llm/llmtest"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/ingest"
)

// markerHits counts the occurrences of each marker in the database file and
// its WAL, as a disk forensics tool would read them.
func markerHits(t *testing.T, path string, markers ...string) map[string]int {
	t.Helper()
	hits := map[string]int{}
	for _, f := range []string{path, path + "-wal"} {
		raw, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		for _, m := range markers {
			hits[m] += bytes.Count(raw, []byte(m))
		}
	}
	return hits
}

// TestEraseLeavesNoCopyOnDisk ingests a conversation through the LLM
// extractor (so the reply cache holds it too), erases the user and scans
// the raw SQLite file and WAL: no copy of what the user said may be left,
// in live rows, free pages, WAL frames or the llmcache:* rows.
func TestEraseLeavesNoCopyOnDisk(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	idx := st.Index()
	srv := llmtest.New(t, llmtest.FixtureDir())
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	x, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "lore-test-model", MaxRetries: -1, Timeout: 5 * time.Second, Cache: llm.NewMetaCache(st), Logger: quiet})
	if err != nil {
		t.Fatalf("llm.New: %v", err)
	}
	svc := &ingest.Service{Store: st, Index: idx, Extractor: x, Logger: quiet}
	scope := lore.Scope{TenantID: "acme", UserID: "alice"}
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: scope, Infer: true, Sync: true, Messages: []ingest.Message{
		userSays(at(1, 10, 10, 0), "I live in Berlin."),
		userSays(at(1, 10, 10, 5), "And I love coffee, I drink it all day."),
	}}); err != nil {
		t.Fatalf("Add: %v", err)
	}
	// The profile holds Berlin too (location, stated): it must go with the rest.
	if prof, err := st.ProfileEntries(ctx, scope); err != nil || !slices.ContainsFunc(prof, func(e lore.ProfileEntry) bool { return e.Value == "Berlin" }) {
		t.Fatalf("profile before the erase=%+v (%v), want location Berlin", prof, err)
	}
	markers := []string{"Berlin", "berlin", "coffee", "drink it all day"}
	before := markerHits(t, path, markers...)
	for _, m := range []string{"Berlin", "coffee"} {
		if before[m] == 0 {
			t.Fatalf("before the erase: %q found 0 times in the files, want the scan to see the stored text", m)
		}
	}
	if _, err := svc.Erase(ctx, scope); err != nil {
		t.Fatalf("Erase: %v", err)
	}
	if n, err := st.DeleteMetaPrefix(ctx, llm.MetaCachePrefix); err != nil || n != 0 {
		t.Errorf("llmcache rows left after the erase=%d (%v), want 0", n, err)
	}
	// While the store is open, and after it is closed.
	for _, when := range []string{"open", "closed"} {
		if when == "closed" {
			idx.Close()
			if err := st.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
		}
		for m, n := range markerHits(t, path, markers...) {
			if n != 0 {
				t.Errorf("after the erase (store %s): %q found %d times in %s and its WAL, want 0 (%d before)", when, m, n, filepath.Base(path), before[m])
			}
		}
	}
}
