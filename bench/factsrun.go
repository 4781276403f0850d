package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// FactsTopK is the number of results a relational question asks for: the
// search API's default.
const FactsTopK = retrieve.DefaultTopK

// FactsRunner ingests a relational question set, one scope per user, and
// asks its questions of the default pipeline and of the graph ablation.
type FactsRunner struct {
	Ingest   *ingest.Service
	Pipeline *retrieve.Pipeline // the default pipeline; the ablation copies it
	// Tenant separates benchmark runs from other data in the same store;
	// empty means "bench-facts".
	Tenant string
	// Progress receives progress lines; nil for none.
	Progress io.Writer
	// Misses, when set, receives one JSON line per question the default
	// pipeline fails at 1.
	Misses io.Writer
	// Reuse keeps a user whose scope already holds one episode per
	// message (an earlier run into the same store): only the questions are
	// asked again, so retrieval settings can be compared on one ingest.
	Reuse bool
}

// FactsReport is the JSON `lore bench facts` writes.
type FactsReport struct {
	Dataset   string `json:"dataset"` // "facts"
	Data      string `json:"data,omitempty"`
	Users     int    `json:"users"`
	Messages  int    `json:"messages"`
	Questions int    `json:"questions"`
	TopK      int    `json:"top_k"`
	// Default is the default pipeline; NoGraph the graph ablation (no graph
	// signal, no entity expansion).
	Default       FactsScores     `json:"default"`
	NoGraph       FactsScores     `json:"no_graph"`
	IngestSeconds float64         `json:"ingest_seconds"`
	Config        retrieve.Config `json:"config"`
	Embedder      string          `json:"embedder"`
	Extractor     string          `json:"extractor,omitempty"`
	// Failures are the messages ingestion refused; the run went on.
	Failures
}

// FactsScores are one pipeline's pass rates, overall and by kind.
type FactsScores struct {
	Signals   retrieve.Signals      `json:"signals"`
	Overall   PassScores            `json:"overall"`
	ByKind    map[string]PassScores `json:"by_kind"`
	LatencyMS Latency               `json:"latency_ms"`
}

// PassScores are the shares of questions passed at 1 and at 3.
type PassScores struct {
	Pass1     float64 `json:"pass@1"`
	Pass3     float64 `json:"pass@3"`
	Questions int     `json:"questions"`
}

// passTally counts passes of a group of questions.
type passTally struct{ p1, p3, n int }

func (t *passTally) add(p1, p3 bool) {
	t.n++
	t.p1 += int(b2f(p1))
	t.p3 += int(b2f(p3))
}

func (t passTally) scores() PassScores {
	if t.n == 0 {
		return PassScores{}
	}
	return PassScores{Pass1: round4(float64(t.p1) / float64(t.n)), Pass3: round4(float64(t.p3) / float64(t.n)), Questions: t.n}
}

// factsVariant is one pipeline being scored.
type factsVariant struct {
	pipeline *retrieve.Pipeline
	overall  passTally
	byKind   map[string]*passTally
	latency  []float64
}

func (v *factsVariant) scores() FactsScores {
	s := FactsScores{Signals: v.pipeline.Config.Signals, Overall: v.overall.scores(), ByKind: map[string]PassScores{}, LatencyMS: percentiles(v.latency)}
	for k, t := range v.byKind {
		s.ByKind[k] = t.scores()
	}
	return s
}

// Run ingests every user of set into its own scope (sync, one Add per
// session, each message dated at its session's time plus a second per
// message to keep their order) and asks each question of both pipelines
// at its QueryTime, facts and episodes, top FactsTopK.
func (r *FactsRunner) Run(ctx context.Context, set *FactSet) (*FactsReport, error) {
	tenant := r.Tenant
	if tenant == "" {
		tenant = "bench-facts"
	}
	noGraph := *r.Pipeline
	noGraph.Config.Signals.Graph = false
	noGraph.Config.Signals.EntityExpansion = false
	def := &factsVariant{pipeline: r.Pipeline, byKind: map[string]*passTally{}}
	abl := &factsVariant{pipeline: &noGraph, byKind: map[string]*passTally{}}

	rep := &FactsReport{Dataset: "facts", Users: len(set.Users), TopK: FactsTopK, Config: r.Pipeline.Config, Embedder: "none"}
	if r.Pipeline.Embedder != nil {
		rep.Embedder = r.Pipeline.Embedder.Info().Name
	}
	for _, u := range set.Users {
		for _, s := range u.Sessions {
			rep.Messages += len(s.Messages)
		}
	}
	prog := newProgress(r.Progress, "ingest", rep.Messages)
	var ingestTime time.Duration
	for _, u := range set.Users {
		scope := lore.Scope{TenantID: tenant, UserID: u.ID}
		start := time.Now()
		if err := r.ingestUser(ctx, scope, u, &rep.Failures); err != nil {
			return nil, err
		}
		ingestTime += time.Since(start)
		for _, s := range u.Sessions {
			prog.add(len(s.Messages))
		}
		for _, q := range u.Questions {
			rep.Questions++
			var top []retrieve.Result
			var passes [2][2]bool // [variant][pass@1, pass@3]
			for vi, v := range []*factsVariant{def, abl} {
				started := time.Now()
				resp, err := v.pipeline.Search(ctx, retrieve.Request{
					Scope: scope, Query: q.Query, TopK: FactsTopK, QueryTime: u.askedAt(q),
					Explain: v == def && r.Misses != nil,
				})
				if err != nil {
					return nil, fmt.Errorf("bench: facts %s: search: %w", q.ID, err)
				}
				v.latency = append(v.latency, float64(time.Since(started).Microseconds())/1000)
				texts := make([]string, len(resp.Results))
				for i, res := range resp.Results {
					texts[i] = res.Memory
				}
				p1, p3 := passAt(texts, q.Expected, q.Stale, 1), passAt(texts, q.Expected, q.Stale, 3)
				passes[vi] = [2]bool{p1, p3}
				v.overall.add(p1, p3)
				kind := v.byKind[q.Kind]
				if kind == nil {
					kind = &passTally{}
					v.byKind[q.Kind] = kind
				}
				kind.add(p1, p3)
				if v == def {
					top = resp.Results
				}
			}
			if r.Misses != nil && !passes[0][0] {
				if err := r.writeMiss(u, q, passes, top); err != nil {
					return nil, err
				}
			}
		}
	}
	prog.done(ingestTime)
	rep.IngestSeconds = round4(ingestTime.Seconds())
	rep.Default, rep.NoGraph = def.scores(), abl.scores()
	return rep, nil
}

// ingestUser empties the user's scope and adds its sessions, counting in
// fail the messages ingestion refuses.
func (r *FactsRunner) ingestUser(ctx context.Context, scope lore.Scope, u FactUser, fail *Failures) error {
	if r.Reuse {
		want := 0
		for _, s := range u.Sessions {
			want += len(s.Messages)
		}
		eps, err := r.Ingest.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, Limit: want + 1})
		if err != nil {
			return fmt.Errorf("bench: count %s: %w", u.ID, err)
		}
		if want > 0 && len(eps) == want {
			return nil
		}
	}
	// A rerun into the same store starts from an empty space.
	if _, err := r.Ingest.Store.DeleteScope(ctx, scope); err != nil {
		return fmt.Errorf("bench: clear %s: %w", u.ID, err)
	}
	if err := r.Ingest.Index.DeleteScope(ctx, scope); err != nil {
		return fmt.Errorf("bench: clear index %s: %w", u.ID, err)
	}
	for si, s := range u.Sessions {
		msgs := make([]ingest.Message, 0, len(s.Messages))
		for mi, m := range s.Messages {
			at := s.Time.Add(time.Duration(mi) * time.Second)
			msgs = append(msgs, ingest.Message{
				Role: m.Role, Content: m.Content, Name: m.Name, CreatedAt: &at,
				SourceID: fmt.Sprintf("%s/s%d/m%d", u.ID, si+1, mi+1),
			})
		}
		if err := addMessages(ctx, r.Ingest, scope, msgs, fmt.Sprintf("%s session %d", u.ID, si+1), fail); err != nil {
			return err
		}
	}
	return nil
}

// factsMiss is one line of FactsRunner.Misses.
type factsMiss struct {
	User      string    `json:"user"`
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Query     string    `json:"query"`
	QueryTime time.Time `json:"query_time"`
	Expected  []string  `json:"expected"`
	Stale     []string  `json:"stale,omitempty"`
	Pass3     bool      `json:"pass@3"`
	NoGraph1  bool      `json:"no_graph_pass@1"`
	NoGraph3  bool      `json:"no_graph_pass@3"`
	// ExpectedAt is the rank (from 1) of the first result holding an
	// expected string, 0 when none of the top FactsTopK does; ExpectedType
	// is that result's type.
	ExpectedAt   int           `json:"expected_at"`
	ExpectedType string        `json:"expected_type,omitempty"`
	Top          []factsResult `json:"top"`
}

// factsResult is one of a miss's top results.
type factsResult struct {
	Type    string             `json:"type"`
	Memory  string             `json:"memory"`
	Score   float64            `json:"score"`
	Details map[string]float64 `json:"score_details,omitempty"`
	Stale   bool               `json:"stale,omitempty"` // holds a stale string and no expected one
}

// missTop is how many results a miss line shows.
const missTop = 3

func (r *FactsRunner) writeMiss(u FactUser, q FactQuestion, passes [2][2]bool, top []retrieve.Result) error {
	m := factsMiss{
		User: u.ID, ID: q.ID, Kind: q.Kind, Query: q.Query, QueryTime: u.askedAt(q),
		Expected: q.Expected, Stale: q.Stale,
		Pass3: passes[0][1], NoGraph1: passes[1][0], NoGraph3: passes[1][1],
		Top: []factsResult{},
	}
	for i, res := range top {
		if containsAny(res.Memory, q.Expected) {
			m.ExpectedAt, m.ExpectedType = i+1, string(res.Type)
			break
		}
	}
	for i, res := range top {
		if i == missTop {
			break
		}
		m.Top = append(m.Top, factsResult{
			Type: string(res.Type), Memory: res.Memory, Score: round4(res.Score), Details: res.ScoreDetails,
			Stale: containsAny(res.Memory, q.Stale) && !containsAny(res.Memory, q.Expected),
		})
	}
	line, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("bench: encode miss: %w", err)
	}
	if _, err := r.Misses.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("bench: write miss: %w", err)
	}
	return nil
}
