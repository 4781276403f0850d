package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// testEnv is a Server over a real sqlite store in a temp directory, with
// the rules extractor and no embedder.
type testEnv struct {
	t     testing.TB
	store *sqlite.Store
	svc   *ingest.Service
	srv   *Server
	logs  *bytes.Buffer
}

// newEnv opens the store and builds the server; opts adjust the server
// before use.
func newEnv(t testing.TB, opts ...func(*Server)) *testEnv {
	t.Helper()
	store, idx := sqlitetest.Open(t)
	logs := &bytes.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := ingest.DefaultConfig()
	cfg.PollInterval = 10 * time.Millisecond
	cfg.BackoffBase = 10 * time.Millisecond
	svc := &ingest.Service{Store: store, Index: idx, Extractor: rules.New(), Config: cfg, Logger: log}
	srv := &Server{
		Store: store, Index: idx, Ingest: svc,
		Search: &retrieve.Pipeline{Graph: store, Index: idx, Config: retrieve.DefaultConfig(), Feedback: store},
		Logger: log, Version: "test",
	}
	for _, o := range opts {
		o(srv)
	}
	return &testEnv{t: t, store: store, svc: svc, srv: srv, logs: logs}
}

// runWorkers runs the ingest workers until the test ends.
func (e *testEnv) runWorkers() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := e.svc.RunWorkers(ctx); err != nil {
			e.t.Errorf("RunWorkers: %v", err)
		}
	}()
	e.t.Cleanup(func() {
		cancel()
		<-done
	})
}

// do sends a request: body is sent as is when it is a string, as JSON
// otherwise, and not at all when nil. header holds name, value pairs.
func (e *testEnv) do(method, path string, body any, header ...string) *httptest.ResponseRecorder {
	e.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatalf("marshal body: %v", err)
		}
		r = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, r)
	if r != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
		if header[i] == "Host" {
			req.Host = header[i+1]
		}
	}
	rec := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(rec, req)
	return rec
}

// must sends a request and fails unless it answers want.
func (e *testEnv) must(want int, method, path string, body any, header ...string) *httptest.ResponseRecorder {
	e.t.Helper()
	rec := e.do(method, path, body, header...)
	if rec.Code != want {
		e.t.Fatalf("%s %s: status=%d, want %d; body %s", method, path, rec.Code, want, rec.Body)
	}
	return rec
}

// decode reads a JSON answer into a T.
func decode[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %T from %s: %v", v, rec.Body, err)
	}
	return v
}

// wantError checks an error answer's status, code and that its message
// holds substr.
func wantError(t testing.TB, rec *httptest.ResponseRecorder, status int, code, substr string) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status=%d, want %d; body %s", rec.Code, status, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type=%q, want application/json", ct)
	}
	body := decode[ErrorBody](t, rec)
	if body.Error.Code != code {
		t.Errorf("error.code=%q, want %q (message %q)", body.Error.Code, code, body.Error.Message)
	}
	if !strings.Contains(body.Error.Message, substr) {
		t.Errorf("error.message=%q, want it to contain %q", body.Error.Message, substr)
	}
}

// addSync adds one user message for user and returns the answer.
func (e *testEnv) addSync(user, text string) addDone {
	e.t.Helper()
	rec := e.must(http.StatusOK, "POST", "/v1/memories", map[string]any{
		"user_id": user, "sync": true,
		"messages": []map[string]any{{"role": "user", "content": text, "created_at": "2024-05-01T10:00:00Z", "source_id": "D1:1"}},
	})
	return decode[addDone](e.t, rec)
}

// factEvent returns the first fact event whose memory holds substr.
func factEvent(t testing.TB, events []lore.MemoryEvent, substr string) lore.MemoryEvent {
	t.Helper()
	for _, ev := range events {
		if ev.Type == lore.KindFact && strings.Contains(ev.Memory, substr) {
			return ev
		}
	}
	t.Fatalf("no fact event holding %q in %+v", substr, events)
	return lore.MemoryEvent{}
}
