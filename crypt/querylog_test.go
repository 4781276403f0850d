package crypt_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

// The query log's conformance suite passes through the encryption layer.
func TestQueryLogConformance(t *testing.T) {
	key := master(t)
	storetest.RunQueryLog(t, "sqlite+crypt", func(tb testing.TB) storetest.QueryLogBackend {
		s, _, _ := open(tb, tb.TempDir(), key)
		return s
	})
}

// TestQueryLogSealed: a logged query and its hash are in neither the
// database file nor its WAL, and read back in the clear.
func TestQueryLogSealed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _, _ := open(t, dir, master(t))
	sc := lore.Scope{TenantID: "t1", UserID: "alice"}
	query := "gluten free bakeries near Alfama"
	now := time.Now().UTC()
	if err := s.AppendQueryLog(ctx, sc, lore.QueryLogEntry{ID: "q1", Query: query, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	got, err := s.QueryLog(ctx, sc, lore.QueryLogFilter{Now: now})
	if err != nil || len(got) != 1 || got[0].Query != query || got[0].Hash != lore.QueryEvidence(query) {
		t.Fatalf("QueryLog=%+v, %v; want the query in the clear with its hash", got, err)
	}
	for _, name := range []string{"lore.db", "lore.db-wal"} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte("Alfama")) {
			t.Errorf("%s holds the logged query in the clear", name)
		}
		if h := strings.TrimPrefix(lore.QueryEvidence(query), lore.QueryEvidencePrefix); bytes.Contains(raw, []byte(h)) {
			t.Errorf("%s holds the logged query's unkeyed hash %s", name, h)
		}
	}
}
