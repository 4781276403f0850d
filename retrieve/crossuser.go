package retrieve

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/lore-memory/lore"
)

// The cross-user signals of issue 14, learnt from other users' verdicts on
// memories of the same feature (lore.MemoryFeature: a fact's predicate, an
// episode's role), since memories themselves are per user:
//
//   - cohort priors (ColdStart): a user with little history of their own
//     gets the helpful share of the users who share their profile
//     attributes, fading as their own verdicts accumulate;
//   - the collaborative boost (Collaborative): every user's verdicts, each
//     user's contribution capped and Laplace noise added (ε-differential
//     privacy), gated by the tenant's size.
//
// Both are off by default and need Pipeline.CrossUser.
const (
	SignalCohort        = "cohort"
	SignalCollaborative = "collaborative"
)

// ColdStart configures the cohort priors.
type ColdStart struct {
	// Weight is w_cohort; 0 is off.
	Weight float64 `json:"w_cohort"`
	// Keys are the profile attributes that make a cohort (e.g. role,
	// expertise, locale): users agreeing on all of them share priors.
	Keys []string `json:"keys,omitempty"`
	// FadeVerdicts is n₀ of the fading schedule: the prior's weight is
	// n₀ / (n₀ + n), n the user's own verdicts; 0 means 10 (weight 1 with
	// no history, ½ after 10 verdicts, ¼ after 30, 0.1 after 90).
	FadeVerdicts float64 `json:"fade_verdicts"`
	// MinCohort is the fewest other users a cohort needs to give priors.
	MinCohort int `json:"min_cohort"`
}

// Collaborative configures the collaborative boost.
type Collaborative struct {
	// Weight is w_collaborative; 0 is off.
	Weight float64 `json:"w_collaborative"`
	// Epsilon is the privacy budget of one release of the feature table,
	// 1–5 (smaller: more noise).
	Epsilon float64 `json:"epsilon"`
	// MinUsers and MinInteractions gate the boost: below either, in the
	// tenant, it does not run.
	MinUsers        int `json:"min_users"`
	MinInteractions int `json:"min_interactions"`
}

// DefaultColdStart and DefaultCollaborative are off with the issue's
// parameters.
func DefaultColdStart() ColdStart { return ColdStart{FadeVerdicts: 10, MinCohort: 3} }

// DefaultCollaborative is off, ε 2, gated at 1,000 users and 100,000
// interactions.
func DefaultCollaborative() Collaborative {
	return Collaborative{Epsilon: 2, MinUsers: 1000, MinInteractions: 100000}
}

// Validate reports EINVALID for an ε outside 1–5 or negative gates.
func (c Collaborative) Validate() error {
	if c.Weight > 0 && (c.Epsilon < 1 || c.Epsilon > 5) {
		return lore.Errorf(lore.EINVALID, "collaborative epsilon must be between 1 and 5, got %v", c.Epsilon)
	}
	if c.MinUsers < 0 || c.MinInteractions < 0 {
		return lore.Errorf(lore.EINVALID, "collaborative thresholds must not be negative")
	}
	return nil
}

// AttributeSource gives the profile attributes of a tenant's users, by
// user id, as the operator configures them (a profile store, a directory).
type AttributeSource interface {
	UserAttributes(ctx context.Context, tenantID string) (map[string]map[string]string, error)
}

// CrossUser builds and caches, per tenant, the tables the cross-user
// signals read. One collaborative release is kept for TTL, so its noise is
// drawn once per window, not per query (averaging many queries would
// otherwise wash it out).
type CrossUser struct {
	Store      lore.FeedbackStore
	Attributes AttributeSource // nil: no cohorts
	TTL        time.Duration   // 0: 10 minutes
	// Rand draws the Laplace noise; nil: seeded from crypto/rand.
	Rand *rand.Rand

	mu    sync.Mutex
	cache map[string]*crossTables
}

type crossTables struct {
	built  time.Time
	stats  []lore.FeatureVerdict
	attrs  map[string]map[string]string
	collab map[string]float64 // feature → boost in 0..1; nil when gated off
	params Collaborative
}

func (x *CrossUser) rnd() *rand.Rand {
	if x.Rand == nil {
		var seed [16]byte
		_, _ = crand.Read(seed[:])
		x.Rand = rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])))
	}
	return x.Rand
}

// tables returns the tenant's tables, rebuilding them after TTL.
func (x *CrossUser) tables(ctx context.Context, tenant string, cfg Collaborative, now time.Time) (*crossTables, error) {
	ttl := x.TTL
	if ttl <= 0 {
		ttl = 10 * time.Minute
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if t, ok := x.cache[tenant]; ok && now.Sub(t.built) < ttl && t.params == cfg {
		return t, nil
	}
	stats, err := x.Store.FeatureVerdicts(ctx, tenant)
	if err != nil {
		return nil, fmt.Errorf("retrieve: feature verdicts: %w", err)
	}
	t := &crossTables{built: now, stats: stats, params: cfg}
	if x.Attributes != nil {
		if t.attrs, err = x.Attributes.UserAttributes(ctx, tenant); err != nil {
			return nil, fmt.Errorf("retrieve: user attributes: %w", err)
		}
	}
	if cfg.Weight > 0 {
		t.collab = collaborativeTable(stats, cfg, x.rnd())
	}
	if x.cache == nil {
		x.cache = map[string]*crossTables{}
	}
	x.cache[tenant] = t
	return t, nil
}

// laplace draws from Laplace(0, b).
func laplace(r *rand.Rand, b float64) float64 {
	u := r.Float64() - 0.5
	return -b * math.Copysign(1, u) * math.Log(1-2*math.Abs(u))
}

// userContributions gives each user's bounded contribution per feature:
// the sign of their net verdicts on it, divided by the number of features
// they judged, so that one user's whole vector has L1 norm at most 1 (the
// sensitivity of the released net counts).
func userContributions(stats []lore.FeatureVerdict) map[string]map[string]float64 {
	byUser := map[string]map[string]float64{}
	for _, s := range stats {
		if byUser[s.UserID] == nil {
			byUser[s.UserID] = map[string]float64{}
		}
		byUser[s.UserID][s.Feature] += float64(s.Helpful - s.Unhelpful)
	}
	for _, fs := range byUser {
		n := float64(len(fs))
		for f, net := range fs {
			fs[f] = float64(sign(net)) / n
		}
	}
	return byUser
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// noisyNet is the released table: per feature, the sum of the users'
// contributions plus Laplace(1/ε) noise. Features no one judged are not
// released (their existence is public: predicates are a fixed vocabulary).
func noisyNet(stats []lore.FeatureVerdict, eps float64, r *rand.Rand) map[string]float64 {
	out := map[string]float64{}
	for _, fs := range userContributions(stats) {
		for f, v := range fs {
			out[f] += v
		}
	}
	for f := range out {
		out[f] += laplace(r, 1/eps)
	}
	return out
}

// collaborativeTable gates, releases and scales the boost: each feature's
// noisy net over the largest, clipped to 0..1; nil below the gates.
func collaborativeTable(stats []lore.FeatureVerdict, cfg Collaborative, r *rand.Rand) map[string]float64 {
	users, interactions := map[string]bool{}, 0
	for _, s := range stats {
		users[s.UserID] = true
		interactions += s.Helpful + s.Unhelpful
	}
	if len(users) < cfg.MinUsers || interactions < cfg.MinInteractions {
		return nil
	}
	net := noisyNet(stats, cfg.Epsilon, r)
	top := 0.0
	for _, v := range net {
		top = max(top, v)
	}
	out := map[string]float64{}
	if top <= 0 {
		return out
	}
	for f, v := range net {
		if v > 0 {
			out[f] = min(v/top, 1)
		}
	}
	return out
}

// cohortPriors returns, for the user, the helpful share per feature of the
// other users of their cohort (Laplace-smoothed), and the user's own
// verdict count; nil when the user has no cohort of MinCohort others.
func cohortPriors(t *crossTables, user string, cfg ColdStart) (map[string]float64, int) {
	own := 0
	for _, s := range t.stats {
		if s.UserID == user {
			own += s.Helpful + s.Unhelpful
		}
	}
	if len(cfg.Keys) == 0 || t.attrs == nil {
		return nil, own
	}
	mine, ok := t.attrs[user]
	if !ok {
		return nil, own
	}
	same := func(u string) bool {
		a := t.attrs[u]
		for _, k := range cfg.Keys {
			if v, ok := mine[k]; !ok || v == "" || a[k] != v {
				return false
			}
		}
		return true
	}
	members := map[string]bool{}
	help, all := map[string]float64{}, map[string]float64{}
	for _, s := range t.stats {
		if s.UserID == user || !same(s.UserID) {
			continue
		}
		members[s.UserID] = true
		help[s.Feature] += float64(s.Helpful)
		all[s.Feature] += float64(s.Helpful + s.Unhelpful)
	}
	if len(members) < max(cfg.MinCohort, 1) {
		return nil, own
	}
	out := map[string]float64{}
	for f, n := range all {
		out[f] = (help[f] + 1) / (n + 2)
	}
	return out, own
}

// fade is the cohort prior's weight after n of the user's own verdicts.
func fade(n int, n0 float64) float64 {
	if n0 <= 0 {
		n0 = 10
	}
	return n0 / (n0 + float64(n))
}

// crossUserSignals returns the cohort and collaborative score terms for
// the candidates, by their features.
func (p *Pipeline) crossUserSignals(ctx context.Context, req Request, c *candidateSet, personalMult float64, now time.Time) ([]signal, error) {
	cs, cb := p.Config.Personal.ColdStart, p.Config.Personal.Collaborative
	if p.CrossUser == nil || (cs.Weight <= 0 && cb.Weight <= 0) || personalMult == 0 {
		return nil, nil
	}
	if err := cb.Validate(); err != nil {
		return nil, err
	}
	t, err := p.CrossUser.tables(ctx, req.Scope.TenantID, cb, now)
	if err != nil {
		return nil, err
	}
	feature := func(id string) string {
		return lore.MemoryFeature(c.facts[id], c.episodes[id])
	}
	var out []signal
	if cs.Weight > 0 {
		if priors, own := cohortPriors(t, req.Scope.UserID, cs); priors != nil {
			w := cs.Weight * fade(own, cs.FadeVerdicts) * personalMult
			s := signal{Name: SignalCohort, Weight: w, Scores: map[string]float64{}, Absolute: true}
			for id := range c.kind {
				if v := priors[feature(id)]; v > 0 {
					s.Scores[id] = v
				}
			}
			out = append(out, s)
		}
	}
	if cb.Weight > 0 && t.collab != nil {
		s := signal{Name: SignalCollaborative, Weight: cb.Weight * personalMult, Scores: map[string]float64{}, Absolute: true}
		for id := range c.kind {
			if v := t.collab[feature(id)]; v > 0 {
				s.Scores[id] = v
			}
		}
		out = append(out, s)
	}
	return out, nil
}
