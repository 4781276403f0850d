package lore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
	"unicode"
)

// Verdict is one user's judgement of one memory, as POST
// /v1/memories/{id}/feedback records it: a durable event, kept per user.
type Verdict struct {
	ID       string `json:"id"`
	Scope    Scope  `json:"scope"` // the caller's namespace (no run)
	MemoryID string `json:"memory_id"`
	Helpful  bool   `json:"helpful"`
	// QueryHash is QueryHash of the query the memory answered, "" when the
	// verdict named none. The query text itself is not kept.
	QueryHash string `json:"query_hash,omitempty"`
	// Delta is the change the verdict made to the memory's relevance
	// (smaller than the rule's step at a bound).
	Delta     float64   `json:"delta"`
	CreatedAt time.Time `json:"created_at"`
}

// FeedbackRule is how a verdict moves a memory's relevance, which starts at
// 1: by HelpfulStep up to 1+MaxBoost, by UnhelpfulStep (negative) down to
// 1+MaxPenalty. A verdict never moves relevance the other way, so a bound
// lowered later does not undo what was earned. Relevance does not decay.
type FeedbackRule struct {
	HelpfulStep   float64 `json:"helpful_step"`
	UnhelpfulStep float64 `json:"unhelpful_step"`
	MaxBoost      float64 `json:"max_boost"`
	MaxPenalty    float64 `json:"max_penalty"`
}

// DefaultFeedbackRule is issue 14's: +0.15 up to +0.60, −0.10 down to −0.90
// (relevance never below 0.1, so a memory is lowered, never hidden).
func DefaultFeedbackRule() FeedbackRule {
	return FeedbackRule{HelpfulStep: 0.15, UnhelpfulStep: -0.10, MaxBoost: 0.60, MaxPenalty: -0.90}
}

// Apply returns the adjustment (relevance − 1) after one verdict on a
// memory whose adjustment is old.
func (r FeedbackRule) Apply(old float64, helpful bool) float64 {
	if helpful {
		return max(old, min(old+r.HelpfulStep, r.MaxBoost))
	}
	return min(old, max(old+r.UnhelpfulStep, r.MaxPenalty))
}

// Validate reports EINVALID for a rule whose steps or bounds point the
// wrong way.
func (r FeedbackRule) Validate() error {
	if r.HelpfulStep < 0 || r.UnhelpfulStep > 0 || r.MaxBoost < 0 || r.MaxPenalty > 0 || r.MaxPenalty <= -1 {
		return Errorf(EINVALID, "feedback rule: want helpful_step ≥ 0, unhelpful_step ≤ 0, max_boost ≥ 0 and −1 < max_penalty ≤ 0")
	}
	return nil
}

// MemorySignal is what a user's behaviour says about one memory: the
// feedback adjustment of its relevance, the user's verdicts, how often it was
// returned and cited, and, for one query, its record of answers that worked.
type MemorySignal struct {
	MemoryID   string    `json:"memory_id"`
	Adjustment float64   `json:"adjustment"` // relevance − 1
	Helpful    int       `json:"helpful"`
	Unhelpful  int       `json:"unhelpful"`
	Returned   int       `json:"returned"`
	Cited      int       `json:"cited"`
	LastUsed   time.Time `json:"last_used"` // last returned or cited
	// SuccessHelpful and SuccessUnhelpful are the verdicts given with the
	// query asked (MemorySignals' queryHash).
	SuccessHelpful   int `json:"success_helpful,omitempty"`
	SuccessUnhelpful int `json:"success_unhelpful,omitempty"`
}

// Relevance is the feedback-adjusted relevance: 1 with no verdicts.
func (m MemorySignal) Relevance() float64 { return 1 + m.Adjustment }

// UsageRecord counts how often one memory was returned to and cited by a
// user.
type UsageRecord struct {
	Scope    Scope     `json:"scope"`
	MemoryID string    `json:"memory_id"`
	Returned int       `json:"returned"`
	Cited    int       `json:"cited"`
	LastUsed time.Time `json:"last_used"`
}

// SuccessRecord is the verdicts a user gave one memory for one normalised
// query: the "answers that worked" table, derived from the verdicts.
type SuccessRecord struct {
	Scope     Scope  `json:"scope"`
	QueryHash string `json:"query_hash"`
	MemoryID  string `json:"memory_id"`
	Helpful   int    `json:"helpful"`
	Unhelpful int    `json:"unhelpful"`
}

// FeedbackStore keeps the ranking signals' state: verdicts, the relevance
// they give, usage counts and the answers that worked. State is kept per
// namespace (tenant, user, agent) and memory. Implementations: graph/sqlite
// and graph/neo4j, covered by storetest.RunFeedback. DeleteScope removes
// all of it for the scopes it erases.
type FeedbackStore interface {
	// RecordVerdict applies v to the memory's relevance under rule, in one
	// transaction with storing v (ID, Delta and CreatedAt are set) and,
	// when v has a QueryHash, counting it in the success table. It returns
	// the memory's signal after the verdict.
	RecordVerdict(ctx context.Context, v *Verdict, rule FeedbackRule) (MemorySignal, error)
	// Verdicts returns the verdicts the scope Contains, oldest first.
	Verdicts(ctx context.Context, scope Scope) ([]Verdict, error)
	// ResetFeedback removes the verdicts the scope Contains, their
	// relevance adjustments and success rows, and returns how many verdicts
	// it removed. Usage counts stay unless usage is set.
	ResetFeedback(ctx context.Context, scope Scope, usage bool) (int, error)
	// RecordUsage adds each record's counts to its memory's, keeping the
	// later LastUsed.
	RecordUsage(ctx context.Context, usage []UsageRecord) error
	// Usage returns the usage counts the scope Contains.
	Usage(ctx context.Context, scope Scope) ([]UsageRecord, error)
	// Successes returns the success rows the scope Contains.
	Successes(ctx context.Context, scope Scope) ([]SuccessRecord, error)
	// MemorySignals returns the namespace's signals for the memories ids
	// names that have any, with the success counts for queryHash.
	MemorySignals(ctx context.Context, ns Scope, ids []string, queryHash string) (map[string]MemorySignal, error)
	// BackfillSuccess rebuilds every success row from the verdicts and
	// returns how many rows it added or changed: a second run returns 0.
	BackfillSuccess(ctx context.Context) (int, error)
	// FeatureVerdicts counts a tenant's verdicts per user and memory
	// feature (MemoryFeature of the memory judged; memories deleted since
	// are left out), for the cross-user signals: cohort priors and the
	// collaborative boost.
	FeatureVerdicts(ctx context.Context, tenantID string) ([]FeatureVerdict, error)
}

// FeatureVerdict is one user's verdicts on the memories of one feature.
type FeatureVerdict struct {
	UserID    string `json:"user_id"`
	Feature   string `json:"feature"`
	Helpful   int    `json:"helpful"`
	Unhelpful int    `json:"unhelpful"`
}

// MemoryFeature is what a memory has in common with other users' memories,
// where the cross-user signals learn: "fact:<predicate>" for a fact,
// "episode:<role>" for an episode. Memories are per user, so nothing more
// specific carries over.
func MemoryFeature(f *Fact, ep *Episode) string {
	switch {
	case f != nil:
		return "fact:" + f.Predicate
	case ep != nil:
		return "episode:" + ep.Role
	}
	return ""
}

// Validate reports EINVALID for a verdict with no valid scope or memory.
func (v *Verdict) Validate() error {
	if err := v.Scope.Validate(); err != nil {
		return err
	}
	if v.MemoryID == "" {
		return Errorf(EINVALID, "memory id is required")
	}
	return ValidateID("memory id", v.MemoryID)
}

// NormalizeQuery folds a query for the success table: lower case, letters
// and digits only, single spaces. "Where does Emma live?" and "where does
// emma live" are the same query.
func NormalizeQuery(q string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// QueryHash is the success table's key for a query: a SHA-256 of its
// normalised form (hex, 32 characters), "" for a query with no words.
func QueryHash(q string) string {
	n := NormalizeQuery(q)
	if n == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(n))
	return hex.EncodeToString(sum[:16])
}
