package retrieve_test

import (
	"slices"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// denyIDs is a policy that denies the memories it names.
type denyIDs map[string]bool

func (d denyIDs) Allow(rec retrieve.PolicyRecord, _ retrieve.Caller) bool { return !d[rec.ID] }
func (d denyIDs) Reweight(retrieve.PolicyRecord, retrieve.Caller) float64 { return 1 }

// TestPolicyDeniedNeverThroughGraph: a fact that only the graph walk
// reaches, denied, never appears, under any ablation, and its source turn
// is never shown as anyone's source.
func TestPolicyDeniedNeverThroughGraph(t *testing.T) {
	s := seed(t, hashEmbedder{Dim: 64})
	p := s.w.pipeline()
	req := retrieve.Request{Scope: s.alice, Query: "Tell me about Caroline", TopK: 30}
	p.Config.Signals = retrieve.Signals{BM25: true, Graph: true}
	if got := resultIDs(search(t, p, req).Results); !slices.Contains(got, s.sisterJob.ID) || !slices.Contains(got, s.lives.ID) {
		t.Fatalf("without policy: %v, want %q and %q (the walk reaches them)", memories(search(t, p, req).Results), s.sisterJob.Text, s.lives.Text)
	}
	p.Policies = []retrieve.Policy{denyIDs{s.sisterJob.ID: true, s.epMove.ID: true}}
	for _, a := range retrieve.Ablations() {
		p.Config.Signals = a.Signals
		for _, kinds := range [][]lore.DocKind{nil, {lore.KindFact}} {
			req.Kinds = kinds
			for _, r := range search(t, p, req).Results {
				if r.ID == s.sisterJob.ID || r.ID == s.epMove.ID {
					t.Fatalf("%s: denied memory %q in the results", a.Name, r.Memory)
				}
				for _, src := range r.Sources {
					if src.EpisodeID == s.epMove.ID {
						t.Fatalf("%s: denied turn shown as a source of %q", a.Name, r.Memory)
					}
				}
			}
		}
	}
}

func TestRoleScopePolicy(t *testing.T) {
	w := newWorld(t, nil)
	sc := lore.Scope{TenantID: "t1", UserID: "alice"}
	hr := w.episode(sc, 1, "Alice", "Salary review notes for the robotics team.", map[string]any{"roles": []any{"hr", "admin"}})
	pub := w.episode(sc, 2, "Alice", "Robotics team offsite notes.", nil)
	odd := w.episode(sc, 3, "Alice", "Robotics budget notes.", map[string]any{"roles": 7})
	p := w.pipeline()
	p.Config.Policy = retrieve.PolicyConfig{RoleKey: "roles", RoleWeights: map[string]float64{"hr": 2}}
	req := retrieve.Request{Scope: sc, Query: "robotics notes", Explain: true}
	for _, c := range []struct {
		role string
		want []string
	}{
		{"", []string{pub.ID}},
		{"engineer", []string{pub.ID}},
		{"hr", []string{hr.ID, pub.ID}},
		{"admin", []string{hr.ID, pub.ID}},
	} {
		req.Role = c.role
		resp := search(t, p, req)
		got := resultIDs(resp.Results)
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("role %q: %v, want %v (the odd-typed roles memory %s never)", c.role, memories(resp.Results), c.want, odd.ID)
		}
		if c.role == "hr" && (resp.Results[0].ID != hr.ID || resp.Results[0].ScoreDetails[retrieve.SignalPolicy] != 2) {
			t.Errorf("role hr: first %q with details %v, want the hr memory reweighted ×2", resp.Results[0].Memory, resp.Results[0].ScoreDetails)
		}
	}
}

func TestTenantIsolationPolicy(t *testing.T) {
	ti := retrieve.TenantIsolation{}
	c := retrieve.Caller{TenantID: "a", UserID: "u"}
	if !ti.Allow(retrieve.PolicyRecord{Scope: lore.Scope{TenantID: "a", UserID: "u"}}, c) || ti.Allow(retrieve.PolicyRecord{Scope: lore.Scope{TenantID: "b", UserID: "u"}}, c) {
		t.Fatal("TenantIsolation must allow the caller's tenant only")
	}
}
