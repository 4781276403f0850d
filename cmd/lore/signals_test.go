package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore/retrieve"
)

func TestConfigurePipeline(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "r.json")
	if err := os.WriteFile(file, []byte(`{"personal": {"feedback": true, "w_success": 1, "min_sample_size": 3}, "mmr": {"on": true, "lambda": 0.3, "min_candidates": 10}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &retrieve.Pipeline{Config: retrieve.DefaultConfig()}
	if err := configurePipeline(p, file, "regex", backendConfig{}); err != nil {
		t.Fatal(err)
	}
	if !p.Config.Personal.Feedback || p.Config.Personal.Success != 1 || !p.Config.MMR.On || p.Intent == nil {
		t.Fatalf("config=%+v intent=%v, want feedback, success 1, MMR on and a classifier", p.Config.Personal, p.Intent)
	}
	for name, c := range map[string]struct{ file, intent string }{
		"unknown strategy":  {"", "magic"},
		"llm without model": {"", "llm"},
		"unknown key":       {writeFile(t, dir, `{"personal": {"w_nothing": 1}}`), "regex"},
		"bad rule":          {writeFile(t, dir, `{"personal": {"feedback_rule": {"helpful_step": -1}}}`), "regex"},
		"epsilon 9":         {writeFile(t, dir, `{"personal": {"collaborative": {"w_collaborative": 1, "epsilon": 9}}}`), "regex"},
	} {
		if err := configurePipeline(&retrieve.Pipeline{Config: retrieve.DefaultConfig()}, c.file, c.intent, backendConfig{}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func writeFile(t *testing.T, dir, body string) string {
	t.Helper()
	f, err := os.CreateTemp(dir, "*.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(body); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return f.Name()
}
