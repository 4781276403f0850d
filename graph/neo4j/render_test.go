package neo4j

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

func TestScopePredicate(t *testing.T) {
	cases := []struct {
		name    string
		scope   lore.Scope
		withRun bool
		want    string
	}{
		{"user", lore.Scope{TenantID: "t", UserID: "u"}, true, "f.tenant_id = $tenant_id AND f.user_id = $user_id"},
		{"agent only", lore.Scope{TenantID: "t", AgentID: "a"}, true, "f.tenant_id = $tenant_id AND f.user_id = '' AND f.agent_id = $agent_id"},
		{"user agent run", lore.Scope{TenantID: "t", UserID: "u", AgentID: "a", RunID: "r"}, true,
			"f.tenant_id = $tenant_id AND f.user_id = $user_id AND f.agent_id = $agent_id AND f.run_id = $run_id"},
		{"namespace drops run", lore.Scope{TenantID: "t", UserID: "u", RunID: "r"}, false,
			"f.tenant_id = $tenant_id AND f.user_id = $user_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := scopePredicate("f", scopeShape(c.scope), c.withRun); got != c.want {
				t.Errorf("scopePredicate=%q, want %q", got, c.want)
			}
		})
	}
}

// TestRenderEveryShape renders every statement for every combination of
// shape flags: none may fail, leave template syntax behind, or put a value
// (rather than a parameter) into the text.
func TestRenderEveryShape(t *testing.T) {
	s := &Store{}
	if err := s.parse(); err != nil {
		t.Fatalf("parse: %v", err)
	}
	fields := reflect.TypeOf(shape{}).NumField()
	for name := range s.stmts {
		for bits := 0; bits < 1<<fields; bits++ {
			var sh shape
			v := reflect.ValueOf(&sh).Elem()
			for i := range fields {
				v.Field(i).SetBool(bits&(1<<i) != 0)
			}
			q, err := s.render(name, sh)
			if err != nil {
				t.Fatalf("render %s %+v: %v", name, sh, err)
			}
			if strings.Contains(q, "{{") || strings.Contains(q, "<no value>") {
				t.Fatalf("render %s %+v left template text: %s", name, sh, q)
			}
		}
	}
}

// TestScopedStatementsFilterScope checks that every statement reading or
// changing scoped records renders the tenant predicate, so that no query
// can be answered across tenants.
func TestScopedStatementsFilterScope(t *testing.T) {
	s := &Store{}
	if err := s.parse(); err != nil {
		t.Fatalf("parse: %v", err)
	}
	sh := scopeShape(lore.Scope{TenantID: "t", UserID: "u"})
	for _, name := range []string{
		"FindEpisodes", "UpdateEpisode", "DeleteEpisode", "FindEntities", "FindFacts", "UpdateFact",
		"DeleteFact", "NeighborhoodOneHop", "NeighborhoodTwoHops", "History",
		"DeleteScopeEpisodes", "DeleteScopeEntities", "DeleteScopeFacts", "DeleteScopeJobs", "DeleteScopeHistory",
		"Speakers", "DeleteScopeSpeakers", "FactTwin", "UpdateFactTriple",
	} {
		q, err := s.render(name, sh)
		if err != nil {
			t.Fatalf("render %s: %v", name, err)
		}
		if !strings.Contains(q, ".tenant_id = $tenant_id AND ") || !strings.Contains(q, ".user_id = $user_id") {
			t.Errorf("%s does not filter on the scope:\n%s", name, q)
		}
	}
}

func TestDedupKey(t *testing.T) {
	ns := lore.Scope{TenantID: "t", UserID: "u"}
	base := dedupKey(ns, "s1", "lives_in", "literal:paris")
	cases := []struct {
		name string
		key  string
		same bool
	}{
		{"same statement", dedupKey(ns, "s1", "lives_in", "literal:paris"), true},
		{"other user", dedupKey(lore.Scope{TenantID: "t", UserID: "v"}, "s1", "lives_in", "literal:paris"), false},
		{"other agent", dedupKey(lore.Scope{TenantID: "t", UserID: "u", AgentID: "a"}, "s1", "lives_in", "literal:paris"), false},
		{"other predicate", dedupKey(ns, "s1", "works_in", "literal:paris"), false},
		{"other object", dedupKey(ns, "s1", "lives_in", "literal:rome"), false},
		{"parts shifted", dedupKey(lore.Scope{TenantID: "t", UserID: "us1"}, "", "lives_in", "literal:paris"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.key == base; got != c.same {
				t.Errorf("key equal to base=%v, want %v", got, c.same)
			}
		})
	}
}
