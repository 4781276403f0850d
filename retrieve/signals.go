package retrieve

import (
	"context"
	_ "embed"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// The personal ranking signals of issue 14, as they appear in
// Result.ScoreDetails. The score is
//
//	(w_bm25·bm25 + w_dense·dense + w_graph·graph + … + w_personal·personal
//	 + w_frequency·frequency + w_success·success) × relevance
//
// where the first terms are the fusion's (Weights), the personal terms come
// from the user's behaviour through lore.FeedbackStore, and relevance is the
// memory's feedback-adjusted relevance (1 with none). Every new weight is 0
// and Feedback is off by default: rankings are then exactly the fusion's.
const (
	SignalPersonal  = "personal"
	SignalFrequency = "frequency"
	SignalSuccess   = "success"
	SignalRelevance = "relevance"
)

// Personal configures the personal ranking signals (signals.go).
type Personal struct {
	// Feedback multiplies each candidate's score by its feedback-adjusted
	// relevance (lore.FeedbackRule).
	Feedback bool `json:"feedback"`
	// Personal weighs the user's own verdicts on a memory: helpful /
	// (helpful + unhelpful + 1), blended with cohort priors (coldstart.go).
	Personal float64 `json:"w_personal"`
	// Frequency weighs how often the memory was cited back (and, at
	// ReturnedShare, returned): log-scaled up to FrequencySaturation uses,
	// halved every FrequencyHalfLifeDays since its last use.
	Frequency float64 `json:"w_frequency"`
	// Success weighs the memory's record for the same normalised query
	// ("answers that worked"): (helpful − unhelpful) / verdicts, once it
	// has MinSampleSize verdicts for that query.
	Success       float64 `json:"w_success"`
	MinSampleSize int     `json:"min_sample_size"`
	// SuccessPenalty multiplies, with Success on, the score of a memory
	// whose verdicts for the same normalised query are more unhelpful
	// than helpful (0 or 1: off). The user said it did not answer this
	// question; other queries are not touched, and no sample size is
	// waited for, so asking again shows what lay below it. 0.1 by default:
	// against 0.5 it lifts LoCoMo half A asked again (bench feedback,
	// success alone) from any@10 0.900 to 0.922 on the tuning half and from
	// 0.947 to 0.974 on the validation half, by pushing each round's judged
	// memories far enough down for the next round to look 10 deeper.
	SuccessPenalty        float64 `json:"success_penalty"`
	FrequencyHalfLifeDays float64 `json:"frequency_half_life_days"`
	FrequencySaturation   float64 `json:"frequency_saturation"`
	ReturnedShare         float64 `json:"returned_share"`
	// Multiply makes the personal, frequency and success terms factors of
	// the fused score, score × (1 + w·term), instead of added terms: they
	// reorder what the query reaches and lift nothing it does not.
	Multiply bool `json:"multiply"`
	// BySource lets a memory share the signals of the memories drawn from
	// the same source turn: a verdict on a fact counts for its turn and the
	// turn's other facts, and the reverse (bysource.go).
	BySource bool `json:"by_source"`
	// TrackUsage counts every search's top k as returned and the request's
	// Used ids as cited (needs Pipeline.Feedback).
	TrackUsage bool `json:"track_usage"`
	// Intents applies intent_weights.txt's per-intent multipliers.
	Intents bool `json:"intents"`
	// Rule is how a verdict moves a memory's relevance (POST
	// /v1/memories/{id}/feedback).
	Rule lore.FeedbackRule `json:"feedback_rule"`
	// ColdStart and Collaborative are the cross-user signals
	// (crossuser.go; need Pipeline.CrossUser).
	ColdStart     ColdStart     `json:"cold_start"`
	Collaborative Collaborative `json:"collaborative"`
}

// DefaultPersonal is every signal off, with the parameters ready
// for when one is turned on.
func DefaultPersonal() Personal {
	return Personal{MinSampleSize: 3, SuccessPenalty: 0.1, FrequencyHalfLifeDays: 30, FrequencySaturation: 20, ReturnedShare: 0.1, Rule: lore.DefaultFeedbackRule(),
		ColdStart: DefaultColdStart(), Collaborative: DefaultCollaborative()}
}

// active reports whether any personal signal can move a score.
func (c Personal) active() bool {
	return c.Feedback || c.Personal > 0 || c.Frequency > 0 || c.Success > 0 || c.ColdStart.Weight > 0 || c.Collaborative.Weight > 0
}

//go:embed intent_weights.txt
var intentWeightData string

// intentWeights are the multipliers of one intent: personal, frequency,
// success, feedback.
type intentWeights [4]float64

// intentTable is intent_weights.txt, read once; it is never changed.
var intentTable = mustIntentWeights(intentWeightData)

func mustIntentWeights(data string) map[Intent]intentWeights {
	out, err := parseIntentWeights(data)
	if err != nil {
		panic(err)
	}
	return out
}

// parseIntentWeights reads intent_weights.txt's format.
func parseIntentWeights(data string) (map[Intent]intentWeights, error) {
	out := map[Intent]intentWeights{}
	for i, line := range strings.Split(data, "\n") {
		fs := strings.Fields(line)
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		in, err := ParseIntent(fs[0])
		if err != nil || len(fs) != 5 {
			return nil, fmt.Errorf("intent weights: line %d: want \"INTENT personal frequency success feedback\"", i+1)
		}
		var w intentWeights
		for j := range w {
			if w[j], err = strconv.ParseFloat(fs[j+1], 64); err != nil || w[j] < 0 {
				return nil, fmt.Errorf("intent weights: line %d: bad number %q", i+1, fs[j+1])
			}
		}
		out[in] = w
	}
	return out, nil
}

// personalState is what the personal stage found for one search.
type personalState struct {
	relevance map[string]float64 // candidates whose relevance is not 1
	penalty   map[string]float64 // candidates with a bad record for the query
	lift      []signal           // with Multiply: score × (1 + Σ weight·term)
}

// SignalSuccessPenalty names the bad-record factor in Result.ScoreDetails.
const SignalSuccessPenalty = "success_penalty"

// signalFetch is the candidates' signals, read while the candidates are
// hydrated (prefetchSignals): the read is a key lookup per candidate, and
// on a multi-core machine it then costs the search little wall time.
type signalFetch struct {
	done chan struct{}
	sigs map[string]lore.MemorySignal
	err  error
}

// prefetchSignals starts reading the candidates' signals, or returns nil
// when the personal stage will not run.
func (p *Pipeline) prefetchSignals(ctx context.Context, req Request, c *candidateSet) *signalFetch {
	cfg := p.Config.Personal
	if p.Feedback == nil || !cfg.active() || len(c.kind) == 0 {
		return nil
	}
	ids := make([]string, 0, len(c.kind))
	for id := range c.kind {
		ids = append(ids, id)
	}
	hash := ""
	if cfg.Success > 0 {
		hash = lore.QueryHash(req.Query)
	}
	f := &signalFetch{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		f.sigs, f.err = p.Feedback.MemorySignals(ctx, req.Scope.Namespace(), ids, hash)
	}()
	return f
}

// personal loads the candidates' signals (from pre, when prefetched) and
// returns the personal score terms to fuse, and the relevance factors to
// apply after fusion. With no store or every signal off it does nothing.
func (p *Pipeline) personal(ctx context.Context, req Request, c *candidateSet, intent *IntentResult, now time.Time, pre *signalFetch) ([]signal, *personalState, error) {
	cfg := p.Config.Personal
	if p.Feedback == nil || !cfg.active() || len(c.kind) == 0 {
		return nil, nil, nil
	}
	mult := intentWeights{1, 1, 1, 1}
	if cfg.Intents && intent != nil {
		if w, ok := intentTable[intent.Intent]; ok {
			mult = w
		}
	}
	hash := ""
	if cfg.Success > 0 {
		hash = lore.QueryHash(req.Query)
	}
	var sigs map[string]lore.MemorySignal
	var err error
	if pre != nil {
		<-pre.done
		sigs, err = pre.sigs, pre.err
		// Candidates the policy filter removed since keep no signal.
		maps.DeleteFunc(sigs, func(id string, _ lore.MemorySignal) bool { _, ok := c.kind[id]; return !ok })
	} else {
		ids := make([]string, 0, len(c.kind))
		for id := range c.kind {
			ids = append(ids, id)
		}
		sigs, err = p.Feedback.MemorySignals(ctx, req.Scope.Namespace(), ids, hash)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("retrieve: memory signals: %w", err)
	}
	if cfg.BySource {
		// The source turns are known once the facts are hydrated.
		more, err := p.Feedback.MemorySignals(ctx, req.Scope.Namespace(), sourceIDsToLoad(c), hash)
		if err != nil {
			return nil, nil, fmt.Errorf("retrieve: memory signals: %w", err)
		}
		maps.Copy(sigs, more)
		sigs = spreadBySource(c, sigs) // bysource.go
	}
	var out []signal
	add := func(name string, w float64, score func(lore.MemorySignal) float64) {
		if w <= 0 {
			return
		}
		s := signal{Name: name, Weight: w, Scores: map[string]float64{}, Absolute: true}
		for id, m := range sigs {
			if v := score(m); v > 0 {
				s.Scores[id] = v
			}
		}
		out = append(out, s)
	}
	add(SignalPersonal, cfg.Personal*mult[0], personalScore)
	add(SignalFrequency, cfg.Frequency*mult[1], func(m lore.MemorySignal) float64 { return frequencyScore(m, now, cfg) })
	add(SignalSuccess, cfg.Success*mult[2], func(m lore.MemorySignal) float64 { return successScore(m, cfg.MinSampleSize) })
	st := &personalState{}
	if cfg.Multiply {
		// The user's own terms scale the fused score instead of adding to
		// it: a memory the query does not reach stays where it is.
		st.lift, out = out, nil
	}
	cross, err := p.crossUserSignals(ctx, req, c, mult[0], now)
	if err != nil {
		return nil, nil, err
	}
	out = append(out, cross...)
	if cfg.Success > 0 && mult[2] > 0 && cfg.SuccessPenalty > 0 && cfg.SuccessPenalty < 1 {
		st.penalty = map[string]float64{}
		for id, m := range sigs {
			if m.SuccessUnhelpful > m.SuccessHelpful {
				st.penalty[id] = cfg.SuccessPenalty
			}
		}
	}
	if cfg.Feedback && mult[3] > 0 {
		st.relevance = map[string]float64{}
		for id, m := range sigs {
			if m.Adjustment != 0 {
				st.relevance[id] = 1 + mult[3]*m.Adjustment
			}
		}
	}
	return out, st, nil
}

// apply multiplies the fused scores by the candidates' relevance.
func (st *personalState) apply(f fused) {
	if st == nil {
		return
	}
	for id, r := range st.relevance {
		if _, ok := f.Scores[id]; ok {
			f.Scores[id] *= r
			detail(f.Details, id)[SignalRelevance] = r
		}
	}
	for _, s := range st.lift {
		for id, v := range s.Scores {
			if _, ok := f.Scores[id]; ok {
				f.Scores[id] *= 1 + s.Weight*v
				detail(f.Details, id)[s.Name] = v
			}
		}
	}
	for id, r := range st.penalty {
		if _, ok := f.Scores[id]; ok {
			f.Scores[id] *= r
			detail(f.Details, id)[SignalSuccessPenalty] = r
		}
	}
}

// personalScore is the user's own record of a memory: helpful / (verdicts
// + 1), so one helpful verdict gives 0.5 and an unhelpful one lowers it.
func personalScore(m lore.MemorySignal) float64 {
	return float64(m.Helpful) / float64(m.Helpful+m.Unhelpful+1)
}

// frequencyScore is log-scaled use (citations, and returns at
// ReturnedShare) up to saturation, halved every half-life since the last
// use.
func frequencyScore(m lore.MemorySignal, now time.Time, cfg Personal) float64 {
	uses := float64(m.Cited) + cfg.ReturnedShare*float64(m.Returned)
	if uses <= 0 {
		return 0
	}
	v := math.Log1p(uses) / math.Log1p(max(cfg.FrequencySaturation, 1))
	if cfg.FrequencyHalfLifeDays > 0 && !m.LastUsed.IsZero() && now.After(m.LastUsed) {
		v *= math.Exp2(-now.Sub(m.LastUsed).Hours() / 24 / cfg.FrequencyHalfLifeDays)
	}
	return min(v, 1)
}

// successScore is the memory's net record for the query, once it has at
// least minSample verdicts for it.
func successScore(m lore.MemorySignal, minSample int) float64 {
	n := m.SuccessHelpful + m.SuccessUnhelpful
	if n == 0 || n < minSample {
		return 0
	}
	return max(float64(m.SuccessHelpful-m.SuccessUnhelpful)/float64(n), 0)
}

// trackUsage counts the results as returned and the request's Used ids as
// cited, when Personal.TrackUsage is on.
func (p *Pipeline) trackUsage(ctx context.Context, req Request, results []Result) error {
	if p.Feedback == nil || !p.Config.Personal.TrackUsage {
		return nil
	}
	ns := req.Scope.Namespace()
	rec := make([]lore.UsageRecord, 0, len(results)+len(req.Used))
	for _, r := range results {
		rec = append(rec, lore.UsageRecord{Scope: ns, MemoryID: r.ID, Returned: 1})
	}
	for _, id := range req.Used {
		rec = append(rec, lore.UsageRecord{Scope: ns, MemoryID: id, Cited: 1})
	}
	if err := p.Feedback.RecordUsage(ctx, rec); err != nil {
		return fmt.Errorf("retrieve: record usage: %w", err)
	}
	return nil
}
