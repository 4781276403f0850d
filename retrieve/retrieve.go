// Package retrieve is Lore's hybrid retrieval pipeline: it analyses a query,
// gathers candidates from BM25, dense vectors and the user's knowledge graph,
// fuses their scores, hydrates and filters the records and renders a
// prompt-ready context. Each stage is a small function over plain values so it
// can be tested without a database; Pipeline wires them to the ports.
package retrieve

import (
	"context"
	"time"

	"github.com/lore-memory/lore"
)

// Pipeline answers searches over one GraphStore and one Index. Its fields are
// its dependencies; the zero Config is not useful, start from DefaultConfig.
type Pipeline struct {
	Graph    lore.GraphStore
	Index    lore.Index
	Embedder lore.Embedder    // nil: no dense signal
	Config   Config           // DefaultConfig() gives the tuned defaults
	Now      func() time.Time // nil: time.Now
	// Temporal resolves time expressions in a query against a reference
	// time. Nil means temporal.Parse.
	Temporal func(text string, ref time.Time) []TimeSpan
	// Observe, when set, is told how long each stage of a search took
	// (stages.go names them); the /metrics stage histograms.
	Observe func(stage string, d time.Duration)
	// Profiles gives searches the user's profile (Response.Profile, the
	// context's "About the user", Config.Profile); nil: none.
	Profiles lore.ProfileStore
	// Rewriter rewrites queries with the profile (Config.Profile.Rewrite).
	Rewriter QueryRewriter
	// Intent classifies queries (intent.go). Nil: the built-in rules.
	Intent IntentClassifier
	// Feedback holds the personal signals' state (signals.go). Nil: none.
	Feedback lore.FeedbackStore
	// Policies decide which memories a caller may see (policy.go), after
	// the built-ins Config.Policy turns on.
	Policies []Policy
	// CrossUser holds the cross-user signals' tables (crossuser.go). Nil:
	// none.
	CrossUser *CrossUser
}

// TimeSpan is a time expression found in a query, resolved to [Start, End).
type TimeSpan struct {
	Text       string
	Start, End time.Time
}

// Request is one search.
type Request struct {
	Scope              lore.Scope
	Query              string
	TopK               int            // 0 → 10
	Kinds              []lore.DocKind // empty → facts and episodes
	Filter             *Filter        // metadata filter; nil → none
	Since, Until       *time.Time     // time range on occurrence time
	Threshold          float64        // drop results with Score below it
	Explain            bool           // fill Result.ScoreDetails
	IncludeInvalidated bool
	QueryTime          time.Time // an as-of read in world time, and "now" for relative dates ("last week"); zero → Now
	// Now is the moment the query is asked when that is not the present (a
	// benchmark question's date): relative dates resolve against it and
	// validity is judged at it, but unlike QueryTime it reads everything
	// stored, said before it or not. Zero: the pipeline's clock.
	Now time.Time

	personal *personalization // the user's profile and what applies (profile.go)
	// Used are the ids of memories from an earlier answer that the caller
	// used (cited): counted for the frequency signal (signals.go).
	Used []string
	// Role is the caller's role, for the policies (policy.go).
	Role string
}

// Response is the answer to a search.
type Response struct {
	Results  []Result       `json:"results"`
	Entities []*lore.Entity `json:"entities"` // the user's entities linked from the query
	Context  string         `json:"context"`  // prompt-ready text of the results, with dates
	// Profile is the user's profile the search had (Pipeline.Profiles).
	Profile []lore.ProfileEntry `json:"profile"`
	// Intent is the query's intent and what decided it, with Explain.
	Intent *IntentResult `json:"intent,omitempty"`
	// TopicGini is, with Explain, the Gini coefficient of the results'
	// spread over the candidates' topics (mmr.go): 0 even, towards 1
	// concentrated.
	TopicGini *float64 `json:"topic_gini,omitempty"`
}

// Result is one memory found by a search: a fact or an episode. Score is the
// fused score on a 0..1 scale: with weighted fusion, the weighted share of
// the best score in every signal that found anything (1: first in all of
// them); with RRF, the sum of reciprocal ranks over its best possible value.
// The context share a turn receives from a neighbouring hit is added on top,
// so a turn can score slightly above 1. Scores compare results of one
// query; Request.Threshold cuts on them.
type Result struct {
	ID           string             `json:"id"`
	Type         lore.DocKind       `json:"type"`
	Memory       string             `json:"memory"`
	Score        float64            `json:"score"`
	Fact         *lore.Fact         `json:"fact,omitempty"`
	Episode      *lore.Episode      `json:"-"`
	Sources      []Source           `json:"sources"`
	ScoreDetails map[string]float64 `json:"score_details,omitempty"` // per-signal scores, with Explain

	// Passage is the part of a long episode that matched (lore.Passages),
	// with its byte offsets in the content; see passages.go.
	Passage *lore.Passage `json:"passage,omitempty"`
}

// Source is an episode a result comes from.
type Source struct {
	EpisodeID  string    `json:"episode_id"`
	SourceID   string    `json:"source_id,omitempty"`
	OccurredAt time.Time `json:"occurred_at"`
	Content    string    `json:"content"`
}

// DefaultTopK is the number of results when a request asks for none.
const DefaultTopK = 10

func (p *Pipeline) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Search runs the pipeline for one request. It returns EINVALID for a scope
// that names neither a user nor an agent, so no search crosses users.
func (p *Pipeline) Search(ctx context.Context, req Request) (*Response, error) {
	return p.search(ctx, req)
}
