package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// keyCall sends a request to a running server with an optional key.
func keyCall(t *testing.T, method, url, key, body string, header ...string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatalf("NewRequest: %v", err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
		if header[i] == "Host" {
			req.Host = header[i+1]
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestKeysEndToEnd: a loopback server serves without keys until the first
// key is created with `lore keys create`; from then on every request needs
// a key, and `lore keys revoke` stops one at once.
func TestKeysEndToEnd(t *testing.T) {
	dir := t.TempDir()
	base, _ := startServe(t, dir, nil)
	list := base + "/v1/memories?user_id=alice"
	if code, body := keyCall(t, "GET", list, "", ""); code != http.StatusOK {
		t.Fatalf("open loopback server: status %d, want 200; %s", code, body)
	}
	if code, _ := keyCall(t, "GET", list, "", "", "Host", "rebind.example:8420"); code != http.StatusForbidden {
		t.Errorf("foreign Host: status %d, want 403", code)
	}
	if code, _ := keyCall(t, "GET", list, "", "", "Origin", "https://evil.example"); code != http.StatusForbidden {
		t.Errorf("foreign Origin: status %d, want 403", code)
	}

	dataFlags := []string{"--data-dir", dir, "--embedder", "none"}
	out, err := run(t, nil, "", append([]string{"keys", "create", "--tenant", "acme", "--user", "alice", "--expires", "30d"}, dataFlags...)...)
	if err != nil {
		t.Fatalf("keys create: %v", err)
	}
	key := strings.TrimSpace(out)
	if !strings.HasPrefix(key, "lore_") {
		t.Fatalf("keys create printed %q, want a lore_ key", out)
	}
	fi, err := os.Stat(filepath.Join(dir, keySecretFile))
	if err != nil {
		t.Fatalf("stat key secret: %v", err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("key.secret mode=%o, want 600", perm)
	}
	if raw, _ := os.ReadFile(filepath.Join(dir, "lore.db")); strings.Contains(string(raw), key) {
		t.Errorf("lore.db holds the key in the clear")
	}

	if code, _ := keyCall(t, "GET", list, "", ""); code != http.StatusUnauthorized {
		t.Errorf("no key once a key exists: status %d, want 401", code)
	}
	if code, body := keyCall(t, "GET", list, key, ""); code != http.StatusOK {
		t.Errorf("right key: status %d, want 200; %s", code, body)
	}
	if code, _ := keyCall(t, "GET", base+"/v1/memories?user_id=bob", key, ""); code != http.StatusForbidden {
		t.Errorf("key pinned to alice, asking for bob: status %d, want 403", code)
	}
	if code, _ := keyCall(t, "GET", list, key, "", "X-Lore-Tenant", "other"); code != http.StatusForbidden {
		t.Errorf("key of acme naming tenant other: status %d, want 403", code)
	}
	if code, _ := keyCall(t, "GET", base+"/healthz", "", ""); code != http.StatusOK {
		t.Errorf("healthz without a key: status %d, want 200", code)
	}

	out, err = run(t, nil, "", append([]string{"keys", "list", "--json"}, dataFlags...)...)
	if err != nil {
		t.Fatalf("keys list: %v", err)
	}
	var listed []map[string]any
	if err := json.Unmarshal([]byte(out), &listed); err != nil || len(listed) != 1 {
		t.Fatalf("keys list --json=%s (err %v), want one key", out, err)
	}
	if strings.Contains(out, key) || listed[0]["id"] == "" || listed[0]["tenant_id"] != "acme" {
		t.Errorf("keys list=%s, want the acme key's record without the key", out)
	}
	if _, err := run(t, nil, "", append([]string{"keys", "revoke", listed[0]["id"].(string)}, dataFlags...)...); err != nil {
		t.Fatalf("keys revoke: %v", err)
	}
	if code, _ := keyCall(t, "GET", list, key, ""); code != http.StatusUnauthorized {
		t.Errorf("revoked key: status %d, want 401", code)
	}
}

// TestServeAuthRequired: --auth required needs a key even on loopback
// before any exists.
func TestServeAuthRequired(t *testing.T) {
	base, _ := startServe(t, t.TempDir(), nil, "--auth", "required")
	if code, _ := keyCall(t, "GET", base+"/v1/memories?user_id=alice", "", ""); code != http.StatusUnauthorized {
		t.Errorf("--auth required, no key: status %d, want 401", code)
	}
}

func TestParseExpiry(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		in      string
		want    time.Time
		wantErr bool
	}{
		{"720h", now.Add(720 * time.Hour), false},
		{"30d", now.Add(30 * 24 * time.Hour), false},
		{"2025-02-01T00:00:00Z", time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC), false},
		{"2024-12-01T00:00:00Z", time.Time{}, true},
		{"-1h", time.Time{}, true},
		{"soon", time.Time{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseExpiry(tt.in, now)
			if (err != nil) != tt.wantErr {
				t.Fatalf("parseExpiry(%q) err=%v, want error %v", tt.in, err, tt.wantErr)
			}
			if !tt.wantErr && !got.Equal(tt.want) {
				t.Errorf("parseExpiry(%q)=%v, want %v", tt.in, got, tt.want)
			}
		})
	}
}
