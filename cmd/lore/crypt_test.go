package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
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

// TestKeysResealCLI: names a store took in the clear before encryption was
// turned on are sealed by lore keys reseal (audited), a second run seals
// nothing, and search still links the user's sister by name.
func TestKeysResealCLI(t *testing.T) {
	dir := t.TempDir()
	flags := []string{"--data-dir", dir, "--embedder", "none"}
	if _, err := run(t, nil, "", append(append([]string{"add", "--user", "maya", "--sync"}, flags...), "My sister Zelda lives in Quokkaville.")...); err != nil {
		t.Fatalf("add: %v", err)
	}
	key, _ := run(t, nil, "", "keys", "new-master")
	env := map[string]string{"LORE_MASTER_KEY": strings.TrimSpace(key)}
	if _, err := run(t, env, "", append([]string{"keys", "reseal"}, flags...)...); err == nil {
		t.Errorf("keys reseal without --tenant succeeded, want usage")
	}
	out, err := run(t, env, "", append([]string{"keys", "reseal", "--tenant", lore.DefaultTenant}, flags...)...)
	if err != nil || !strings.HasPrefix(out, "sealed ") || strings.HasPrefix(out, "sealed 0 ") {
		t.Fatalf("keys reseal=%q, %v; want names sealed", out, err)
	}
	if out, err := run(t, env, "", append([]string{"keys", "reseal", "--tenant", lore.DefaultTenant}, flags...)...); err != nil || !strings.HasPrefix(out, "sealed 0 names") {
		t.Errorf("keys reseal again=%q, %v; want 0", out, err)
	}
	out, err = run(t, env, "", append(append([]string{"search", "--user", "maya"}, flags...), "Where does my sister live?")...)
	if err != nil || !strings.Contains(out, "Quokkaville") {
		t.Errorf("search after the reseal=%q, %v; want the sister's town", out, err)
	}
	if out, err := run(t, nil, "", append([]string{"audit", "list", "--action", lore.AuditReseal}, flags...)...); err != nil || !strings.Contains(out, lore.AuditReseal) {
		t.Errorf("audit list=%q, %v; want the reseal recorded", out, err)
	}
}
