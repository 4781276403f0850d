package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExportThenImport imports the fixture conversation, exports maria with
// `lore export`, imports the file into another data dir (as is, and moved
// to another user) and finds her facts there, current and invalidated.
func TestExportThenImport(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	if _, err := run(t, nil, "", "import", "--data-dir", src, "--embedder", "none", "../../fixtures/conversations/basic.jsonl"); err != nil {
		t.Fatalf("import fixture: %v", err)
	}
	file := filepath.Join(t.TempDir(), "maria.jsonl")
	out, err := run(t, nil, "", "export", "--data-dir", src, "--embedder", "none", "--user", "maria", "--out", file)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	if !strings.Contains(out, "exported ") {
		t.Errorf("export printed %q, want a summary", out)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("export file mode=%v (%v), want 0600", fi.Mode().Perm(), err)
	}
	raw, _ := os.ReadFile(file)
	if strings.Contains(string(raw), `"user_id":"ken"`) {
		t.Error("maria's export holds ken's records")
	}
	out, err = run(t, nil, "", "import", "--data-dir", dst, "--embedder", "none", "--json", file)
	if err != nil {
		t.Fatalf("import export: %v", err)
	}
	var sum struct {
		Imported struct{ Episodes, Entities, Facts int } `json:"imported"`
		Indexed  int                                     `json:"indexed"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Imported.Facts == 0 || sum.Indexed == 0 {
		t.Fatalf("import summary %s (%v), want facts imported and indexed", out, err)
	}
	if _, err := run(t, nil, "", "import", "--data-dir", dst, "--embedder", "none", "--user", "maria2", file); err != nil {
		t.Fatalf("import export as maria2: %v", err)
	}
	wantCur, wantOld := facts(t, openStore(t, src), "maria")
	if len(wantOld) == 0 {
		t.Fatal("the fixture gave maria no invalidated fact; the test needs one")
	}
	for _, user := range []string{"maria", "maria2"} {
		cur, old := facts(t, openStore(t, dst), user)
		if user == "maria2" {
			// The user's own entity keeps its name (maria) in the copy.
			cur, old = rename(cur), rename(old)
		}
		if !maps.Equal(cur, wantCur) || !maps.Equal(old, wantOld) {
			t.Errorf("%s after import: current %v, invalidated %v; want %v and %v", user, keys(cur), keys(old), keys(wantCur), keys(wantOld))
		}
	}
}

func rename(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[strings.ReplaceAll(k, "maria2", "maria")] = true
	}
	return out
}

func keys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
