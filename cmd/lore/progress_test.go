package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	tests := []struct {
		name        string
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{"nothing yet", 0, 480, 0, "importing 0/480 messages (0%), ETA unknown"},
		{"a quarter", 120, 480, 10 * time.Second, "importing 120/480 messages (25%), 12.0 msg/s, ETA 30s"},
		{"done", 480, 480, 40 * time.Second, "importing 480/480 messages (100%), 12.0 msg/s, ETA 0s"},
		{"slow", 1, 3601, time.Second, "importing 1/3601 messages (0%), 1.0 msg/s, ETA 1h0m0s"},
		{"empty import", 0, 0, time.Second, "importing 0/0 messages, ETA unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := progressLine(tt.done, tt.total, tt.elapsed); got != tt.want {
				t.Errorf("progressLine(%d, %d, %s)=%q, want %q", tt.done, tt.total, tt.elapsed, got, tt.want)
			}
		})
	}
}

// TestImportProgressReports: off a terminal, a line every 10 s of the
// clock and a summary at the end; on one, the line redrawn in place.
func TestImportProgressReports(t *testing.T) {
	clock := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	var log bytes.Buffer
	p := newImportProgress(&log, false, 100, now)
	for range 10 {
		clock = clock.Add(4 * time.Second)
		p.add(10)
	}
	p.finish()
	want := "importing 30/100 messages (30%), 2.5 msg/s, ETA 28s\n" +
		"importing 60/100 messages (60%), 2.5 msg/s, ETA 16s\n" +
		"importing 90/100 messages (90%), 2.5 msg/s, ETA 4s\n" +
		"imported 100/100 messages in 40s, 2.5 msg/s\n"
	if log.String() != want {
		t.Errorf("log output:\n%s\nwant:\n%s", log.String(), want)
	}

	var tty bytes.Buffer
	p = newImportProgress(&tty, true, 4, now)
	clock = clock.Add(time.Second)
	p.add(2)
	p.finish()
	if want := "\rimporting 2/4 messages (50%), 2.0 msg/s, ETA 1s\x1b[K\rimported 2/4 messages in 1s, 2.0 msg/s\x1b[K\n"; tty.String() != want {
		t.Errorf("terminal output %q, want %q", tty.String(), want)
	}

	var none bytes.Buffer
	p = newImportProgress(nil, false, 4, now)
	p.add(4)
	p.finish()
	if none.Len() != 0 {
		t.Errorf("without a writer: %q, want nothing", none.String())
	}
}

// TestImportShowsProgress runs `lore import --progress always` and finds
// the summary with its rate on stderr; by default (stderr not a terminal)
// stderr stays empty.
func TestImportShowsProgress(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "chat.jsonl")
	data := `{"user_id": "a", "messages": [{"role": "user", "content": "I work at Acme."}]}
{"user_id": "a", "messages": [{"role": "user", "content": "I live in Oslo."}, {"role": "user", "content": "My sister Emma lives in Rome."}]}
`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	imp := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		m := &Main{Args: append([]string{"import", "--embedder", "none"}, args...), Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(string) string { return "" }}
		err := m.Run(context.Background())
		if cerr := m.Close(); err == nil {
			err = cerr
		}
		return errb.String(), err
	}
	stderr, err := imp("--progress", "always", "--data-dir", filepath.Join(dir, "a"), path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "imported 3/3 messages in ") || !strings.Contains(stderr, " msg/s") {
		t.Errorf("stderr %q, want the summary line with a rate", stderr)
	}
	stderr, err = imp("--data-dir", filepath.Join(dir, "b"), path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr, "import") {
		t.Errorf("stderr %q with --progress auto off a terminal, want no progress", stderr)
	}
	if _, err := imp("--progress", "sometimes", "--data-dir", filepath.Join(dir, "c"), path); err == nil || !strings.Contains(err.Error(), "--progress") {
		t.Errorf("err=%v, want --progress refused", err)
	}
}
