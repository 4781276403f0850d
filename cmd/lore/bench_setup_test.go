package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// The episode keys ingestion writes and the neighbours retrieval walks must
// use one context window, whichever settings file sets it.
func TestApplyRetrievalSharesTheContextWindow(t *testing.T) {
	pipe := &retrieve.Pipeline{Config: retrieve.DefaultConfig()}
	svc := &ingest.Service{Config: ingest.DefaultConfig()}
	if err := applyRetrieval(pipe, svc, ""); err != nil {
		t.Fatal(err)
	}
	if pipe.Config.ContextWindow != lore.DefaultContextWindow || svc.Config.ContextWindow != lore.DefaultContextWindow {
		t.Fatalf("defaults: pipeline %v, ingest %v, want %v", pipe.Config.ContextWindow, svc.Config.ContextWindow, lore.DefaultContextWindow)
	}
	file := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(file, []byte(`{"context_window": 1800000000000}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := applyRetrieval(pipe, svc, file); err != nil {
		t.Fatal(err)
	}
	if pipe.Config.ContextWindow != 30*time.Minute || svc.Config.ContextWindow != 30*time.Minute {
		t.Fatalf("from a file: pipeline %v, ingest %v, want 30m", pipe.Config.ContextWindow, svc.Config.ContextWindow)
	}
}
