package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore"
)

// TestBackfillSuccessRebuilds empties the success table behind the store's
// back (as a store restored from verdicts alone would be) and checks that a
// backfill restores it and a second one adds nothing.
func TestBackfillSuccessRebuilds(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer st.Close()
	sc := lore.Scope{TenantID: "t", UserID: "u"}
	h := lore.QueryHash("where is it")
	for _, v := range []lore.Verdict{{MemoryID: "a", Helpful: true}, {MemoryID: "a", Helpful: true}, {MemoryID: "b"}, {MemoryID: "c", Helpful: true}} {
		v.Scope = sc
		if v.MemoryID != "c" {
			v.QueryHash = h
		}
		if _, err := st.RecordVerdict(ctx, &v, lore.DefaultFeedbackRule()); err != nil {
			t.Fatalf("RecordVerdict: %v", err)
		}
	}
	want, err := st.Successes(ctx, sc)
	if err != nil || len(want) != 2 {
		t.Fatalf("Successes=%+v, %v; want 2 rows", want, err)
	}
	if _, err := st.w.ExecContext(ctx, `DELETE FROM success`); err != nil {
		t.Fatal(err)
	}
	if _, err := st.w.ExecContext(ctx, `INSERT INTO success VALUES ('t', 'u', '', ?, 'b', 0, 7)`, h); err != nil {
		t.Fatal(err)
	}
	for run, wantN := range []int{2, 0} {
		n, err := st.BackfillSuccess(ctx)
		if err != nil || n != wantN {
			t.Fatalf("BackfillSuccess run %d = %d, %v; want %d", run+1, n, err, wantN)
		}
	}
	got, err := st.Successes(ctx, sc)
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("after backfill: %+v, want %+v", got, want)
	}
}
