package main

import (
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

func TestProfileCommands(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"LORE_DATA_DIR": dir, "LORE_EMBEDDER": "none"}
	if _, err := run(t, env, "", "profile", "set", "--user", "alice", "diet=vegan", "allergy=peanuts"); err != nil {
		t.Fatalf("profile set: %v", err)
	}
	if _, err := run(t, env, "", "profile", "set", "--user", "alice", "diet=vegetarian"); err != nil {
		t.Fatalf("profile set again: %v", err)
	}
	out, err := run(t, env, "", "profile", "get", "--user", "alice", "--history")
	if err != nil {
		t.Fatalf("profile get: %v", err)
	}
	for _, want := range []string{"diet     vegetarian", "allergy  peanuts", "diet     vegan"} {
		if !strings.Contains(out, want) {
			t.Errorf("profile get --history:\n%s\nwant a line with %q", out, want)
		}
	}
	if _, err := run(t, env, "", "profile", "delete", "--user", "alice", "allergy"); err != nil {
		t.Fatalf("profile delete: %v", err)
	}
	_, err = run(t, env, "", "profile", "delete", "--user", "alice", "allergy")
	if lore.ErrorCode(err) != lore.ENOTFOUND {
		t.Errorf("second delete: %v, want not found", err)
	}
	for _, args := range [][]string{
		{"profile", "set", "--user", "alice", "diet"},
		{"profile", "set", "diet=vegan"},
		{"profile", "inference", "maybe"},
		{"profile", "set", "--user", "alice", "diet=" + strings.Repeat("x", 300)},
	} {
		if _, err := run(t, env, "", args...); lore.ErrorCode(err) != lore.EINVALID {
			t.Errorf("%v: %v, want invalid", args, err)
		}
	}
	if _, err := run(t, env, "", "profile", "inference", "off"); err != nil {
		t.Fatalf("profile inference off: %v", err)
	}
	// infer queues a profile_batch job for the user, by id.
	out, err = run(t, env, "", "profile", "infer", "--user", "alice")
	if err != nil || len(strings.TrimSpace(out)) != 36 {
		t.Fatalf("profile infer: %q, %v; want a job id", out, err)
	}
	if _, err := run(t, env, "", "profile", "infer"); lore.ErrorCode(err) != lore.EINVALID {
		t.Errorf("profile infer without --user: %v, want invalid", err)
	}
}
