package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-memory/lore/bench"
)

// TestBenchFacts runs `lore bench facts` on the small fixture without an
// embedder and reads back its Markdown, JSON report and misses.
func TestBenchFacts(t *testing.T) {
	dir := t.TempDir()
	outPath, missPath := filepath.Join(dir, "rep.json"), filepath.Join(dir, "misses.jsonl")
	out, err := run(t, nil, "", "bench", "facts", "--embedder", "none", "--data-dir", filepath.Join(dir, "data"),
		"--data", "../../fixtures/bench/facts_small.json", "--out", outPath, "--misses", missPath)
	if err != nil {
		t.Fatalf("bench facts: %v", err)
	}
	for _, want := range []string{"### facts: 2 users", "| kind | questions | pass@1 | pass@3 | no graph pass@1", "| **overall** | 7 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	raw, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.FactsReport
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatalf("report: %v", err)
	}
	if rep.Questions != 7 || rep.Extractor != "rules" || rep.NoGraph.Signals.Graph || rep.Default.ByKind["update"].Questions != 2 {
		t.Errorf("report=%+v, want 7 questions, rules, the no-graph ablation, 2 update questions", rep)
	}
	misses, err := os.ReadFile(missPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(misses), `"id":"maya-5"`) {
		t.Errorf("misses lack maya-5:\n%s", misses)
	}
}

func TestBenchUsageAndFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no mode", []string{"bench"}, "lore bench facts --data FILE"},
		{"facts without data", []string{"bench", "facts", "--embedder", "none"}, "--data is required"},
		{"facts bad file", []string{"bench", "facts", "--embedder", "none", "--data", "nowhere.json"}, "nowhere.json"},
		{"bad split", []string{"bench", "locomo", "--embedder", "none", "--data", "testdata/locomo_small.json", "--split", "train"}, "split must be tune, validate or all"},
		// A benchmark never quietly measures without the model it was asked for.
		{"no model", []string{"bench", "locomo", "--data", "testdata/locomo_small.json", "--data-dir", t.TempDir()}, "the embedding model is not installed"},
		{"bad ingest workers", []string{"bench", "locomo", "--embedder", "none", "--data", "testdata/locomo_small.json", "--ingest-workers", "-1"}, "--ingest-workers is -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errb strings.Builder
			m := &Main{Args: tc.args, Stdin: strings.NewReader(""), Stdout: &strings.Builder{}, Stderr: &errb}
			err := m.Run(t.Context())
			m.Close()
			if err == nil {
				t.Fatal("no error")
			}
			if got := message(err) + errb.String(); !strings.Contains(got, tc.want) {
				t.Errorf("error %q, stderr %q: want %q", message(err), errb.String(), tc.want)
			}
		})
	}
}

// TestBenchLoCoMoSplit: --split validate scores only the validation half,
// and the report says so.
func TestBenchLoCoMoSplit(t *testing.T) {
	dir := t.TempDir()
	outPath := filepath.Join(dir, "rep.json")
	if _, err := run(t, nil, "", "bench", "locomo", "--embedder", "none", "--ablations=false", "--data-dir", filepath.Join(dir, "data"),
		"--data", "testdata/locomo_small.json", "--split", "validate", "--out", outPath); err != nil {
		t.Fatalf("bench locomo: %v", err)
	}
	raw, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatalf("report: %v", err)
	}
	ds, err := bench.LoadLoCoMo("testdata/locomo_small.json")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(ds.Half(bench.SplitValidate).Spaces); rep.Split != bench.SplitValidate || rep.SplitSeed != bench.SplitSeed || rep.Spaces != want {
		t.Errorf("split=%q seed=%q spaces=%d, want validate, %q, %d", rep.Split, rep.SplitSeed, rep.Spaces, bench.SplitSeed, want)
	}
}
