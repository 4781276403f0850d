package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAddAndSearchThroughServer: `lore add --server` and `lore search
// --server` go through the client package to a running `lore serve`, with
// the key from LORE_API_KEY.
func TestAddAndSearchThroughServer(t *testing.T) {
	dir := t.TempDir()
	key, err := run(t, nil, "", "keys", "create", "--data-dir", dir, "--embedder", "none", "--tenant", "acme")
	if err != nil {
		t.Fatalf("keys create: %v", err)
	}
	base, stop := startServe(t, dir, nil)
	defer stop()
	env := map[string]string{"LORE_API_KEY": strings.TrimSpace(key)}
	out, err := run(t, env, "", "add", "--server", base, "--user", "alice", "--sync", "I live in Paris and my sister Emma lives in Rome.")
	if err != nil || !strings.Contains(out, "stored episode") || !strings.Contains(out, "Emma lives in Rome") {
		t.Fatalf("add --server=%q, %v; want the episode and the Rome fact", out, err)
	}
	out, err = run(t, env, "", "search", "--server", base, "--user", "alice", "--json", "where", "does", "my", "sister", "live")
	if err != nil {
		t.Fatalf("search --server: %v", err)
	}
	var resp struct {
		Results []struct{ Memory string } `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil || len(resp.Results) == 0 || !strings.Contains(resp.Results[0].Memory, "Rome") {
		t.Errorf("search --server --json=%q (%v), want the Rome fact first", out, err)
	}
	// The key is the server's: without it the server refuses, and the CLI
	// says so.
	if _, err := run(t, nil, "", "search", "--server", base, "--user", "alice", "Rome"); err == nil || !strings.Contains(err.Error(), "API key") {
		t.Errorf("search without a key err=%v, want the server's 401 message", err)
	}
}
