package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore/export"
)

// syncBuffer is a bytes.Buffer safe for the server's log writes and the
// test's reads at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServe runs `lore serve` in-process on 127.0.0.1:0 and returns its
// base URL and a stop function that sends the stop signal and waits for a
// clean exit.
func startServe(t *testing.T, dataDir string, env map[string]string, extra ...string) (string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan string, 1)
	logs := &syncBuffer{}
	m := &Main{
		Args:      append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir, "--embedder", "none"}, extra...),
		Stdin:     strings.NewReader(""),
		Stdout:    io.Discard,
		Stderr:    logs,
		Getenv:    func(k string) string { return env[k] },
		Logger:    slog.New(slog.NewTextHandler(logs, nil)),
		Listening: listening,
	}
	done := make(chan error, 1)
	go func() {
		err := m.Run(ctx)
		if cerr := m.Close(); err == nil {
			err = cerr
		}
		done <- err
	}()
	select {
	case addr := <-listening:
		stopped := false
		stop := func() {
			if stopped {
				return
			}
			stopped = true
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("serve returned %v; logs:\n%s", err, logs)
				}
			case <-time.After(20 * time.Second):
				t.Errorf("serve did not stop within 20s")
			}
		}
		t.Cleanup(stop)
		return "http://" + addr, stop
	case err := <-done:
		cancel()
		t.Fatalf("serve exited before listening: %v; logs:\n%s", err, logs)
	// 60s, not 20: loading a model (e5: 76 MB graph, 250k-piece vocabulary)
	// took over 20s when the shared 2-core machine ran at load 50.
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatalf("serve did not listen within 60s; logs:\n%s", logs)
	}
	return "", nil
}

// call sends a JSON request over real HTTP and decodes the answer into out
// (when non-nil), failing unless the status is want.
func call(t *testing.T, want int, method, url string, body any, out any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatalf("request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: status=%d, want %d; body %s", method, url, resp.StatusCode, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: decode %s: %v", method, url, raw, err)
		}
	}
}

type event struct {
	ID, Memory, Event, Type string
}

type memory struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	Memory   string         `json:"memory"`
	Metadata map[string]any `json:"metadata"`
}

// TestServeEndToEnd walks the README's curl session against a real server:
// add (sync and async), poll the job, search, list, get, update, history,
// graph, export, delete and erase the user; then restarts on the same data
// directory to check what was acknowledged is still there.
func TestServeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	base, stop := startServe(t, dir, nil, "--workers", "2")

	var health map[string]string
	call(t, 200, "GET", base+"/healthz", nil, &health)
	if health["status"] != "ok" {
		t.Fatalf("healthz=%v", health)
	}
	call(t, 200, "GET", base+"/readyz", nil, nil)

	// 1. Add a conversation, extracting within the request.
	var added struct {
		EpisodeIDs []string `json:"episode_ids"`
		Results    []event  `json:"results"`
	}
	call(t, 200, "POST", base+"/v1/memories", map[string]any{
		"user_id": "alice", "sync": true,
		"messages": []map[string]any{
			{"role": "user", "content": "I live in Paris and I work at Google.", "created_at": "2024-05-01T10:00:00Z", "source_id": "D1:1"},
			{"role": "assistant", "content": "Paris is lovely in spring."},
		},
	}, &added)
	var factID string
	for _, ev := range added.Results {
		if ev.Type == "fact" && strings.Contains(ev.Memory, "Paris") {
			factID = ev.ID
		}
	}
	if len(added.EpisodeIDs) != 2 || factID == "" {
		t.Fatalf("sync add=%+v, want 2 episodes and a Paris fact", added)
	}

	// 2. Add in the background and poll the job until it is done.
	var queued struct {
		JobID string `json:"job_id"`
	}
	call(t, 202, "POST", base+"/v1/memories", map[string]any{
		"user_id":  "alice",
		"messages": []map[string]any{{"role": "user", "content": "My sister Emma lives in Rome.", "created_at": "2024-05-02T10:00:00Z"}},
	}, &queued)
	var job struct {
		Status  string  `json:"status"`
		Results []event `json:"results"`
	}
	for deadline := time.Now().Add(15 * time.Second); job.Status != "done"; time.Sleep(25 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("job %s status=%q after 15s, want done", queued.JobID, job.Status)
		}
		call(t, 200, "GET", base+"/v1/jobs/"+queued.JobID+"?user_id=alice", nil, &job)
	}
	if len(job.Results) == 0 {
		t.Errorf("done job has no results")
	}

	// 3. Search.
	var found struct {
		Results []struct {
			ID      string `json:"id"`
			Memory  string `json:"memory"`
			Sources []struct {
				SourceID string `json:"source_id"`
			} `json:"sources"`
		} `json:"results"`
		Context string `json:"context"`
	}
	call(t, 200, "POST", base+"/v1/memories/search", map[string]any{"query": "Where does Alice live?", "user_id": "alice", "top_k": 5}, &found)
	if len(found.Results) == 0 || !strings.Contains(found.Context, "Paris") {
		t.Fatalf("search=%+v, want Paris", found)
	}
	var sawSource bool
	for _, r := range found.Results {
		for _, s := range r.Sources {
			sawSource = sawSource || s.SourceID == "D1:1"
		}
	}
	if !sawSource {
		t.Errorf("no result cites source D1:1: %+v", found.Results)
	}

	// 4. List, get, update, history.
	var page struct {
		Results []memory `json:"results"`
		HasMore bool     `json:"has_more"`
	}
	call(t, 200, "GET", base+"/v1/memories?user_id=alice&page_size=100", nil, &page)
	if len(page.Results) < 4 {
		t.Fatalf("list=%d memories, want at least 2 facts and 3 episodes", len(page.Results))
	}
	var got memory
	call(t, 200, "GET", base+"/v1/memories/"+factID+"?user_id=alice", nil, &got)
	if got.Type != "fact" || !strings.Contains(got.Memory, "Paris") {
		t.Fatalf("get=%+v", got)
	}
	call(t, 200, "PUT", base+"/v1/memories/"+factID, map[string]any{"user_id": "alice", "text": "Alice lives in Paris, in the 11th arrondissement"}, &got)
	if got.Memory != "Alice lives in Paris, in the 11th arrondissement" {
		t.Fatalf("update=%+v", got)
	}
	var hist struct {
		Results []struct {
			Event, Actor string
		} `json:"results"`
	}
	call(t, 200, "GET", base+"/v1/memories/"+factID+"/history?user_id=alice", nil, &hist)
	if n := len(hist.Results); n < 2 || hist.Results[n-1].Event != "UPDATE" || hist.Results[n-1].Actor != "api" {
		t.Fatalf("history=%+v, want ADD ... UPDATE by api", hist.Results)
	}

	// 5. Inspect the graph.
	var graph struct {
		Entities []struct{ Name string }              `json:"entities"`
		Edges    []struct{ Predicate, Object string } `json:"edges"`
	}
	call(t, 200, "GET", base+"/v1/users/alice/graph", nil, &graph)
	if len(graph.Entities) == 0 || len(graph.Edges) == 0 {
		t.Fatalf("graph=%+v, want entities and edges", graph)
	}
	// Export the user: a whole export, read back by package export.
	resp, err := http.Get(base + "/v1/users/alice/export")
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	dump, err := export.Read(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || len(dump.Facts) == 0 {
		t.Fatalf("export: status %d, %v, want a whole export with facts", resp.StatusCode, err)
	}

	// 6. Delete one memory.
	call(t, 200, "DELETE", base+"/v1/memories/"+factID+"?user_id=alice", nil, nil)
	call(t, 404, "GET", base+"/v1/memories/"+factID+"?user_id=alice", nil, nil)

	// 7. Restart on the same data directory: what was acknowledged stays.
	stop()
	base, _ = startServe(t, dir, nil)
	call(t, 200, "GET", base+"/v1/memories?user_id=alice&page_size=100", nil, &page)
	if len(page.Results) < 3 {
		t.Fatalf("after restart list=%d memories, want at least 3", len(page.Results))
	}
	call(t, 200, "POST", base+"/v1/memories/search", map[string]any{"query": "Emma Rome", "user_id": "alice"}, &found)
	if len(found.Results) == 0 {
		t.Fatalf("after restart search Emma Rome found nothing")
	}

	// 8. Erase the user.
	var erased struct {
		Deleted struct{ Episodes, Facts int } `json:"deleted"`
	}
	call(t, 200, "DELETE", base+"/v1/memories?user_id=alice", nil, &erased)
	if erased.Deleted.Episodes != 3 || erased.Deleted.Facts == 0 {
		t.Errorf("erase deleted %+v, want 3 episodes and some facts", erased.Deleted)
	}
	call(t, 200, "GET", base+"/v1/memories?user_id=alice", nil, &page)
	if len(page.Results) != 0 {
		t.Errorf("after erase list=%+v, want empty", page.Results)
	}
	call(t, 400, "GET", base+"/v1/memories", nil, nil)
	call(t, 404, "GET", base+"/nowhere", nil, nil)
}

func TestRunUsageAndVersion(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr error
		stdout  string
		stderr  string
	}{
		{"no command", nil, errUsage, "", "Usage: lore"},
		{"unknown command", []string{"frobnicate"}, errUsage, "", `unknown command "frobnicate"`},
		{"version", []string{"version"}, nil, "lore dev", ""},
		{"help", []string{"help"}, nil, "Commands:", ""},
		{"bad flag", []string{"serve", "--nope"}, errUsage, "", "flag provided but not defined"},
		{"serve extra argument", []string{"serve", "extra"}, errUsage, "", `unexpected argument "extra"`},
		{"import without file", []string{"import"}, errUsage, "", "Usage: lore import"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			m := &Main{Args: tt.args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
			err := m.Run(context.Background())
			m.Close()
			if err != tt.wantErr {
				t.Fatalf("err=%v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(out.String(), tt.stdout) {
				t.Errorf("stdout=%q, want it to contain %q", out.String(), tt.stdout)
			}
			if !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("stderr=%q, want it to contain %q", errb.String(), tt.stderr)
			}
		})
	}
}

// run runs one CLI command in-process and returns its stdout.
func run(t *testing.T, env map[string]string, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }}
	err := m.Run(context.Background())
	if cerr := m.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close: %w", cerr)
	}
	return out.String(), err
}

// TestServeFinishesInFlightRequestOnStop: a request whose body is still
// arriving when the stop signal comes is answered, new connections are
// refused, and serve exits cleanly.
func TestServeFinishesInFlightRequestOnStop(t *testing.T) {
	base, stop := startServe(t, t.TempDir(), nil)
	body := `{"user_id": "alice", "sync": true, "messages": [{"role": "user", "content": "I live in Oslo."}]}`
	half := len(body) / 2
	// A raw connection, so the headers and half the body are surely on
	// the wire (an http.Client may buffer a streamed body).
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/memories HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", strings.TrimPrefix(base, "http://"), len(body), body[:half])

	stopped := make(chan struct{})
	go func() {
		// Let the server read the headers before the stop signal.
		time.Sleep(100 * time.Millisecond)
		stop()
		close(stopped)
	}()
	time.Sleep(300 * time.Millisecond)
	select {
	case <-stopped:
		t.Fatalf("serve stopped while a request was in flight")
	default:
	}
	if resp, err := http.Get(base + "/healthz"); err == nil {
		resp.Body.Close()
		t.Errorf("a new request was served after the stop signal")
	}
	if _, err := io.WriteString(conn, body[half:]); err != nil {
		t.Fatalf("write second half: %v", err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("in-flight request: status %d, want 200", resp.StatusCode)
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatalf("serve did not stop after the in-flight request")
	}
}
