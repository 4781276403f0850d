package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// ProfileSet is a profile benchmark file (fixtures/profile/README.md):
// notes every user holds, and users with dated sessions, the searches they
// made, their labelled profile and their questions.
type ProfileSet struct {
	Description string `json:"description"`
	Shared      []struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	} `json:"shared"`
	Users []ProfileUser `json:"users"`
}

// ProfileUser is one user of a ProfileSet.
type ProfileUser struct {
	ID       string `json:"id"`
	Sessions []struct {
		Date     time.Time `json:"date"`
		Messages []struct {
			Role     string `json:"role"`
			Content  string `json:"content"`
			SourceID string `json:"source_id"`
		} `json:"messages"`
	} `json:"sessions"`
	Searches []string            `json:"searches"`
	Profile  []lore.ProfileEntry `json:"profile"` // the labels: key and value
	Queries  []ProfileQuery      `json:"queries"`
}

// ProfileQuery is a question of a ProfileUser: "personal" (its best answers
// depend on the user) or "factual" (must come back unchanged), with the
// source ids of the memories that answer it ("shared:<id>" or a turn's).
type ProfileQuery struct {
	Query    string   `json:"query"`
	Kind     string   `json:"kind"`
	Relevant []string `json:"relevant"`
}

// LoadProfileSet reads a profile benchmark file.
func LoadProfileSet(path string) (*ProfileSet, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var set ProfileSet
	if err := json.Unmarshal(raw, &set); err != nil {
		return nil, err
	}
	if len(set.Users) == 0 {
		return nil, fmt.Errorf("no users")
	}
	return &set, nil
}

// ProfileRunner runs `lore bench profile`.
type ProfileRunner struct {
	Ingest *ingest.Service
	// Pipeline is the default pipeline (profile-aware retrieval off); the
	// personalized run copies it with Personal.
	Pipeline *retrieve.Pipeline
	Personal retrieve.ProfileConfig
	// Tenant separates runs from other data; empty means "bench-profile".
	Tenant string
	// LatencyPasses is how many times each query is timed with inference
	// off and with it on (0: 3).
	LatencyPasses int
	Progress      io.Writer
}

// ProfileReport is what `lore bench profile` reports.
type ProfileReport struct {
	Dataset  string                 `json:"dataset"`
	Data     string                 `json:"data"`
	Users    int                    `json:"users"`
	Embedder string                 `json:"embedder"`
	Personal retrieve.ProfileConfig `json:"personal"`
	Accuracy ProfileAccuracy        `json:"accuracy"`
	NDCG5    struct {
		Plain        float64 `json:"plain"`
		Personalized float64 `json:"personalized"`
		Gain         float64 `json:"gain"`
		Queries      int     `json:"queries"`
	} `json:"ndcg@5"`
	Factual struct {
		Queries        int      `json:"queries"`
		Changed        int      `json:"changed"`
		Unique         int      `json:"classified_unique"`
		ChangedQueries []string `json:"changed_queries,omitempty"`
	} `json:"factual"`
	Latency struct {
		Searches     int     `json:"searches"`
		InferenceOff Latency `json:"inference_off_ms"`
		InferenceOn  Latency `json:"inference_on_ms"`
		DeltaP95     float64 `json:"delta_p95_ms"`
		// MedianPairDelta is the median of on − off over the pairs.
		MedianPairDelta float64 `json:"median_pair_delta_ms"`
		Jobs            int     `json:"profile_jobs"`
	} `json:"latency"`
	IngestSeconds float64 `json:"ingest_seconds"`
}

// ProfileAccuracy compares the learned profiles with the labels.
type ProfileAccuracy struct {
	Labels    int      `json:"labels"`
	Entries   int      `json:"entries"`
	Right     int      `json:"right"`
	Wrong     int      `json:"wrong"`
	Missed    int      `json:"missed"`
	Precision float64  `json:"precision"`
	Recall    float64  `json:"recall"`
	WrongList []string `json:"wrong_entries,omitempty"`
	MissList  []string `json:"missed_labels,omitempty"`
}

// ProfileMatch reports whether a learned entry stands for a label: the same
// key and the same value, or one value's words holding the other's
// ("staff nurse" for "nurse").
func ProfileMatch(e, label lore.ProfileEntry) bool {
	if e.Key != label.Key {
		return false
	}
	a, b := " "+lore.NormalizeProfileValue(e.Value)+" ", " "+lore.NormalizeProfileValue(label.Value)+" "
	return a == b || strings.Contains(a, b) || strings.Contains(b, a)
}

// Run ingests each user (sessions through the rules extractor, the shared
// notes verbatim), runs their searches through query inference and the
// profile job queue, then scores the profiles, asks every question of the
// plain and the personalized pipeline, and times searches with inference
// off and on.
func (r *ProfileRunner) Run(ctx context.Context, set *ProfileSet) (*ProfileReport, error) {
	tenant := r.Tenant
	if tenant == "" {
		tenant = "bench-profile"
	}
	rep := &ProfileReport{Dataset: "profile", Users: len(set.Users), Personal: r.Personal, Embedder: "none"}
	if r.Pipeline.Embedder != nil {
		rep.Embedder = r.Pipeline.Embedder.Info().Name
	}
	if err := r.Personal.Validate(); err != nil {
		return nil, err
	}
	ps, ok := r.Ingest.Store.(lore.ProfileStore)
	if !ok {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "the store keeps no profiles")
	}
	plain := *r.Pipeline
	plain.Config.Profile = retrieve.DefaultConfig().Profile
	personal := plain
	personal.Config.Profile = r.Personal

	wctx, stop := context.WithCancel(ctx)
	var workers sync.WaitGroup
	workers.Go(func() { _ = r.Ingest.RunWorkers(wctx) })
	defer func() { stop(); workers.Wait() }()

	start := time.Now()
	var jobs []string
	for i, u := range set.Users {
		scope := lore.Scope{TenantID: tenant, UserID: u.ID}
		if err := r.ingestUser(ctx, scope, set, u); err != nil {
			return nil, err
		}
		for _, q := range u.Searches {
			id, err := r.Ingest.InferProfileFromQuery(ctx, scope, q)
			if err != nil {
				return nil, err
			}
			if id != "" {
				jobs = append(jobs, id)
			}
		}
		if r.Progress != nil {
			fmt.Fprintf(r.Progress, "\ringest %d/%d users", i+1, len(set.Users))
		}
	}
	if err := r.waitJobs(ctx, tenant, jobs); err != nil {
		return nil, err
	}
	rep.IngestSeconds = math.Round(time.Since(start).Seconds()*10) / 10
	if r.Progress != nil {
		fmt.Fprintln(r.Progress)
	}

	var nPlain, nPers float64
	for _, u := range set.Users {
		scope := lore.Scope{TenantID: tenant, UserID: u.ID}
		got, err := ps.ProfileEntries(ctx, scope)
		if err != nil {
			return nil, err
		}
		scoreProfile(&rep.Accuracy, u, got)
		now := u.Sessions[len(u.Sessions)-1].Date.Add(24 * time.Hour)
		for _, q := range u.Queries {
			req := retrieve.Request{Scope: scope, Query: q.Query, TopK: 10, Now: now}
			a, err := plain.Search(ctx, req)
			if err != nil {
				return nil, err
			}
			b, err := personal.Search(ctx, req)
			if err != nil {
				return nil, err
			}
			switch q.Kind {
			case "personal":
				rep.NDCG5.Queries++
				nPlain += ndcgAt(a.Results, q.Relevant, 5)
				nPers += ndcgAt(b.Results, q.Relevant, 5)
			case "factual":
				rep.Factual.Queries++
				if retrieve.UniqueAnswer(q.Query) {
					rep.Factual.Unique++
				}
				if !slices.Equal(resultIDs(a.Results), resultIDs(b.Results)) {
					rep.Factual.Changed++
					rep.Factual.ChangedQueries = append(rep.Factual.ChangedQueries, u.ID+": "+q.Query)
				}
			default:
				return nil, fmt.Errorf("bench: user %s: query kind %q", u.ID, q.Kind)
			}
		}
	}
	a := &rep.Accuracy
	a.Missed = a.Labels - a.Right
	if a.Entries > 0 {
		a.Precision = round4(float64(a.Entries-a.Wrong) / float64(a.Entries))
	}
	if a.Labels > 0 {
		a.Recall = round4(float64(a.Right) / float64(a.Labels))
	}
	if rep.NDCG5.Queries > 0 {
		rep.NDCG5.Plain = round4(nPlain / float64(rep.NDCG5.Queries))
		rep.NDCG5.Personalized = round4(nPers / float64(rep.NDCG5.Queries))
		rep.NDCG5.Gain = round4(rep.NDCG5.Personalized - rep.NDCG5.Plain)
	}
	if err := r.timeSearches(ctx, tenant, set, &plain, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// ingestUser stores the shared notes (verbatim, dated before the first
// session) and the sessions (extracted, sync).
func (r *ProfileRunner) ingestUser(ctx context.Context, scope lore.Scope, set *ProfileSet, u ProfileUser) error {
	first := u.Sessions[0].Date.Add(-30 * 24 * time.Hour)
	var notes []ingest.Message
	for i, n := range set.Shared {
		at := first.Add(time.Duration(i) * time.Minute)
		notes = append(notes, ingest.Message{Role: "user", Content: n.Text, SourceID: "shared:" + n.ID, CreatedAt: &at})
	}
	if _, err := r.Ingest.Add(ctx, ingest.AddRequest{Scope: scope, Infer: false, Messages: notes}); err != nil {
		return fmt.Errorf("bench: user %s notes: %w", u.ID, err)
	}
	for _, s := range u.Sessions {
		var msgs []ingest.Message
		for j, m := range s.Messages {
			at := s.Date.Add(time.Duration(j) * time.Second)
			msgs = append(msgs, ingest.Message{Role: m.Role, Content: m.Content, SourceID: m.SourceID, CreatedAt: &at})
		}
		if _, err := r.Ingest.Add(ctx, ingest.AddRequest{Scope: scope, Infer: true, Sync: true, Messages: msgs}); err != nil {
			return fmt.Errorf("bench: user %s: %w", u.ID, err)
		}
	}
	return nil
}

// waitJobs waits until every job is done; a failed one is an error.
func (r *ProfileRunner) waitJobs(ctx context.Context, tenant string, ids []string) error {
	for _, id := range ids {
		for {
			job, err := r.Ingest.Store.GetJob(ctx, tenant, id)
			if err != nil {
				return err
			}
			if job.Status == lore.JobDone {
				break
			}
			if job.Status == lore.JobFailed {
				return fmt.Errorf("bench: profile job %s failed: %s", id, job.Error)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	return nil
}

// timeSearches times every question and search of every user through the
// plain pipeline, passes times. Each search is timed twice in a row, once
// with inference off and once on (which first alternates), so that the
// host's load drifts alike on both sides: "on" is what the API does after
// a search (the query's cues read and a profile job queued, off the
// search's path). The queued jobs run meanwhile on the workers, so their
// work weighs on the searches of both sides.
func (r *ProfileRunner) timeSearches(ctx context.Context, tenant string, set *ProfileSet, p *retrieve.Pipeline, rep *ProfileReport) error {
	passes := r.LatencyPasses
	if passes <= 0 {
		passes = 3
	}
	var off, on, diff []float64
	var bg sync.WaitGroup
	var mu sync.Mutex
	var jobs []string
	for pass := 0; pass < passes; pass++ {
		for _, u := range set.Users {
			scope := lore.Scope{TenantID: tenant, UserID: u.ID}
			now := u.Sessions[len(u.Sessions)-1].Date.Add(24 * time.Hour)
			var qs []string
			for _, q := range u.Queries {
				qs = append(qs, q.Query)
			}
			qs = append(qs, u.Searches...)
			for i, q := range qs {
				var pair [2]float64
				for k := 0; k < 2; k++ {
					infer := (k+i+pass)%2 == 1
					t0 := time.Now()
					if _, err := p.Search(ctx, retrieve.Request{Scope: scope, Query: q, TopK: 10, Now: now}); err != nil {
						return err
					}
					if infer {
						bg.Go(func() {
							id, err := r.Ingest.InferProfileFromQuery(context.WithoutCancel(ctx), scope, q)
							if err == nil && id != "" {
								mu.Lock()
								jobs = append(jobs, id)
								mu.Unlock()
							}
						})
					}
					ms := float64(time.Since(t0).Microseconds()) / 1000
					pair[b2i(infer)] = ms
				}
				off, on, diff = append(off, pair[0]), append(on, pair[1]), append(diff, pair[1]-pair[0])
			}
		}
	}
	bg.Wait()
	if err := r.waitJobs(ctx, tenant, jobs); err != nil {
		return err
	}
	rep.Latency.Searches = len(off)
	rep.Latency.InferenceOff = percentiles(off)
	rep.Latency.InferenceOn = percentiles(on)
	rep.Latency.DeltaP95 = math.Round((rep.Latency.InferenceOn.P95-rep.Latency.InferenceOff.P95)*100) / 100
	rep.Latency.MedianPairDelta = percentiles(diff).P50
	rep.Latency.Jobs = len(jobs)
	return nil
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// scoreProfile counts a user's learned entries against their labels.
func scoreProfile(a *ProfileAccuracy, u ProfileUser, got []lore.ProfileEntry) {
	a.Labels += len(u.Profile)
	a.Entries += len(got)
	for _, l := range u.Profile {
		if slices.ContainsFunc(got, func(e lore.ProfileEntry) bool { return ProfileMatch(e, l) }) {
			a.Right++
		} else {
			a.MissList = append(a.MissList, u.ID+": "+l.Key+"="+l.Value)
		}
	}
	for _, e := range got {
		if !slices.ContainsFunc(u.Profile, func(l lore.ProfileEntry) bool { return ProfileMatch(e, l) }) {
			a.Wrong++
			a.WrongList = append(a.WrongList, fmt.Sprintf("%s: %s=%s (%s %.2f)", u.ID, e.Key, e.Value, e.Source, e.Confidence))
		}
	}
}

// ndcgAt is nDCG@k with binary relevance: a result is relevant when its
// episode's source id, or one of a fact's shown sources', is in relevant
// and not already counted above it.
func ndcgAt(results []retrieve.Result, relevant []string, k int) float64 {
	want := map[string]bool{}
	for _, id := range relevant {
		want[id] = true
	}
	seen := map[string]bool{}
	var dcg float64
	for i, r := range results {
		if i == k {
			break
		}
		var ids []string
		if r.Episode != nil {
			ids = append(ids, r.Episode.SourceID)
		}
		for _, s := range r.Sources {
			ids = append(ids, s.SourceID)
		}
		for _, id := range ids {
			if want[id] && !seen[id] {
				seen[id] = true
				dcg += 1 / math.Log2(float64(i+2))
				break
			}
		}
	}
	var idcg float64
	for i := 0; i < min(k, len(want)); i++ {
		idcg += 1 / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// resultIDs returns the ids of results in order.
func resultIDs(rs []retrieve.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// WriteMarkdown prints the report for people.
func (rep *ProfileReport) WriteMarkdown(w io.Writer) {
	a := rep.Accuracy
	fmt.Fprintf(w, "profile benchmark: %d users, embedder %s, ingest %.1f s\n\n", rep.Users, rep.Embedder, rep.IngestSeconds)
	fmt.Fprintf(w, "| profile | labels | entries | right | wrong | missed | precision | recall |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(w, "| offline rules | %d | %d | %d | %d | %d | %.3f | %.3f |\n\n", a.Labels, a.Entries, a.Right, a.Wrong, a.Missed, a.Precision, a.Recall)
	fmt.Fprintf(w, "| retrieval | nDCG@5 plain | nDCG@5 personalized | gain | personal queries | factual queries | factual changed | classified unique |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(w, "| blend=%v α=%.2f rerank=%v w=%.2f evidence=%v w=%.2f | %.3f | %.3f | %+.3f | %d | %d | %d | %d |\n\n", rep.Personal.Blend, rep.Personal.Alpha, rep.Personal.Rerank, rep.Personal.RerankWeight, rep.Personal.Evidence, rep.Personal.EvidenceWeight,
		rep.NDCG5.Plain, rep.NDCG5.Personalized, rep.NDCG5.Gain, rep.NDCG5.Queries, rep.Factual.Queries, rep.Factual.Changed, rep.Factual.Unique)
	l := rep.Latency
	fmt.Fprintf(w, "| search latency (%d searches per side) | p50 ms | p95 ms | p99 ms |\n|---|---:|---:|---:|\n", l.Searches)
	fmt.Fprintf(w, "| inference off | %.2f | %.2f | %.2f |\n| inference on (%d profile jobs) | %.2f | %.2f | %.2f |\n\np95 moves %+.2f ms with inference on; median paired difference %+.2f ms.\n",
		l.InferenceOff.P50, l.InferenceOff.P95, l.InferenceOff.P99, l.Jobs, l.InferenceOn.P50, l.InferenceOn.P95, l.InferenceOn.P99, l.DeltaP95, l.MedianPairDelta)
	lists := []struct {
		title string
		items []string
	}{{"wrong entries", a.WrongList}, {"missed labels", a.MissList}, {"changed factual rankings", rep.Factual.ChangedQueries}}
	for _, li := range lists {
		if len(li.items) == 0 {
			continue
		}
		sort.Strings(li.items)
		fmt.Fprintf(w, "\n%s:\n", li.title)
		for _, s := range li.items {
			fmt.Fprintf(w, "- %s\n", s)
		}
	}
}
