package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/ingest"
)

func TestFlagsWinOverEnvironment(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		args     []string
		wantAddr string
		wantDir  string
		wantEmb  string
		wantErr  string
	}{
		{"defaults", nil, nil, "127.0.0.1:8420", "./lore-data", "", ""},
		{"env", map[string]string{"LORE_ADDR": "0.0.0.0:9000", "LORE_DATA_DIR": "/d", "LORE_EMBEDDER": "none"}, nil, "0.0.0.0:9000", "/d", "none", ""},
		{"flag wins", map[string]string{"LORE_ADDR": "0.0.0.0:9000", "LORE_EMBEDDER": "none"}, []string{"--addr", ":1", "--embedder", "openai"}, ":1", "./lore-data", "openai", ""},
		{"bad env int", map[string]string{"LORE_WORKERS": "many"}, nil, "", "", "", "LORE_WORKERS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &env{get: func(k string) string { return tt.env[k] }}
			var cfg serveConfig
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			cfg.register(fs, e)
			fs.StringVar(&cfg.Addr, "addr", e.str("LORE_ADDR", "127.0.0.1:8420"), "")
			fs.IntVar(&cfg.Workers, "workers", e.int("LORE_WORKERS", 4), "")
			err := parse(fs, tt.args, e)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err=%v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if cfg.Addr != tt.wantAddr || cfg.DataDir != tt.wantDir || cfg.Embedder != tt.wantEmb {
				t.Errorf("addr=%q dir=%q embedder=%q, want %q %q %q", cfg.Addr, cfg.DataDir, cfg.Embedder, tt.wantAddr, tt.wantDir, tt.wantEmb)
			}
		})
	}
}

// TestMissingModelFallsBackWithOneWarning: without the MiniLM files the
// embedder is none, with exactly one warning that says what to do.
func TestMissingModelFallsBackWithOneWarning(t *testing.T) {
	for _, choice := range []string{"minilm-q", "minilm"} {
		var logs bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logs, nil))
		emb, err := openEmbedder(backendConfig{Embedder: choice, DataDir: t.TempDir()}, log)
		if err != nil || emb != nil {
			t.Fatalf("%s: openEmbedder=%v, %v; want nil, nil", choice, emb, err)
		}
		if n := strings.Count(logs.String(), "level=WARN"); n != 1 {
			t.Fatalf("%s: %d warnings, want 1:\n%s", choice, n, logs.String())
		}
		if !strings.Contains(logs.String(), "make model") {
			t.Errorf("%s: warning %q does not say how to install the model", choice, logs.String())
		}
	}
}

// TestChooseEmbedder: an unset --embedder opens the built-in model the
// store was built with, so a store made before minilm-q became the default
// keeps float32 MiniLM; a new store, or one built with a remote model, gets
// the default; a set choice always stands.
func TestChooseEmbedder(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, choice, recorded, want string
	}{
		{"new store", "", "", "minilm-q"},
		{"float32 MiniLM store", "", "all-MiniLM-L6-v2", "minilm"},
		{"int8 MiniLM store", "", "all-MiniLM-L6-v2-q", "minilm-q"},
		{"bge store", "", "bge-small-en-v1.5-q", "bge"},
		{"e5-small-v2 store", "", "e5-small-v2-q", "e5v2"},
		{"multilingual e5 store", "", "multilingual-e5-small-q4", "e5"},
		{"remote model store", "", "text-embedding-3-small", "minilm-q"},
		{"set choice stands", "bge", "all-MiniLM-L6-v2", "bge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			if tt.recorded != "" {
				if err := store.SetMeta(ctx, "embedder", `{"name":"`+tt.recorded+`","dim":384}`); err != nil {
					t.Fatal(err)
				}
			}
			got, err := chooseEmbedder(ctx, tt.choice, store)
			if err != nil || got != tt.want {
				t.Fatalf("chooseEmbedder=%q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestBackendChoiceErrors(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tests := []struct {
		name string
		cfg  backendConfig
		want string
	}{
		{"unknown graph", backendConfig{Graph: "postgres", Index: "embedded", Embedder: "none", Extractor: "rules"}, "--graph"},
		{"unknown index", backendConfig{Graph: "sqlite", Index: "elastic", Embedder: "none", Extractor: "rules"}, "--index"},
		{"unknown embedder", backendConfig{Graph: "sqlite", Index: "embedded", Embedder: "bert", Extractor: "rules"}, "--embedder"},
		{"unknown extractor", backendConfig{Graph: "sqlite", Index: "embedded", Embedder: "none", Extractor: "magic"}, "--extractor"},
		{"llm without base URL", backendConfig{Graph: "sqlite", Index: "embedded", Embedder: "none", Extractor: "llm"}, "LORE_LLM_BASE_URL"},
		{"llm+rules without base URL", backendConfig{Graph: "sqlite", Index: "embedded", Embedder: "none", Extractor: "llm+rules"}, "LORE_LLM_BASE_URL"},
		{"negative ANN threshold", backendConfig{Graph: "sqlite", Index: "embedded", Embedder: "none", Extractor: "rules", ANNThreshold: -1}, "--ann-threshold"},
		{"bad single-valued predicate", backendConfig{Graph: "sqlite", Index: "embedded", Embedder: "none", Extractor: "rules", SingleValued: "shoe_size, !!!"}, "--single-valued-predicates"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.DataDir = t.TempDir()
			b, err := openBackends(t.Context(), tt.cfg, log)
			if err == nil {
				b.Close()
				t.Fatalf("openBackends succeeded, want an error naming %s", tt.want)
			}
			if lore.ErrorCode(err) != lore.EINVALID || !strings.Contains(lore.ErrorMessage(err), tt.want) {
				t.Errorf("err=%v, want EINVALID naming %s", err, tt.want)
			}
		})
	}
}

func TestAddAndSearchCommands(t *testing.T) {
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--embedder", "none"}
	out, err := run(t, nil, "", append(append([]string{"add"}, base...), "--user", "alice", "--sync", "I live in Paris.")...)
	if err != nil {
		t.Fatalf("add: %v", err)
	}
	if !strings.Contains(out, "stored episode") || !strings.Contains(out, "lives in Paris") {
		t.Errorf("add output=%q, want the episode and the Paris fact", out)
	}
	// Text from stdin, queued for the server, as JSON.
	out, err = run(t, nil, "I work at Google.\n", append(append([]string{"add"}, base...), "--user", "alice", "--json")...)
	if err != nil {
		t.Fatalf("add from stdin: %v", err)
	}
	var res struct {
		EpisodeIDs []string `json:"episode_ids"`
		JobID      string   `json:"job_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.EpisodeIDs) != 1 || res.JobID == "" {
		t.Errorf("add --json=%q (%v), want one episode and a job", out, err)
	}
	out, err = run(t, nil, "", append(append([]string{"search"}, base...), "--user", "alice", "--explain", "where", "does", "alice", "live")...)
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	if !strings.Contains(out, " 1. ") || !strings.Contains(out, "Paris") || !strings.Contains(out, "scores:") {
		t.Errorf("search output=%q, want a numbered Paris result with scores", out)
	}
	out, err = run(t, nil, "", append(append([]string{"search"}, base...), "--user", "bob", "Paris")...)
	if err != nil || !strings.Contains(out, "no memories found") {
		t.Errorf("bob's search=%q, %v; want no memories", out, err)
	}
	out, err = run(t, nil, "", append(append([]string{"search"}, base...), "--user", "alice", "--json", "Paris")...)
	var resp struct {
		Results []struct{ Memory string } `json:"results"`
	}
	if err != nil || json.Unmarshal([]byte(out), &resp) != nil || len(resp.Results) == 0 {
		t.Errorf("search --json=%q, %v; want results", out, err)
	}
	// --at moves "yesterday" in the query: to today (when the memories were
	// said) from tomorrow.
	temporal := func(at string) float64 {
		t.Helper()
		out, err := run(t, nil, "", append(append([]string{"search"}, base...), "--user", "alice", "--json", "--explain",
			"--at", at, "where", "did", "alice", "live", "yesterday")...)
		var resp struct {
			Results []struct {
				ScoreDetails map[string]float64 `json:"score_details"`
			} `json:"results"`
		}
		if err != nil || json.Unmarshal([]byte(out), &resp) != nil || len(resp.Results) == 0 {
			t.Fatalf("search --at %s=%q, %v; want results", at, out, err)
		}
		return resp.Results[0].ScoreDetails["temporal"]
	}
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	if got := temporal(tomorrow); got < 0.99 {
		t.Errorf("temporal score asked at %s=%v, want 1: yesterday is today", tomorrow, got)
	}
	// --at is an as-of read in world time: in 2000 nothing had been said yet.
	out, err = run(t, nil, "", append(append([]string{"search"}, base...), "--user", "alice", "--json",
		"--at", "2000-01-01", "where", "did", "alice", "live", "yesterday")...)
	resp.Results = nil
	if err != nil || json.Unmarshal([]byte(out), &resp) != nil || len(resp.Results) != 0 {
		t.Errorf("search --at 2000-01-01=%q, %v; want no results (nothing was said before 2000)", out, err)
	}
	out, err = run(t, nil, "", append(append([]string{"reindex"}, base...), "--user", "alice")...)
	if err != nil || !strings.Contains(out, "re-indexed") {
		t.Errorf("reindex=%q, %v", out, err)
	}
	out, err = run(t, nil, "", append([]string{"migrate"}, base...)...)
	if err != nil || !strings.Contains(out, "up to date") {
		t.Errorf("migrate=%q, %v", out, err)
	}
}

func TestCommandInputErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"add without user", []string{"add", "--data-dir", dir, "--embedder", "none", "hi"}, "--user or --agent"},
		{"add without text", []string{"add", "--data-dir", dir, "--embedder", "none", "--user", "a"}, "no text"},
		{"search without query", []string{"search", "--data-dir", dir, "--embedder", "none", "--user", "a"}, "no query"},
		{"search bad top-k", []string{"search", "--data-dir", dir, "--embedder", "none", "--user", "a", "--top-k", "0", "x"}, "--top-k"},
		{"search bad time", []string{"search", "--data-dir", dir, "--embedder", "none", "--user", "a", "--at", "yesterday", "x"}, "--at must be"},
		{"reindex without scope", []string{"reindex", "--data-dir", dir, "--embedder", "none"}, "--user or --agent"},
		{"import missing file", []string{"import", "--data-dir", dir, "--embedder", "none", "nope.jsonl"}, "nope.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, nil, "", tt.args...)
			if err == nil || !strings.Contains(message(err), tt.want) {
				t.Fatalf("err=%v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestNewLogger(t *testing.T) {
	tests := []struct {
		name, format, level string
		wantErr             string
		wantLine            string // what an info record looks like; "" when info is filtered
	}{
		{"text info", "text", "info", "", "level=INFO msg=hello"},
		{"json debug", "json", "debug", "", `"level":"INFO","msg":"hello"`},
		{"warn filters info", "text", "warn", "", ""},
		{"bad level", "text", "loud", "--log-level", ""},
		{"bad format", "xml", "info", "--log-format", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			l, err := newLogger(&buf, tt.format, tt.level)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(lore.ErrorMessage(err), tt.wantErr) {
					t.Fatalf("err=%v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("newLogger: %v", err)
			}
			l.Info("hello")
			if got := buf.String(); (tt.wantLine == "" && got != "") || !strings.Contains(got, tt.wantLine) {
				t.Errorf("logged %q, want %q", got, tt.wantLine)
			}
		})
	}
}

// TestSingleValuedPredicatesReachIngest: the operator's predicates, from
// the flag or LORE_SINGLE_VALUED_PREDICATES, are added to the table in the
// ingestion service's configuration.
func TestSingleValuedPredicatesReachIngest(t *testing.T) {
	e := &env{get: func(k string) string {
		if k == "LORE_SINGLE_VALUED_PREDICATES" {
			return "shoe_size, team_*"
		}
		return ""
	}}
	var cfg backendConfig
	fs := flag.NewFlagSet("add", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg.register(fs, e)
	if err := parse(fs, nil, e); err != nil {
		t.Fatal(err)
	}
	cfg.Graph, cfg.Index, cfg.Embedder, cfg.Extractor, cfg.DataDir = "sqlite", "embedded", "none", "rules", t.TempDir()
	b, err := openBackends(t.Context(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	svc := b.ingestService(ingest.DefaultConfig(), nil)
	set, err := lore.SingleValuedPredicates(svc.Config.SingleValuedPredicates...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"shoe_size", "team_name", "lives_in"} {
		if !set.Has(p) {
			t.Errorf("single-valued set lacks %q, want the table plus LORE_SINGLE_VALUED_PREDICATES", p)
		}
	}
}
