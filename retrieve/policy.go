package retrieve

import (
	"slices"

	"github.com/lore-memory/lore"
)

// Caller is who asks a search: the scope's tenant, user and agent, and the
// role the authenticated key (or, without keys, the request) gives.
type Caller struct {
	TenantID string `json:"tenant_id"`
	UserID   string `json:"user_id,omitempty"`
	AgentID  string `json:"agent_id,omitempty"`
	Role     string `json:"role,omitempty"`
}

// PolicyRecord is the part of a memory a policy decides on.
type PolicyRecord struct {
	ID       string
	Kind     lore.DocKind
	Scope    lore.Scope
	Metadata map[string]any
}

// Policy decides which memories a caller may see (issue 14): Allow false
// removes a memory before ranking — from every signal, the graph walk and
// its neighbours included — and from the sources shown; Reweight multiplies
// an allowed memory's score (1: unchanged).
type Policy interface {
	Allow(rec PolicyRecord, c Caller) bool
	Reweight(rec PolicyRecord, c Caller) float64
}

// TenantIsolation allows a caller only its own tenant's memories. Scoped
// reads already guarantee it; as a policy it also holds for memories a
// custom stage might add.
type TenantIsolation struct{}

// Allow reports whether the memory is the caller's tenant's.
func (TenantIsolation) Allow(rec PolicyRecord, c Caller) bool {
	return rec.Scope.TenantID == c.TenantID
}

// Reweight is 1.
func (TenantIsolation) Reweight(PolicyRecord, Caller) float64 { return 1 }

// RoleScope limits a memory whose metadata lists roles under Key (a string
// or a list of strings) to callers with one of those roles; a memory
// without the key is visible to every role. Weights, by caller role,
// multiply the score of the memories scoped to that role (1 or absent:
// unchanged).
type RoleScope struct {
	Key     string             `json:"key"`
	Weights map[string]float64 `json:"weights,omitempty"`
}

// roles returns the roles a memory is limited to, and whether it is.
func (r RoleScope) roles(rec PolicyRecord) ([]string, bool) {
	v, ok := rec.Metadata[r.Key]
	if !ok {
		return nil, false
	}
	switch x := v.(type) {
	case string:
		return []string{x}, true
	case []string:
		return x, true
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out, true
	}
	// A value of another type limits the memory to no role: fail closed.
	return nil, true
}

// Allow reports whether the caller's role may see the memory.
func (r RoleScope) Allow(rec PolicyRecord, c Caller) bool {
	roles, limited := r.roles(rec)
	return !limited || (c.Role != "" && slices.Contains(roles, c.Role))
}

// Reweight applies the caller role's weight to memories scoped to it.
func (r RoleScope) Reweight(rec PolicyRecord, c Caller) float64 {
	if w, ok := r.Weights[c.Role]; ok && w > 0 {
		if roles, limited := r.roles(rec); limited && slices.Contains(roles, c.Role) {
			return w
		}
	}
	return 1
}

// PolicyConfig turns the built-in policies on from configuration: tenant
// isolation always applies once any policy does; RoleKey "" leaves the
// role scope off.
type PolicyConfig struct {
	RoleKey     string             `json:"role_key"`
	RoleWeights map[string]float64 `json:"role_weights,omitempty"`
}

// SignalPolicy names the policy reweight factor in Result.ScoreDetails.
const SignalPolicy = "policy"

// policies returns the policies in force: the configured built-ins, then
// Pipeline.Policies.
func (p *Pipeline) policies() []Policy {
	var out []Policy
	if p.Config.Policy.RoleKey != "" {
		out = append(out, TenantIsolation{}, RoleScope{Key: p.Config.Policy.RoleKey, Weights: p.Config.Policy.RoleWeights})
	}
	return append(out, p.Policies...)
}

func callerOf(req Request) Caller {
	return Caller{TenantID: req.Scope.TenantID, UserID: req.Scope.UserID, AgentID: req.Scope.AgentID, Role: req.Role}
}

func factRecord(f *lore.Fact) PolicyRecord {
	return PolicyRecord{ID: f.ID, Kind: lore.KindFact, Scope: f.Scope, Metadata: f.Metadata}
}

func episodeRecord(ep *lore.Episode) PolicyRecord {
	return PolicyRecord{ID: ep.ID, Kind: lore.KindEpisode, Scope: ep.Scope, Metadata: ep.Metadata}
}

// allowed reports whether every policy allows rec.
func allowed(ps []Policy, rec PolicyRecord, c Caller) bool {
	for _, p := range ps {
		if !p.Allow(rec, c) {
			return false
		}
	}
	return true
}

// policyFilter is the hard filter: after hydration, before fusion, it
// removes every denied candidate from the candidates and every signal, so
// nothing denied is ranked, lends its score to a neighbour, or seeds
// anything. A candidate that did not load is left to filter, which drops it.
func (p *Pipeline) policyFilter(req Request, c *candidateSet) {
	ps := p.policies()
	if len(ps) == 0 {
		return
	}
	caller := callerOf(req)
	for id, k := range c.kind {
		var rec PolicyRecord
		switch {
		case k == lore.KindFact && c.facts[id] != nil:
			rec = factRecord(c.facts[id])
		case k == lore.KindEpisode && c.episodes[id] != nil:
			rec = episodeRecord(c.episodes[id])
		default:
			continue
		}
		if allowed(ps, rec, caller) {
			continue
		}
		delete(c.kind, id)
		delete(c.facts, id)
		delete(c.episodes, id)
		for _, s := range c.signals {
			delete(s.Scores, id)
		}
	}
}

// policyReweight multiplies the fused scores by the policies' factors.
func (p *Pipeline) policyReweight(req Request, c *candidateSet, f fused) {
	ps := p.policies()
	if len(ps) == 0 {
		return
	}
	caller := callerOf(req)
	for id := range f.Scores {
		var rec PolicyRecord
		switch {
		case c.facts[id] != nil:
			rec = factRecord(c.facts[id])
		case c.episodes[id] != nil:
			rec = episodeRecord(c.episodes[id])
		default:
			continue
		}
		w := 1.0
		for _, pol := range ps {
			w *= pol.Reweight(rec, caller)
		}
		if w != 1 {
			f.Scores[id] *= w
			detail(f.Details, id)[SignalPolicy] = w
		}
	}
}

// policyResults drops denied results: candidates that joined after the
// hard filter, such as a strong hit's neighbouring turns.
func (p *Pipeline) policyResults(req Request, results []Result) []Result {
	ps := p.policies()
	if len(ps) == 0 {
		return results
	}
	caller := callerOf(req)
	out := results[:0]
	for _, r := range results {
		switch {
		case r.Fact != nil && !allowed(ps, factRecord(r.Fact), caller):
			continue
		case r.Episode != nil && !allowed(ps, episodeRecord(r.Episode), caller):
			continue
		}
		out = append(out, r)
	}
	return out
}

// sourcePolicy is the check attachSources applies to facts' source
// episodes, so that a denied turn is never shown as a source; nil with no
// policy. Episodes shown as results passed policyResults already.
func (p *Pipeline) sourcePolicy(req Request) func(*lore.Episode) bool {
	ps := p.policies()
	if len(ps) == 0 {
		return nil
	}
	caller := callerOf(req)
	return func(ep *lore.Episode) bool { return allowed(ps, episodeRecord(ep), caller) }
}
