package main

import (
	"context"
	"flag"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retention"
	"github.com/lore-memory/lore/retrieve"
)

// TestWireProfile: serve's wiring gives the cohort priors the profile
// store's attributes (issue 14's cold start needs role, expertise and
// locale) and ingestion the tenant's query log retention; without an LLM
// no batch inferrer is set.
func TestWireProfile(t *testing.T) {
	ctx := context.Background()
	st, _ := sqlitetest.Open(t)
	alice := lore.Scope{TenantID: "acme", UserID: "alice"}
	if _, err := st.PutProfileEntry(ctx, alice, lore.ProfileEntry{Key: "occupation", Value: "nurse"}); err != nil {
		t.Fatal(err)
	}
	pipe := &retrieve.Pipeline{Graph: st, Feedback: st, Config: retrieve.DefaultConfig()}
	pipe.Config.Personal.ColdStart.Weight = 0.1
	if err := configurePipeline(pipe, "", "regex", backendConfig{}); err != nil {
		t.Fatal(err)
	}
	svc := &ingest.Service{Store: st}
	if err := wireProfile(svc, pipe, st, backendConfig{}); err != nil {
		t.Fatal(err)
	}
	if pipe.CrossUser == nil || pipe.CrossUser.Attributes == nil {
		t.Fatalf("CrossUser=%+v, want the profile store as its attribute source", pipe.CrossUser)
	}
	attrs, err := pipe.CrossUser.Attributes.UserAttributes(ctx, "acme")
	if err != nil || attrs["alice"]["role"] != "nurse" {
		t.Errorf("attributes=%v, %v; want alice's role nurse", attrs, err)
	}
	if err := retention.SetPolicy(ctx, st, "acme", lore.RetentionPolicy{QueryLogDays: 14}); err != nil {
		t.Fatal(err)
	}
	if days, err := svc.QueryLogDays(ctx, "acme"); err != nil || days != 14 {
		t.Errorf("QueryLogDays=%d, %v; want the policy's 14", days, err)
	}
	if days, err := svc.QueryLogDays(ctx, "other"); err != nil || days != 0 {
		t.Errorf("QueryLogDays(no policy)=%d, %v; want 0", days, err)
	}
	if svc.ProfileInferrer != nil {
		t.Errorf("ProfileInferrer set without an LLM")
	}
}

// TestProfileEvidenceFlags: --profile-evidence switches the evidence boost
// on with its weight; a weight outside [0, 1] is refused.
func TestProfileEvidenceFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		on   bool
		ok   bool
	}{
		{nil, false, true},
		{[]string{"--profile-evidence"}, true, true},
		{[]string{"--profile-evidence", "--profile-evidence-weight", "0.5"}, true, true},
		{[]string{"--profile-evidence", "--profile-evidence-weight", "2"}, true, false},
	} {
		var p profileFlags
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		p.register(fs, &env{get: func(string) string { return "" }})
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		pipe := &retrieve.Pipeline{Config: retrieve.DefaultConfig()}
		err := p.apply(pipe, backendConfig{})
		if (err == nil) != c.ok {
			t.Errorf("%v: apply err=%v, want ok=%v", c.args, err, c.ok)
			continue
		}
		if err == nil && pipe.Config.Profile.Evidence != c.on {
			t.Errorf("%v: evidence=%v, want %v", c.args, pipe.Config.Profile.Evidence, c.on)
		}
	}
}
