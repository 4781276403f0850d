package scale_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench/scale"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/retrieve"
	"github.com/lore-memory/lore/storetest"
)

func TestGenerate(t *testing.T) {
	tests := []struct {
		name string
		spec scale.Spec
		user int
	}{
		{"tiny", scale.Spec{Users: 1, FactsPerUser: 5, Seed: 1}, 0},
		{"one of many users", scale.Spec{Users: 1000, FactsPerUser: 100, Seed: 1}, 999},
		{"large user", scale.Spec{Users: 1, FactsPerUser: 5000, Seed: 7}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := tt.spec.Generate(tt.user)
			if again := tt.spec.Generate(tt.user); !reflect.DeepEqual(u, again) {
				t.Fatal("two Generate calls differ, want the same user")
			}
			if u.ID != scale.UserID(tt.user) {
				t.Errorf("ID=%q, want %q", u.ID, scale.UserID(tt.user))
			}
			if got := len(u.Facts); got != tt.spec.FactsPerUser {
				t.Errorf("len(Facts)=%d, want %d", got, tt.spec.FactsPerUser)
			}
			if got, want := len(u.Episodes), (tt.spec.FactsPerUser+1)/2; got != want {
				t.Errorf("len(Episodes)=%d, want %d", got, want)
			}
			if got := len(u.Queries); got != scale.QueriesPerUser {
				t.Errorf("len(Queries)=%d, want %d", got, scale.QueriesPerUser)
			}
			names := map[string]bool{}
			for _, e := range u.Entities {
				if names[e.Name] {
					t.Errorf("entity %q generated twice", e.Name)
				}
				names[e.Name] = true
			}
			triples := map[[3]string]bool{}
			for _, f := range u.Facts {
				key := [3]string{u.Entities[f.Subject].Name, f.Predicate, u.Entities[f.Object].Name}
				if triples[key] {
					t.Errorf("triple %v generated twice, want distinct facts", key)
				}
				triples[key] = true
				if f.Subject == f.Object {
					t.Errorf("fact %q is about one entity twice", f.Text)
				}
				ep := u.Episodes[f.Episode].Content
				if obj := u.Entities[f.Object].Name; !strings.Contains(ep, obj) {
					t.Errorf("episode %q does not name %q, the object of its fact %q", ep, obj, f.Text)
				}
				if strings.Contains(ep, "user ") {
					t.Errorf("episode %q speaks of the user in the third person", ep)
				}
			}
			for _, q := range u.Queries {
				if strings.Contains(q, "user") {
					t.Errorf("query %q speaks of the user in the third person", q)
				}
			}
		})
	}
}

func TestGenerateDependsOnSeedAndUser(t *testing.T) {
	a := scale.Spec{Users: 2, FactsPerUser: 50, Seed: 1}
	b := a
	b.Seed = 2
	if reflect.DeepEqual(a.Generate(0).Facts, b.Generate(0).Facts) {
		t.Error("seeds 1 and 2 gave the same facts, want different data")
	}
	if reflect.DeepEqual(a.Generate(0).Facts, a.Generate(1).Facts) {
		t.Error("users 0 and 1 got the same facts, want different data")
	}
	if a.Key() == b.Key() {
		t.Errorf("Key()=%q for both seeds, want different keys", a.Key())
	}
}

func TestMessages(t *testing.T) {
	s := scale.Spec{Seed: 3}
	all := s.Messages(0, 30)
	if got := s.Messages(10, 5); !reflect.DeepEqual(got, all[10:15]) {
		t.Errorf("Messages(10, 5)=%q, want the same turns as within Messages(0, 30): %q", got, all[10:15])
	}
	distinct := map[string]bool{}
	for _, m := range all {
		distinct[m] = true
	}
	if len(distinct) < 20 {
		t.Errorf("%d distinct messages of 30, want at least 20", len(distinct))
	}
}

// TestLoaderOnEmbedded loads two small users into the embedded store and
// checks that each holds its facts and that the default pipeline answers
// the generated questions from the asking user's memory only.
func TestLoaderOnEmbedded(t *testing.T) {
	ctx := context.Background()
	st, idx := sqlitetest.Open(t)
	spec := scale.Spec{Users: 2, FactsPerUser: 40, Seed: 1}
	l := &scale.Loader{Store: st, Index: idx, Vector: storetest.HashVector, Tenant: scale.TenantFor(spec, "test"), Workers: 2}
	for i := range spec.Users {
		n, err := l.LoadUser(ctx, spec.Generate(i))
		if err != nil {
			t.Fatalf("LoadUser(%d): %v", i, err)
		}
		if n != spec.FactsPerUser {
			t.Errorf("LoadUser(%d)=%d facts, want %d", i, n, spec.FactsPerUser)
		}
	}
	p := &retrieve.Pipeline{Graph: st, Index: idx, Embedder: storetest.HashEmbedder{}, Config: retrieve.DefaultConfig()}
	for i := range spec.Users {
		u := spec.Generate(i)
		sc := lore.Scope{TenantID: l.Tenant, UserID: u.ID}
		facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
		if err != nil {
			t.Fatalf("FindFacts: %v", err)
		}
		if len(facts) != spec.FactsPerUser {
			t.Errorf("user %d holds %d facts, want %d", i, len(facts), spec.FactsPerUser)
		}
		for _, q := range u.Queries[:5] {
			resp, err := p.Search(ctx, retrieve.Request{Scope: sc, Query: q})
			if err != nil {
				t.Fatalf("Search(%q): %v", q, err)
			}
			if len(resp.Results) == 0 {
				t.Errorf("Search(%q) found nothing, want the user's facts", q)
			}
			for _, r := range resp.Results {
				owner := r.Episode
				if r.Fact != nil && r.Fact.Scope.UserID != u.ID || owner != nil && owner.Scope.UserID != u.ID {
					t.Errorf("Search(%q) for %s returned %q of another user", q, u.ID, r.Memory)
				}
			}
		}
	}
}
