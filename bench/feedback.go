package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// FeedbackSeed fixes how each conversation's questions are split into the
// halves A (judged) and B (scored with the signals), like SplitSeed.
const FeedbackSeed = "lore-feedback-2026-12"

// FeedbackRunner is `lore bench feedback` (issue 14): in each conversation
// the questions (LoCoMo categories 1–4) are split in two halves by a fixed
// seed; half A is asked Rounds times with every signal on, each time
// recording a verdict on each of its top 10 (helpful when the memory cites a
// gold turn, unhelpful otherwise) and counting them as returned; then half B
// is scored with each signal alone and all together against all off, and
// half A is asked again.
type FeedbackRunner struct {
	Ingest   *ingest.Service
	Pipeline *retrieve.Pipeline // with Feedback; its Config.Personal gives the weights when on
	Feedback lore.FeedbackStore
	Tenant   string
	Limit    int
	Reuse    bool
	Progress io.Writer
	// Rounds is how often half A is asked and judged: min_sample_size
	// rounds let the success signal reach its sample size.
	Rounds int
	// Dump, when set, receives JSON lines for offline study of rankings:
	// each question's top MaxK with every signal off (half A before its
	// verdicts, half B after), and each conversation's success rows.
	Dump io.Writer
}

// feedbackDumpResult is one result in a Dump line.
type feedbackDumpResult struct {
	ID    string   `json:"id"`
	Kind  string   `json:"kind"`
	Score float64  `json:"score"`
	Turns []string `json:"turns"`
}

// dumpLine writes one JSON line to Dump, if set.
func (r *FeedbackRunner) dumpLine(v any) error {
	if r.Dump == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(r.Dump, "%s\n", b)
	return err
}

// dumpQuestion writes a question's off ranking to Dump.
func (r *FeedbackRunner) dumpQuestion(conv, half string, q Question, resp *retrieve.Response) error {
	if r.Dump == nil {
		return nil
	}
	rs := make([]feedbackDumpResult, 0, len(resp.Results))
	for _, res := range resp.Results {
		d := feedbackDumpResult{ID: res.ID, Kind: string(res.Type), Score: res.Score, Turns: []string{}}
		for _, s := range res.Sources {
			if s.SourceID != "" {
				d.Turns = append(d.Turns, s.SourceID)
			}
		}
		rs = append(rs, d)
	}
	return r.dumpLine(map[string]any{"type": "question", "conv": conv, "half": half, "id": q.ID, "hash": lore.QueryHash(q.Text),
		"gold": q.GoldTurns, "results": rs})
}

// FeedbackReport is the JSON `lore bench feedback` writes.
type FeedbackReport struct {
	Dataset  string            `json:"dataset"`
	Data     string            `json:"data,omitempty"`
	Split    Split             `json:"split"`
	Seed     string            `json:"seed"`
	Spaces   int               `json:"spaces"`
	Rounds   int               `json:"rounds"`
	Verdicts int               `json:"verdicts"`
	Helpful  int               `json:"helpful"`
	Personal retrieve.Personal `json:"personal"`
	// HalfB and HalfA hold each variant's scores: "off", "feedback",
	// "frequency", "success", "all" (personal is in "all" only).
	HalfB map[string]Scores `json:"half_b"`
	HalfA map[string]Scores `json:"half_a_reasked"`
	// TopicGini is the mean topic Gini coefficient of the top 10 on half B
	// per variant (diversity.go), when computed.
	TopicGini     map[string]float64 `json:"topic_gini,omitempty"`
	IngestSeconds float64            `json:"ingest_seconds"`
}

// feedbackVariants are the personal settings scored, each from on (the
// runner's Config.Personal): every signal off, each alone, all.
func feedbackVariants(on retrieve.Personal) []struct {
	name string
	p    retrieve.Personal
} {
	off := on
	off.Feedback, off.Personal, off.Frequency, off.Success, off.TrackUsage = false, 0, 0, 0, false
	only := func(f func(*retrieve.Personal)) retrieve.Personal {
		p := off
		f(&p)
		return p
	}
	all := on
	all.TrackUsage = false
	return []struct {
		name string
		p    retrieve.Personal
	}{
		{"off", off},
		{"feedback", only(func(p *retrieve.Personal) { p.Feedback = on.Feedback })},
		{"frequency", only(func(p *retrieve.Personal) { p.Frequency = on.Frequency })},
		{"success", only(func(p *retrieve.Personal) { p.Success = on.Success })},
		{"all", all},
	}
}

// SplitQuestions splits a conversation's questions of categories 1–4 into
// halves A and B: ordered by the hash of FeedbackSeed and the question id,
// the first half is A.
func SplitQuestions(qs []Question) (a, b []Question) {
	var keep []Question
	for _, q := range qs {
		if q.Group != "5" && len(q.GoldTurns) > 0 {
			keep = append(keep, q)
		}
	}
	sort.SliceStable(keep, func(i, j int) bool {
		hi, hj := splitHash(FeedbackSeed, keep[i].ID), splitHash(FeedbackSeed, keep[j].ID)
		if hi != hj {
			return hi < hj
		}
		return keep[i].ID < keep[j].ID
	})
	half := (len(keep) + 1) / 2
	return keep[:half], keep[half:]
}

// citesGold reports whether a result's sources include a gold turn.
func citesGold(r retrieve.Result, gold []string) bool {
	for _, s := range r.Sources {
		for _, g := range gold {
			if s.SourceID == g {
				return true
			}
		}
	}
	return false
}

// Run ingests (or reuses) each conversation, judges half A and scores.
func (r *FeedbackRunner) Run(ctx context.Context, ds *Dataset) (*FeedbackReport, error) {
	if ds.Name != "locomo" {
		return nil, lore.Errorf(lore.EINVALID, "bench feedback runs on LoCoMo")
	}
	if r.Feedback == nil {
		return nil, lore.Errorf(lore.EINVALID, "bench feedback needs a store that keeps feedback")
	}
	rounds := max(r.Rounds, 1)
	spaces := ds.Spaces
	if r.Limit > 0 && r.Limit < len(spaces) {
		spaces = spaces[:r.Limit]
	}
	tenant := r.Tenant
	if tenant == "" {
		tenant = "bench-feedback"
	}
	on := r.Pipeline.Config.Personal
	variants := feedbackVariants(on)
	rep := &FeedbackReport{Dataset: ds.Name, Split: SplitAll, Seed: FeedbackSeed, Spaces: len(spaces), Rounds: rounds, Personal: on,
		HalfB: map[string]Scores{}, HalfA: map[string]Scores{}}
	if ds.Split != "" {
		rep.Split = ds.Split
	}
	accB, accA := map[string]*accumulator{}, map[string]*accumulator{}
	for _, v := range variants {
		accB[v.name], accA[v.name] = newAccumulator(), newAccumulator()
	}
	ingestRunner := &Runner{Ingest: r.Ingest, Reuse: r.Reuse}
	var fails Failures
	var ingestTime time.Duration
	pipe := func(p retrieve.Personal) *retrieve.Pipeline {
		cp := *r.Pipeline
		cp.Config.Personal = p
		cp.Feedback = r.Feedback
		return &cp
	}
	for _, sp := range spaces {
		scope := lore.Scope{TenantID: tenant, UserID: sp.ID}
		reused, err := ingestRunner.reusable(ctx, scope, sp)
		if err != nil {
			return nil, err
		}
		if !reused {
			if _, err := r.Ingest.Store.DeleteScope(ctx, scope); err != nil {
				return nil, fmt.Errorf("bench: clear %s: %w", sp.ID, err)
			}
			if err := r.Ingest.Index.DeleteScope(ctx, scope); err != nil {
				return nil, fmt.Errorf("bench: clear index %s: %w", sp.ID, err)
			}
			start := time.Now()
			for _, s := range sp.Sessions {
				if err := ingestRunner.ingestSession(ctx, scope, s, &fails); err != nil {
					return nil, err
				}
			}
			ingestTime += time.Since(start)
		}
		// A rerun on reused spaces starts from no signals.
		if _, err := r.Feedback.ResetFeedback(ctx, scope, true); err != nil {
			return nil, fmt.Errorf("bench: reset feedback %s: %w", sp.ID, err)
		}
		if r.Progress != nil {
			fmt.Fprintf(r.Progress, "bench feedback: %s ingested (reused %v)\n", sp.ID, reused)
		}
		a, b := SplitQuestions(sp.Questions)
		ask := func(p *retrieve.Pipeline, q Question) (*retrieve.Response, error) {
			resp, err := p.Search(ctx, retrieve.Request{Scope: scope, Query: q.Text, TopK: MaxK, Now: q.Time})
			if err != nil {
				return nil, fmt.Errorf("bench: search %s: %w", q.ID, err)
			}
			return resp, nil
		}
		// Half A, all off, before any verdict: its baseline.
		for _, q := range a {
			resp, err := ask(pipe(variants[0].p), q)
			if err != nil {
				return nil, err
			}
			accA["off"].add(ingestRunner.rank(ds, sp.ID, resp), q.GoldTurns, q.GoldSesses)
			if err := r.dumpQuestion(sp.ID, "A", q, resp); err != nil {
				return nil, err
			}
		}
		judge := pipe(variants[len(variants)-1].p)
		for range rounds {
			for _, q := range a {
				resp, err := ask(judge, q)
				if err != nil {
					return nil, err
				}
				var usage []lore.UsageRecord
				for i, res := range resp.Results {
					if i == 10 {
						break
					}
					helpful := citesGold(res, q.GoldTurns)
					v := lore.Verdict{Scope: scope, MemoryID: res.ID, Helpful: helpful, QueryHash: lore.QueryHash(q.Text)}
					if _, err := r.Feedback.RecordVerdict(ctx, &v, on.Rule); err != nil {
						return nil, fmt.Errorf("bench: verdict: %w", err)
					}
					rep.Verdicts++
					if helpful {
						rep.Helpful++
					}
					usage = append(usage, lore.UsageRecord{Scope: scope, MemoryID: res.ID, Returned: 1, LastUsed: q.Time})
				}
				if err := r.Feedback.RecordUsage(ctx, usage); err != nil {
					return nil, fmt.Errorf("bench: usage: %w", err)
				}
			}
		}
		if r.Dump != nil {
			rows, err := r.Feedback.Successes(ctx, scope)
			if err != nil {
				return nil, err
			}
			if err := r.dumpLine(map[string]any{"type": "successes", "conv": sp.ID, "rows": rows}); err != nil {
				return nil, err
			}
		}
		for _, v := range variants {
			p := pipe(v.p)
			for _, q := range b {
				resp, err := ask(p, q)
				if err != nil {
					return nil, err
				}
				accB[v.name].add(ingestRunner.rank(ds, sp.ID, resp), q.GoldTurns, q.GoldSesses)
				if v.name == "off" {
					if err := r.dumpQuestion(sp.ID, "B", q, resp); err != nil {
						return nil, err
					}
				}
			}
			if v.name == "off" {
				continue
			}
			for _, q := range a {
				resp, err := ask(p, q)
				if err != nil {
					return nil, err
				}
				accA[v.name].add(ingestRunner.rank(ds, sp.ID, resp), q.GoldTurns, q.GoldSesses)
			}
		}
	}
	for _, v := range variants {
		rep.HalfB[v.name], rep.HalfA[v.name] = accB[v.name].scores(), accA[v.name].scores()
	}
	rep.IngestSeconds = round4(ingestTime.Seconds())
	return rep, nil
}

// WriteMarkdown writes the report's tables: turn recall_any@10, frac@10
// and nDCG@10 per variant, on half B and on half A asked again, with the
// change against all off.
func (rep *FeedbackReport) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "LoCoMo feedback simulation (%s split, %d conversations, %d rounds of verdicts on half A: %d verdicts, %d helpful)\n\n",
		rep.Split, rep.Spaces, rep.Rounds, rep.Verdicts, rep.Helpful)
	for _, half := range []struct {
		name string
		s    map[string]Scores
	}{{"half B", rep.HalfB}, {"half A asked again", rep.HalfA}} {
		fmt.Fprintf(w, "| %s | questions | turn any@10 | turn frac@10 | turn ndcg@10 | Δ any@10 | Δ frac@10 | Δ ndcg@10 |\n|---|---:|---:|---:|---:|---:|---:|---:|\n", half.name)
		off := half.s["off"]
		for _, v := range feedbackVariants(rep.Personal) {
			s := half.s[v.name]
			fmt.Fprintf(w, "| %s | %d | %.3f | %.3f | %.3f | %+.3f | %+.3f | %+.3f |\n", v.name, s.Questions,
				s.Turn[RecallAny]["10"], s.Turn[Frac]["10"], s.Turn[NDCG]["10"],
				s.Turn[RecallAny]["10"]-off.Turn[RecallAny]["10"], s.Turn[Frac]["10"]-off.Turn[Frac]["10"], s.Turn[NDCG]["10"]-off.Turn[NDCG]["10"])
		}
		fmt.Fprintln(w)
	}
}
