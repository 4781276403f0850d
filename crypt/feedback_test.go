package crypt_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

// The feedback suite passes through the encryption layer: success counts
// are found by the keyed query hash.
func TestFeedbackConformance(t *testing.T) {
	key := master(t)
	storetest.RunFeedback(t, "sqlite+crypt", func(tb testing.TB) storetest.FeedbackBackend {
		s, _, _ := open(tb, tb.TempDir(), key)
		return s
	})
}

// TestQueryHashKeyed: the database holds no unkeyed hash of a judged
// query (a guessed query cannot be confirmed from it), yet the success
// signal finds the verdict for the same query asked again, differently
// spelled, and not for another query; another tenant's key of the same
// query differs.
func TestQueryHashKeyed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _, _ := open(t, dir, master(t))
	sc := lore.Scope{TenantID: "t1", UserID: "alice"}
	other := lore.Scope{TenantID: "t2", UserID: "alice"}
	q := "Where does Emma live?"
	rule := lore.DefaultFeedbackRule()
	for _, v := range []*lore.Verdict{
		{Scope: sc, MemoryID: "m1", Helpful: true, QueryHash: lore.QueryHash(q)},
		{Scope: other, MemoryID: "m1", Helpful: true, QueryHash: lore.QueryHash(q)},
	} {
		if _, err := s.RecordVerdict(ctx, v, rule); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.MemorySignals(ctx, sc, []string{"m1"}, lore.QueryHash("where does emma live"))
	if err != nil || got["m1"].SuccessHelpful != 1 {
		t.Fatalf("MemorySignals(same query)=%+v, %v; want success 1", got, err)
	}
	if got, err = s.MemorySignals(ctx, sc, []string{"m1"}, lore.QueryHash("where does bob live")); err != nil || got["m1"].SuccessHelpful != 0 {
		t.Fatalf("MemorySignals(another query)=%+v, %v; want success 0", got, err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "lore.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	plain := lore.QueryHash(q)
	byTenant := map[string]string{}
	for _, table := range []string{"verdicts", "success"} {
		rows, err := db.QueryContext(ctx, `SELECT tenant_id, query_hash FROM `+table)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		n := 0
		for rows.Next() {
			var tenant, h string
			if err := rows.Scan(&tenant, &h); err != nil {
				t.Fatal(err)
			}
			n++
			if strings.Contains(h, plain) || !strings.HasPrefix(h, "k:") {
				t.Errorf("%s holds query hash %q, want a keyed one (plain %s)", table, h, plain)
			}
			byTenant[tenant] = h
		}
		rows.Close()
		if n != 2 {
			t.Errorf("%s has %d rows, want 2", table, n)
		}
	}
	if byTenant["t1"] == byTenant["t2"] {
		t.Errorf("both tenants key the query as %q, want different keys", byTenant["t1"])
	}
}
