package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

func TestLogsCarryTheRequestID(t *testing.T) {
	var buf bytes.Buffer
	log, err := newLogger(&buf, "json", "info")
	if err != nil {
		t.Fatalf("newLogger: %v", err)
	}
	ctx := lore.WithRequestID(context.Background(), "trace-9")
	log.With("component", "ingest").InfoContext(ctx, "job settled")
	log.InfoContext(ctx, "http request", "request_id", "trace-9")
	log.Info("no context")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3: %s", len(lines), buf.String())
	}
	if !strings.Contains(lines[0], `"request_id":"trace-9"`) || !strings.Contains(lines[0], `"component":"ingest"`) {
		t.Errorf("line %s, want the context's request_id beside the logger's attributes", lines[0])
	}
	if strings.Count(lines[1], "request_id") != 1 {
		t.Errorf("line %s, want request_id once when the record names it", lines[1])
	}
	if strings.Contains(lines[2], "request_id") {
		t.Errorf("line %s, want no request_id without a context carrying one", lines[2])
	}
}
