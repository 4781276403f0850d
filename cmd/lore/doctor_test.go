package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

// TestDoctorCLI: the doctor finds nothing after ordinary adds, finds a
// document taken out of the index behind Lore's back (exit status != 0),
// repairs it with --repair, and finds nothing after.
func TestDoctorCLI(t *testing.T) {
	dir := t.TempDir()
	flags := []string{"--data-dir", dir, "--embedder", "none"}
	for _, text := range []string{"I live in Paris.", "I work at Google."} {
		if _, err := run(t, nil, "", append(append([]string{"add", "--tenant", "acme", "--user", "alice", "--sync"}, flags...), text)...); err != nil {
			t.Fatalf("add: %v", err)
		}
	}
	out, err := run(t, nil, "", append([]string{"doctor", "--all"}, flags...)...)
	if err != nil || !strings.Contains(out, "tenant acme:") || !strings.Contains(out, " 0 differences") {
		t.Fatalf("doctor after adds: %q, %v; want tenant acme with 0 differences", out, err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`DELETE FROM docs WHERE seq = (SELECT min(seq) FROM docs WHERE kind = 'fact')`)
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("take a fact out of the index: %v (%d rows)", err, n)
	}
	db.Close()
	out, err = run(t, nil, "", append([]string{"doctor", "--tenant", "acme", "--user", "alice"}, flags...)...)
	if lore.ErrorCode(err) != lore.ECONFLICT || !strings.Contains(out, "missing from index 1") {
		t.Fatalf("doctor with a document missing: %q, %v; want 1 missing and an ECONFLICT error", out, err)
	}
	out, err = run(t, nil, "", append([]string{"doctor", "--tenant", "acme", "--repair"}, flags...)...)
	if err != nil || !strings.Contains(out, "repaired 1") {
		t.Fatalf("doctor --repair: %q, %v; want 1 repaired", out, err)
	}
	out, err = run(t, nil, "", append([]string{"doctor", "--tenant", "acme", "--user", "alice"}, flags...)...)
	if err != nil || !strings.Contains(out, " 0 differences") {
		t.Fatalf("doctor after the repair: %q, %v; want 0 differences", out, err)
	}
}
