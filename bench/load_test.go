package bench

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestCheckLoopback(t *testing.T) {
	for server, ok := range map[string]bool{
		"http://127.0.0.1:8420": true, "http://localhost:1": true, "http://[::1]:8420": true,
		"http://10.0.0.5:8420": false, "https://example.com": false, "not a url": false,
	} {
		if err := CheckLoopback(server); (err == nil) != ok {
			t.Errorf("CheckLoopback(%q)=%v, want ok=%v", server, err, ok)
		}
	}
}

// TestLoadCountsAnswersAndErrors: every measured request is counted once,
// as an answer or an error, and the queries reach the server as sent.
func TestLoadCountsAnswersAndErrors(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := json.NewDecoder(r.Body).Decode(&map[string]any{}); err != nil || r.URL.Path != "/v1/memories/search" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if n.Add(1)%5 == 0 {
			http.Error(w, `{"error":{}}`, http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(`{"results":[]}`))
	}))
	defer srv.Close()
	l := Load{Server: srv.URL, Key: "k", Clients: 4, Duration: 300 * time.Millisecond, TopK: 10}
	rep, err := l.Run(context.Background(), []LoadQuery{{Tenant: "t", User: "u", Text: "where"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Requests == 0 || rep.Errors == 0 || rep.Errors > rep.Requests/3 || rep.Requests > int(n.Load()) {
		t.Errorf("report %+v after %d requests served, want answers and about one error in five", rep, n.Load())
	}
	if rep.P50Millis <= 0 || rep.P95Millis < rep.P50Millis || rep.PerSecond <= 0 {
		t.Errorf("report %+v: want positive, ordered latencies and a rate", rep)
	}
	if _, err := (Load{Server: "http://192.0.2.1:1", Clients: 1, Duration: time.Second}).Run(context.Background(), []LoadQuery{{}}); err == nil {
		t.Error("Run against a non-loopback server: nil error, want a refusal")
	}
}
