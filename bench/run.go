package bench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/internal/fanout"
	"github.com/lore-memory/lore/retrieve"
)

// MaxK is the deepest cut-off scored, and so the number of results asked for.
const MaxK = 50

// Runner ingests a dataset and scores retrieval under each ablation.
type Runner struct {
	Ingest   *ingest.Service
	Pipeline *retrieve.Pipeline // the full pipeline; ablations copy it with other signals
	// Ablations to run besides the full pipeline; nil means retrieve.Ablations().
	Ablations []retrieve.Ablation
	// Limit runs only the first Limit spaces when > 0.
	Limit int
	// IngestWorkers is how many spaces ingest at once (0: one per CPU).
	// Spaces are separate users, so their order does not change what is
	// stored; questions are asked after all ingestion, one at a time.
	IngestWorkers int
	// Tenant separates benchmark runs from other data in the same store.
	Tenant string
	// Progress receives progress lines; nil for none.
	Progress io.Writer
	// Reuse keeps a space that already holds every turn of the dataset (an
	// earlier run into the same data directory) instead of ingesting it
	// again, so retrieval changes can be measured in minutes.
	Reuse bool
	// Misses, when set, receives one JSON line per question whose gold turns
	// the default pipeline's top 10 do not all cover: the question, its gold
	// turns and what came back instead.
	Misses io.Writer
}

// Report is the JSON that `lore bench` writes; its shape is fixed, scripts
// depend on it.
type Report struct {
	Dataset string `json:"dataset"`
	Data    string `json:"data,omitempty"`
	// Split is the half scored (tune, validate or all) and SplitSeed the
	// seed that drew the halves (bench/README.md, Validation protocol).
	Split         Split             `json:"split"`
	SplitSeed     string            `json:"split_seed"`
	Spaces        int               `json:"spaces"`
	Turns         int               `json:"turns"`
	Overall       Scores            `json:"overall"`
	ByCategory    map[string]Scores `json:"by_category,omitempty"`
	ByType        map[string]Scores `json:"by_type,omitempty"`
	LatencyMS     Latency           `json:"latency_ms"`
	IngestSeconds float64           `json:"ingest_seconds"`
	// IngestedSpaces is how many spaces this run ingested; the others were
	// reused (Runner.Reuse) and ingest_seconds does not cover them.
	IngestedSpaces int                       `json:"ingested_spaces"`
	Ablations      map[string]AblationReport `json:"ablations"`
	Config         retrieve.Config           `json:"config"`
	Embedder       string                    `json:"embedder"`
	Extractor      string                    `json:"extractor,omitempty"`
	// Failures are the turns ingestion refused; the run went on without
	// them.
	Failures
}

// AblationReport holds one ablation's scores, in the report's shape.
type AblationReport struct {
	Signals    retrieve.Signals  `json:"signals"`
	Overall    Scores            `json:"overall"`
	ByCategory map[string]Scores `json:"by_category,omitempty"`
	ByType     map[string]Scores `json:"by_type,omitempty"`
	LatencyMS  Latency           `json:"latency_ms"`
}

// variant is one pipeline configuration being scored.
type variant struct {
	name     string
	pipeline *retrieve.Pipeline
	overall  *accumulator
	groups   map[string]*accumulator
	latency  []float64
}

// Run ingests every space of ds and asks its questions.
func (r *Runner) Run(ctx context.Context, ds *Dataset) (*Report, error) {
	spaces := ds.Spaces
	if r.Limit > 0 && r.Limit < len(spaces) {
		spaces = spaces[:r.Limit]
	}
	tenant := r.Tenant
	if tenant == "" {
		tenant = "bench-" + ds.Name
	}
	ablations := r.Ablations
	if ablations == nil {
		ablations = retrieve.Ablations()
	}
	full := &variant{name: "full", pipeline: r.Pipeline, overall: newAccumulator(), groups: map[string]*accumulator{}}
	variants := []*variant{full}
	for _, a := range ablations {
		p := *r.Pipeline
		p.Config.Signals = a.Signals
		variants = append(variants, &variant{name: a.Name, pipeline: &p, overall: newAccumulator(), groups: map[string]*accumulator{}})
	}

	totalTurns := 0
	for _, sp := range spaces {
		totalTurns += sp.turns()
	}
	rep := &Report{
		Dataset: ds.Name, Spaces: len(spaces), Turns: totalTurns,
		Split: SplitAll, SplitSeed: SplitSeed,
		Ablations: map[string]AblationReport{},
		Config:    r.Pipeline.Config,
		Embedder:  "none",
	}
	if ds.Split != "" {
		rep.Split = ds.Split
	}
	prog := newProgress(r.Progress, "ingest", totalTurns)
	ingestTime, err := r.ingestSpaces(ctx, tenant, spaces, prog, rep)
	if err != nil {
		return nil, err
	}
	for _, sp := range spaces {
		scope := lore.Scope{TenantID: tenant, UserID: sp.ID}
		for _, q := range sp.Questions {
			for _, v := range variants {
				started := time.Now()
				resp, err := v.pipeline.Search(ctx, retrieve.Request{
					Scope: scope, Query: q.Text, TopK: MaxK, Now: q.Time,
					Explain: v == full && r.Misses != nil,
				})
				if err != nil {
					return nil, fmt.Errorf("bench: search %s (%s): %w", q.ID, v.name, err)
				}
				v.latency = append(v.latency, float64(time.Since(started).Microseconds())/1000)
				rk := r.rank(ds, sp.ID, resp)
				group := v.groups[q.Group]
				if group == nil {
					group = newAccumulator()
					v.groups[q.Group] = group
				}
				group.add(rk, q.GoldTurns, q.GoldSesses)
				if v == full && r.Misses != nil {
					if err := r.writeMiss(ds, sp, q, rk, resp); err != nil {
						return nil, err
					}
				}
				// LoCoMo's adversarial category 5 is reported apart, not in
				// the overall figure.
				if !(ds.Name == "locomo" && q.Group == "5") {
					v.overall.add(rk, q.GoldTurns, q.GoldSesses)
				}
			}
		}
	}
	prog.done(ingestTime)
	rep.IngestSeconds = round4(ingestTime.Seconds())
	if r.Pipeline.Embedder != nil {
		rep.Embedder = r.Pipeline.Embedder.Info().Name
	}
	for _, v := range variants {
		groups := map[string]Scores{}
		for g, acc := range v.groups {
			groups[g] = acc.scores()
		}
		if ds.Name == "locomo" {
			groups["1-4"] = v.overall.scores()
		}
		ar := AblationReport{Signals: v.pipeline.Config.Signals, Overall: v.overall.scores(), LatencyMS: percentiles(v.latency)}
		if ds.Name == "locomo" {
			ar.ByCategory = groups
		} else {
			ar.ByType = groups
		}
		if v == full {
			rep.Overall, rep.ByCategory, rep.ByType, rep.LatencyMS = ar.Overall, ar.ByCategory, ar.ByType, ar.LatencyMS
			continue
		}
		rep.Ablations[v.name] = ar
	}
	return rep, nil
}

// ingestSpaces ingests the spaces that are not reusable, IngestWorkers at
// a time, and returns the wall time it took. Failures and the count of
// ingested spaces go into rep.
func (r *Runner) ingestSpaces(ctx context.Context, tenant string, spaces []Space, prog *progress, rep *Report) (time.Duration, error) {
	var mu sync.Mutex // guards rep
	start := time.Now()
	err := fanout.Each(ctx, cmp.Or(r.IngestWorkers, runtime.NumCPU()), spaces, func(ctx context.Context, sp Space) error {
		var fail Failures
		ingested, err := r.ingestSpace(ctx, lore.Scope{TenantID: tenant, UserID: sp.ID}, sp, prog, &fail)
		mu.Lock()
		defer mu.Unlock()
		rep.Failures.merge(fail)
		if ingested {
			rep.IngestedSpaces++
		}
		return err
	})
	return time.Since(start), err
}

// ingestSpace empties sp's space and adds its sessions, unless Reuse finds
// it complete; it reports whether it ingested.
func (r *Runner) ingestSpace(ctx context.Context, scope lore.Scope, sp Space, prog *progress, fail *Failures) (bool, error) {
	reused, err := r.reusable(ctx, scope, sp)
	if err != nil {
		return false, err
	}
	if reused {
		prog.add(sp.turns())
		return false, nil
	}
	// A rerun starts from an empty space.
	if _, err := r.Ingest.Store.DeleteScope(ctx, scope); err != nil {
		return false, fmt.Errorf("bench: clear %s: %w", sp.ID, err)
	}
	if err := r.Ingest.Index.DeleteScope(ctx, scope); err != nil {
		return false, fmt.Errorf("bench: clear index %s: %w", sp.ID, err)
	}
	for _, s := range sp.Sessions {
		if err := r.ingestSession(ctx, scope, s, fail); err != nil {
			return true, err
		}
		prog.add(len(s.Turns))
	}
	return true, nil
}

// reusable reports whether Reuse is on and the space already holds one
// episode for every non-empty turn of sp.
func (r *Runner) reusable(ctx context.Context, scope lore.Scope, sp Space) (bool, error) {
	if !r.Reuse {
		return false, nil
	}
	want := 0
	for _, s := range sp.Sessions {
		for _, t := range s.Turns {
			if strings.TrimSpace(t.Text) != "" {
				want++
			}
		}
	}
	eps, err := r.Ingest.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, Limit: want + 1})
	if err != nil {
		return false, fmt.Errorf("bench: count %s: %w", sp.ID, err)
	}
	return want > 0 && len(eps) == want, nil
}

// ingestSession adds one session's turns, counting in fail the turns
// ingestion refuses.
func (r *Runner) ingestSession(ctx context.Context, scope lore.Scope, s Session, fail *Failures) error {
	msgs := make([]ingest.Message, 0, len(s.Turns))
	for _, t := range s.Turns {
		// A few LongMemEval turns are empty; ingestion refuses them and
		// there is nothing in them to remember.
		if strings.TrimSpace(t.Text) == "" {
			continue
		}
		at := t.Time
		msgs = append(msgs, ingest.Message{Role: t.Role, Content: t.Text, Name: t.Speaker, CreatedAt: &at, SourceID: t.ID})
	}
	return addMessages(ctx, r.Ingest, scope, msgs, scope.UserID+" "+s.ID, fail)
}

// rank turns a response into per-result source turn and session ids.
func (r *Runner) rank(ds *Dataset, spaceID string, resp *retrieve.Response) ranked {
	var rk ranked
	for _, res := range resp.Results {
		var turns, sessions []string
		seen := map[string]bool{}
		for _, src := range res.Sources {
			if src.SourceID == "" {
				continue
			}
			turns = append(turns, src.SourceID)
			if sid, ok := ds.SessionOf[spaceID+"|"+src.SourceID]; ok && !seen[sid] {
				seen[sid] = true
				sessions = append(sessions, sid)
			}
		}
		rk.turns = append(rk.turns, turns)
		rk.sessions = append(rk.sessions, sessions)
		rk.chars = append(rk.chars, len(res.Memory))
	}
	return rk
}

// progress prints a one-line progress bar, redrawn in place.
type progress struct {
	mu         sync.Mutex // spaces ingest in parallel
	w          io.Writer
	label      string
	total, n   int
	start      time.Time
	lastRedraw time.Time
}

func newProgress(w io.Writer, label string, total int) *progress {
	return &progress{w: w, label: label, total: total, start: time.Now()}
}

func (p *progress) add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n += n
	if p.w == nil || time.Since(p.lastRedraw) < 200*time.Millisecond && p.n < p.total {
		return
	}
	p.lastRedraw = time.Now()
	const width = 30
	filled := 0
	if p.total > 0 {
		filled = p.n * width / p.total
	}
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = '.'
		if i < filled {
			bar[i] = '#'
		}
	}
	rate := float64(p.n) / max(time.Since(p.start).Seconds(), 1e-9)
	fmt.Fprintf(p.w, "\r%s [%s] %d/%d turns, %s/s ", p.label, bar, p.n, p.total, strconv.FormatFloat(rate, 'f', 1, 64))
}

// done ends the bar with the ingestion's wall time and the questions'.
func (p *progress) done(ingest time.Duration) {
	if p.w != nil {
		fmt.Fprintf(p.w, "\r%s done: %d turns ingested in %s; questions answered in %s\n",
			p.label, p.n, ingest.Round(time.Millisecond), (time.Since(p.start) - ingest).Round(time.Millisecond))
	}
}
