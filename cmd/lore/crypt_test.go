package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEncryptionAtRestCLI: with LORE_MASTER_KEY set, lore add stores the
// text sealed (not in lore.db), lore search finds it through the blind
// index and shows it in the clear, and lore keys rotate-master moves the
// data keys to a new master key, after which only the new key reads.
func TestEncryptionAtRestCLI(t *testing.T) {
	dir := t.TempDir()
	flags := []string{"--data-dir", dir, "--embedder", "none"}
	oldKey, err := run(t, nil, "", "keys", "new-master")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LORE_MASTER_KEY": strings.TrimSpace(oldKey)}
	const marker = "quokkamarker"
	if _, err := run(t, env, "", append(append([]string{"add", "--user", "alice", "--infer=false"}, flags...), "my locker code is "+marker)...); err != nil {
		t.Fatalf("add: %v", err)
	}
	out, err := run(t, env, "", append(append([]string{"search", "--user", "alice"}, flags...), "locker "+marker)...)
	if err != nil || !strings.Contains(out, "my locker code is "+marker) {
		t.Fatalf("search=%q, %v; want the memory in the clear", out, err)
	}
	for _, name := range []string{"lore.db", "lore.db-wal"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil && bytes.Contains(b, []byte(marker)) {
			t.Errorf("%s holds the text in the clear", name)
		}
	}
	newKey, _ := run(t, nil, "", "keys", "new-master")
	keyFile := filepath.Join(t.TempDir(), "new.key")
	if err := os.WriteFile(keyFile, []byte(newKey), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, env, "", append([]string{"keys", "rotate-master", "--new-key-file", keyFile}, flags...)...); err != nil || !strings.Contains(out, "re-wrapped 1 data keys") {
		t.Fatalf("rotate-master=%q, %v; want 1 data key re-wrapped", out, err)
	}
	out, err = run(t, map[string]string{"LORE_MASTER_KEY_FILE": keyFile}, "", append(append([]string{"search", "--user", "alice"}, flags...), marker)...)
	if err != nil || !strings.Contains(out, marker) {
		t.Errorf("search with the new master key=%q, %v", out, err)
	}
	if _, err := run(t, env, "", append(append([]string{"search", "--user", "alice"}, flags...), marker)...); err == nil {
		t.Errorf("search with the old master key after the rotation succeeded, want it refused")
	}
}
