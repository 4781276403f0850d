package main

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// copyDir copies the flat data directory src to a new temp directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestAuditVerifyCLI: `lore audit verify` passes an untouched log and fails,
// naming the record, on one whose rows were edited, removed or reordered in
// the database file; a head noted earlier catches records cut from the end.
func TestAuditVerifyCLI(t *testing.T) {
	dir := t.TempDir()
	flags := func(d string) []string { return []string{"--data-dir", d, "--embedder", "none"} }
	for _, user := range []string{"alice", "bob", "carol", "dave"} {
		if _, err := run(t, nil, "", append([]string{"keys", "create", "--tenant", "acme", "--user", user}, flags(dir)...)...); err != nil {
			t.Fatalf("keys create: %v", err)
		}
	}
	out, err := run(t, nil, "", append([]string{"audit", "verify"}, flags(dir)...)...)
	if err != nil || !strings.HasPrefix(out, "OK: 4 records checked") {
		t.Fatalf("audit verify on an untouched log: %q, %v; want OK with 4 records", out, err)
	}
	head := regexp.MustCompile(`head (\d+:[0-9a-f]{64})`).FindStringSubmatch(out)
	if head == nil {
		t.Fatalf("audit verify printed no head: %q", out)
	}
	listed, err := run(t, nil, "", append([]string{"audit", "list"}, flags(dir)...)...)
	if err != nil || strings.Count(listed, "key.create") != 4 || strings.Contains(listed, "alice") {
		t.Errorf("audit list=%q (%v), want 4 key.create records and no user id", listed, err)
	}

	cases := []struct {
		name, sql, want string
		args            []string
	}{
		{"edited", `UPDATE audit_log SET action = 'export' WHERE seq = 2`, "record 2: hash does not match", nil},
		{"edited detail", `UPDATE audit_log SET detail = '{"admin":"true"}' WHERE seq = 3`, "record 3: hash does not match", nil},
		{"removed", `DELETE FROM audit_log WHERE seq = 2`, "record 3: seq 3 follows 1", nil},
		{"reordered", `UPDATE audit_log SET seq = -seq WHERE seq IN (2, 3); UPDATE audit_log SET seq = 5 + seq WHERE seq IN (-2, -3)`, "record 2: prev_hash", nil},
		{"cut from the end", `DELETE FROM audit_log WHERE seq = 4`, "record 4: the head noted earlier is not in the log", []string{"--head", head[1]}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := copyDir(t, dir)
			db, err := sql.Open("sqlite", filepath.Join(d, "lore.db"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(c.sql); err != nil {
				t.Fatalf("tamper: %v", err)
			}
			db.Close()
			out, err := run(t, nil, "", append(append([]string{"audit", "verify"}, c.args...), flags(d)...)...)
			if !errors.Is(err, errAuditBroken) {
				t.Errorf("audit verify after the tampering: err=%v, want the log broken; output %q", err, out)
			}
			if !strings.Contains(out, c.want) || !strings.Contains(out, "BROKEN") {
				t.Errorf("audit verify output %q, want %q", out, c.want)
			}
		})
	}
	// Cut from the end without a noted head: the shorter chain verifies.
	d := copyDir(t, dir)
	db, _ := sql.Open("sqlite", filepath.Join(d, "lore.db"))
	if _, err := db.Exec(`DELETE FROM audit_log WHERE seq = 4`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if out, err := run(t, nil, "", append([]string{"audit", "verify"}, flags(d)...)...); err != nil || !strings.HasPrefix(out, "OK: 3 records") {
		t.Errorf("audit verify of a log cut at its end, without --head: %q, %v; want OK with 3", out, err)
	}
	// Another audit key cannot verify the log.
	if _, err := run(t, map[string]string{"LORE_AUDIT_KEY": strings.Repeat("x", 40)}, "", append([]string{"audit", "verify"}, flags(dir)...)...); !errors.Is(err, errAuditBroken) {
		t.Errorf("audit verify with another key: err=%v, want the log broken", err)
	}
}

// TestRetentionCLI: lore retention set and show a tenant's policy, the
// change is audited, and sweep reports what it did.
func TestRetentionCLI(t *testing.T) {
	dir := t.TempDir()
	flags := []string{"--data-dir", dir, "--embedder", "none"}
	if _, err := run(t, nil, "", append([]string{"retention", "set", "--tenant", "acme", "--raw-text-days", "7"}, flags...)...); err != nil {
		t.Fatalf("retention set: %v", err)
	}
	out, err := run(t, nil, "", append([]string{"retention", "show", "--tenant", "acme"}, flags...)...)
	if err != nil || !strings.Contains(out, `"raw_text_days": 7`) {
		t.Errorf("retention show=%q, %v; want 7 days", out, err)
	}
	if _, err := run(t, nil, "", append([]string{"retention", "sweep"}, flags...)...); err != nil {
		t.Errorf("retention sweep: %v", err)
	}
	out, err = run(t, nil, "", append([]string{"audit", "list", "--action", "retention.set"}, flags...)...)
	if err != nil || !strings.Contains(out, "raw_text_days=7") {
		t.Errorf("audit list=%q, %v; want the policy change", out, err)
	}
}
