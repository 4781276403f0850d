package main

import (
	"context"
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
