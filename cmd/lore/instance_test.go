package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A data directory's instance id belongs to one live process: a second
// process on it runs under a fresh id, and once the first is gone the next
// takes the kept id back.
func TestInstanceIDHeldByOneProcess(t *testing.T) {
	dir := t.TempDir()
	first, shared, lock, err := instanceID("", dir)
	if err != nil || shared {
		t.Fatalf("first: id %q shared %v err %v", first, shared, err)
	}
	kept, err := os.ReadFile(filepath.Join(dir, "instance-id"))
	if err != nil || strings.TrimSpace(string(kept)) != first {
		t.Fatalf("kept id %q err %v, want %q", kept, err, first)
	}
	// Another open of the lock file stands for another process.
	second, shared, lock2, err := instanceID("", dir)
	if err != nil || !shared || second == first || second == "" {
		t.Fatalf("second while the first runs: id %q shared %v err %v, want a fresh id", second, shared, err)
	}
	lock2.Close()
	if err := lock.Close(); err != nil {
		t.Fatal(err)
	}
	again, shared, lock3, err := instanceID("", dir)
	if err != nil || shared || again != first {
		t.Fatalf("after the first stopped: id %q shared %v err %v, want %q back", again, shared, err, first)
	}
	lock3.Close()
	if given, shared, _, err := instanceID(" node-a ", dir); err != nil || shared || given != "node-a" {
		t.Errorf("given id: %q shared %v err %v, want node-a", given, shared, err)
	}
}
