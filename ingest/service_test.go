package ingest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func TestAddValidation(t *testing.T) {
	long := strings.Repeat("x", lore.MaxIDLength+1)
	ok := Message{Role: "user", Content: "hi"}
	zero := time.Time{}
	cfg := testConfig()
	cfg.MaxMessages = 3
	cfg.MaxContentBytes = 10
	tests := []struct {
		name     string
		req      AddRequest
		code     string
		contains string
	}{
		{"no user or agent", AddRequest{Messages: []Message{ok}}, lore.EINVALID, "user_id or agent_id"},
		{"bad tenant", AddRequest{Scope: lore.Scope{TenantID: " t", UserID: "u"}, Messages: []Message{ok}}, lore.EINVALID, "tenant_id"},
		{"no messages", AddRequest{Scope: alice()}, lore.EINVALID, "messages is empty"},
		{"too many messages", AddRequest{Scope: alice(), Messages: []Message{ok, ok, ok, ok}}, lore.ETOOLARGE, "more than 3"},
		{"bad role", AddRequest{Scope: alice(), Messages: []Message{ok, {Role: "robot", Content: "x"}}}, lore.EINVALID, "messages[1].role"},
		{"empty content", AddRequest{Scope: alice(), Messages: []Message{ok, ok, {Role: "user", Content: " \n"}}}, lore.EINVALID, "messages[2].content is empty"},
		{"content too long", AddRequest{Scope: alice(), Messages: []Message{{Role: "user", Content: "0123456789a"}}}, lore.ETOOLARGE, "messages[0].content"},
		{"source id too long", AddRequest{Scope: alice(), Messages: []Message{{Role: "user", Content: "x", SourceID: long}}}, lore.EINVALID, "messages[0].source_id"},
		{"name with control char", AddRequest{Scope: alice(), Messages: []Message{{Role: "tool", Content: "x", Name: "a\x00b"}}}, lore.EINVALID, "messages[0].name"},
		{"zero created_at", AddRequest{Scope: alice(), Messages: []Message{{Role: "user", Content: "x", CreatedAt: &zero}}}, lore.EINVALID, "messages[0].created_at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, st, _ := newTestService(t, stubExtractor{fn: func(context.Context, lore.ExtractRequest) (*lore.Extraction, error) {
				t.Fatal("extractor called for an invalid request")
				return nil, nil
			}})
			s.Config = cfg
			_, err := s.Add(context.Background(), tt.req)
			if got := lore.ErrorCode(err); got != tt.code {
				t.Fatalf("code=%q (err %v), want %q", got, err, tt.code)
			}
			if msg := lore.ErrorMessage(err); !strings.Contains(msg, tt.contains) {
				t.Fatalf("message=%q, want it to contain %q", msg, tt.contains)
			}
			if len(st.episodes) != 0 {
				t.Fatalf("stored %d episodes for an invalid request, want 0", len(st.episodes))
			}
		})
	}
}

// conversationExtractor states, for the sample conversation, where the user
// lives and works, a relation between two named entities, a profile signal
// from the user and one from the assistant (which must be dropped).
func conversationExtractor(t *testing.T) stubExtractor {
	return stubExtractor{fn: func(_ context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		live := episodeID(t, req, "live in Paris")
		work := episodeID(t, req, "Acme")
		reply := episodeID(t, req, "suits")
		return &lore.Extraction{
			Extractor: "stub/v1",
			Entities: []lore.ExtractedEntity{
				{Name: "I", Type: "user"}, {Name: "Paris", Type: "place"}, {Name: "Acme", Type: "organization"},
			},
			Facts: []lore.ExtractedFact{
				{Subject: "I", Predicate: "lives in", Object: "Paris", ObjectIsEntity: true, Text: "Alice lives in Paris", Confidence: 0.9, EpisodeIDs: []string{live}, Resolution: lore.Resolution{Kind: "new"}},
				{Subject: "I", Predicate: "Works At", Object: "Acme", ObjectIsEntity: true, Text: "Alice works at Acme", Confidence: 0.8, EpisodeIDs: []string{work}, Resolution: lore.Resolution{Kind: "new"}},
				{Subject: "Acme", SubjectType: "organization", Predicate: "located_in", Object: "Paris", ObjectIsEntity: true, Text: "Acme is in Paris", EpisodeIDs: []string{work}},
				{Subject: "I", Predicate: "!!!", Object: "x", Text: "broken predicate"},
			},
			Profile: []lore.ProfileSignal{
				{Key: "favorite color", Value: "green", Confidence: 0.7, EpisodeIDs: []string{live}},
				{Key: "favorite food", Value: "blue cheese", Confidence: 0.7, EpisodeIDs: []string{reply}},
			},
		}, nil
	}}
}

func TestAddSyncBuildsGraph(t *testing.T) {
	ctx := context.Background()
	s, st, idx := newTestService(t, conversationExtractor(t))
	at := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	res, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: true, Sync: true, Metadata: map[string]any{"src": "chat"},
		Messages: msgs(at, "user", "I live in Paris and my favourite colour is green", "user", "I work at Acme", "assistant", "Blue suits you")})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	if len(res.EpisodeIDs) != 3 || res.JobID != "" {
		t.Fatalf("episode ids=%d job=%q, want 3 and none", len(res.EpisodeIDs), res.JobID)
	}
	wantEvents := []string{"ADD:Alice lives in Paris", "ADD:Alice works at Acme", "ADD:Acme is in Paris", "ADD:alice's favorite color is green"}
	if got := eventKinds(res.Events); !slices.Equal(got, wantEvents) {
		t.Fatalf("events=%q, want %q", got, wantEvents)
	}
	ents, _ := st.FindEntities(ctx, lore.EntityFilter{Scope: alice().WithDefaults()})
	var names []string
	for _, e := range ents {
		names = append(names, e.Type+":"+e.NormalizedName)
	}
	slices.Sort(names)
	if want := []string{"organization:acme", "place:paris", "user:alice"}; !slices.Equal(names, want) {
		t.Fatalf("entities=%q, want %q", names, want)
	}
	facts, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults()})
	if len(facts) != 4 {
		t.Fatalf("len(facts)=%d, want 4", len(facts))
	}
	for _, f := range facts {
		if f.Extractor != "stub/v1" || len(f.SourceEpisodeIDs) != 1 || f.ValidAt == nil || f.FirstSeen.IsZero() {
			t.Errorf("fact %q: extractor=%q sources=%v valid_at=%v first_seen=%v, want stub/v1, one source, both times set",
				f.Text, f.Extractor, f.SourceEpisodeIDs, f.ValidAt, f.FirstSeen)
		}
		switch f.Predicate {
		case "lives_in":
			if f.SourceEpisodeIDs[0] != res.EpisodeIDs[0] || !f.FirstSeen.Equal(at) || f.Confidence != 0.9 {
				t.Errorf("lives_in: sources=%v first_seen=%v confidence=%v, want [%s] %v 0.9", f.SourceEpisodeIDs, f.FirstSeen, f.Confidence, res.EpisodeIDs[0], at)
			}
		case "located_in":
			if f.Confidence != defaultConfidence {
				t.Errorf("located_in confidence=%v, want the default %v", f.Confidence, defaultConfidence)
			}
		case "favorite_color":
			if f.Metadata["profile"] != true || f.Object != "green" {
				t.Errorf("profile fact metadata=%v object=%q, want profile=true, green", f.Metadata, f.Object)
			}
		}
		d, ok := idx.doc(f.ID)
		if !ok || d.Kind != lore.KindFact || !strings.Contains(d.Text, f.Text) {
			t.Errorf("index doc of fact %q = %+v (found %v), want a fact doc with its text", f.Text, d, ok)
		}
	}
	eps, _ := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: alice().WithDefaults()})
	if eps[1].Metadata["src"] != "chat" || eps[1].Verbatim || !eps[1].OccurredAt.Equal(at.Add(2*time.Second)) {
		t.Errorf("episode 1 metadata=%v verbatim=%v occurred=%v, want src=chat, false, %v", eps[1].Metadata, eps[1].Verbatim, eps[1].OccurredAt, at.Add(2*time.Second))
	}
	d, _ := idx.doc(res.EpisodeIDs[1])
	if !strings.Contains(d.Text, "I work at Acme") || !strings.Contains(d.Text, "Alice works at Acme") {
		t.Errorf("episode index text=%q, want the content and its extracted fact", d.Text)
	}
}

// oneFact returns an extractor that states the given fact about the user
// in every episode of the request.
func oneFact(pred, obj, text string, res lore.Resolution, validAt *time.Time) stubExtractor {
	return stubExtractor{fn: func(_ context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		ids := make([]string, len(req.Episodes))
		for i, ep := range req.Episodes {
			ids[i] = ep.ID
		}
		return &lore.Extraction{Extractor: "stub/v1", Facts: []lore.ExtractedFact{{
			Subject: "I", Predicate: pred, Object: obj, ObjectIsEntity: true, ObjectType: "place", Text: text,
			Confidence: 0.9, EpisodeIDs: ids, Resolution: res, ValidAt: validAt,
		}}}, nil
	}}
}

func addSync(t *testing.T, s *Service, content string, at time.Time) *AddResult {
	t.Helper()
	res, err := s.Add(context.Background(), AddRequest{Scope: alice(), Infer: true, Sync: true, Messages: msgs(at, "user", content)})
	if err != nil {
		t.Fatalf("Add(%q): %v", content, err)
	}
	return res
}

func TestDedupIncrementsCount(t *testing.T) {
	ctx := context.Background()
	s, st, _ := newTestService(t, oneFact("likes", "jazz", "Alice likes jazz", lore.Resolution{Kind: "new"}, nil))
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	first := addSync(t, s, "I like jazz", t0)
	second := addSync(t, s, "jazz is great, I like it", t0.Add(time.Hour))
	if got := eventKinds(second.Events); !slices.Equal(got, []string{"MERGE:Alice likes jazz"}) {
		t.Fatalf("second events=%q, want one MERGE", got)
	}
	facts, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults(), IncludeInvalidated: true})
	if len(facts) != 1 {
		t.Fatalf("len(facts)=%d, want 1", len(facts))
	}
	f := facts[0]
	wantSrc := []string{first.EpisodeIDs[0], second.EpisodeIDs[0]}
	if f.Count != 2 || !slices.Equal(f.SourceEpisodeIDs, wantSrc) || !f.FirstSeen.Equal(t0) || !f.LastSeen.Equal(t0.Add(time.Hour)) {
		t.Fatalf("count=%d sources=%v seen=%v..%v, want 2 %v %v..%v", f.Count, f.SourceEpisodeIDs, f.FirstSeen, f.LastSeen, wantSrc, t0, t0.Add(time.Hour))
	}
}

func TestSingleValuedContradictionClosesOldFact(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(30 * 24 * time.Hour)
	s, st, _ := newTestService(t, oneFact("lives_in", "Paris", "Alice lives in Paris", lore.Resolution{Kind: "new"}, nil))
	addSync(t, s, "I live in Paris", t0)
	s.Extractor = oneFact("lives_in", "Berlin", "Alice lives in Berlin", lore.Resolution{Kind: "new"}, nil)
	res := addSync(t, s, "I moved to Berlin", t1)
	if got, want := eventKinds(res.Events), []string{"INVALIDATE:Alice lives in Paris", "ADD:Alice lives in Berlin"}; !slices.Equal(got, want) {
		t.Fatalf("events=%q, want %q", got, want)
	}
	current, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults()})
	if len(current) != 1 || current[0].Object != "Berlin" {
		t.Fatalf("current facts=%d (%v), want only Berlin", len(current), current)
	}
	all, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults(), IncludeInvalidated: true})
	if len(all) != 2 {
		t.Fatalf("facts with invalidated=%d, want 2 (both kept)", len(all))
	}
	old := all[slices.IndexFunc(all, func(f *lore.Fact) bool { return f.Object == "Paris" })]
	if old.InvalidAt == nil || !old.InvalidAt.Equal(t1) || old.ExpiredAt == nil {
		t.Fatalf("old fact invalid_at=%v expired_at=%v, want %v and set", old.InvalidAt, old.ExpiredAt, t1)
	}
	hist, _ := st.History(ctx, alice().WithDefaults(), old.ID)
	if n := len(hist); n != 2 || hist[1].Event != lore.EventInvalidate || !strings.Contains(hist[1].Reason, "Berlin") {
		t.Fatalf("history=%+v, want ADD then INVALIDATE naming Berlin", hist)
	}
}

func TestLateOlderFactDoesNotCloseNewer(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(365 * 24 * time.Hour)
	s, st, _ := newTestService(t, oneFact("lives_in", "Berlin", "Alice lives in Berlin", lore.Resolution{Kind: "new"}, nil))
	addSync(t, s, "I live in Berlin", t1)
	// An older message, imported afterwards, says where she lived before.
	s.Extractor = oneFact("lives_in", "Paris", "Alice lives in Paris", lore.Resolution{Kind: "new"}, nil)
	addSync(t, s, "I live in Paris", t0)
	current, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults()})
	if len(current) != 1 || current[0].Object != "Berlin" {
		t.Fatalf("current facts=%v, want only Berlin", current)
	}
	all, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults(), IncludeInvalidated: true})
	paris := all[slices.IndexFunc(all, func(f *lore.Fact) bool { return f.Object == "Paris" })]
	if paris.InvalidAt == nil || !paris.InvalidAt.Equal(t1) {
		t.Fatalf("Paris invalid_at=%v, want %v (ended by the Berlin fact)", paris.InvalidAt, t1)
	}
}

func TestResolutions(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		res         lore.Resolution
		pred, obj   string
		wantEvents  []string
		wantCurrent []string // objects of current facts
		wantAll     int
	}{
		{"duplicate merges into the candidate despite other wording", lore.Resolution{Kind: "duplicate", Handle: 1}, "enjoys", "coffee",
			[]string{"MERGE:Alice prefers coffee"}, []string{"coffee"}, 1},
		{"contradicts closes the candidate", lore.Resolution{Kind: "contradicts", Handle: 1}, "prefers", "tea",
			[]string{"INVALIDATE:Alice prefers coffee", "ADD:Alice prefers tea"}, []string{"tea"}, 2},
		{"unknown handle is taken as new", lore.Resolution{Kind: "contradicts", Handle: 7}, "prefers", "tea",
			[]string{"ADD:Alice prefers tea"}, []string{"coffee", "tea"}, 2},
		{"new multi-valued fact keeps the other", lore.Resolution{Kind: "new"}, "prefers", "tea",
			[]string{"ADD:Alice prefers tea"}, []string{"coffee", "tea"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, st, _ := newTestService(t, oneFact("prefers", "coffee", "Alice prefers coffee", lore.Resolution{Kind: "new"}, nil))
			addSync(t, s, "I prefer coffee", t0)
			var sawCandidates []string
			next := oneFact(tt.pred, tt.obj, "Alice "+tt.pred+" "+tt.obj, tt.res, nil)
			s.Extractor = stubExtractor{fn: func(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
				for _, f := range req.Facts {
					sawCandidates = append(sawCandidates, f.Text)
				}
				return next.fn(ctx, req)
			}}
			res := addSync(t, s, "I "+tt.pred+" "+tt.obj+" these days", t0.Add(time.Hour))
			if !slices.Equal(sawCandidates, []string{"Alice prefers coffee"}) {
				t.Fatalf("candidate facts=%q, want the coffee fact", sawCandidates)
			}
			if got := eventKinds(res.Events); !slices.Equal(got, tt.wantEvents) {
				t.Fatalf("events=%q, want %q", got, tt.wantEvents)
			}
			current, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults()})
			var objs []string
			for _, f := range current {
				objs = append(objs, f.Object)
			}
			slices.Sort(objs)
			if !slices.Equal(objs, tt.wantCurrent) {
				t.Fatalf("current objects=%q, want %q", objs, tt.wantCurrent)
			}
			all, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults(), IncludeInvalidated: true})
			if len(all) != tt.wantAll {
				t.Fatalf("len(all facts)=%d, want %d", len(all), tt.wantAll)
			}
		})
	}
}

func TestRerunCountsNothingTwice(t *testing.T) {
	ctx := context.Background()
	s, st, _ := newTestService(t, oneFact("likes", "jazz", "Alice likes jazz", lore.Resolution{Kind: "new"}, nil))
	res := addSync(t, s, "I like jazz", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	eps, _ := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: alice().WithDefaults(), IDs: res.EpisodeIDs})
	events, err := s.extractEpisodes(ctx, alice().WithDefaults(), eps)
	if err != nil {
		t.Fatalf("re-extract: %v", err)
	}
	if got := eventKinds(events); !slices.Equal(got, []string{"NONE:Alice likes jazz"}) {
		t.Fatalf("events=%q, want one NONE", got)
	}
	facts, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults()})
	if len(facts) != 1 || facts[0].Count != 1 {
		t.Fatalf("facts=%d count=%d, want 1 fact counted once", len(facts), facts[0].Count)
	}
}

func TestVerbatimStoresWithoutExtracting(t *testing.T) {
	ctx := context.Background()
	s, st, idx := newTestService(t, stubExtractor{fn: func(context.Context, lore.ExtractRequest) (*lore.Extraction, error) {
		t.Fatal("extractor called with infer=false")
		return nil, nil
	}})
	s.Embedder = hashEmbedder{name: "hash", dim: 32}
	res, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: false, Messages: []Message{{Role: "user", Content: "Remember the door code 4711", SourceID: "D1:1"}}})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	if res.JobID != "" || len(res.Events) != 1 || res.Events[0].Event != lore.EventAdd || res.Events[0].Type != lore.KindEpisode || res.Events[0].ID != res.EpisodeIDs[0] {
		t.Fatalf("result=%+v, want one ADD episode event and no job", res)
	}
	if len(st.jobs) != 0 {
		t.Fatalf("jobs=%d, want 0", len(st.jobs))
	}
	eps, _ := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: alice().WithDefaults()})
	if len(eps) != 1 || !eps[0].Verbatim || eps[0].SourceID != "D1:1" {
		t.Fatalf("episodes=%+v, want one verbatim with source D1:1", eps)
	}
	d, ok := idx.doc(res.EpisodeIDs[0])
	if !ok || len(d.Vector) != 32 || d.Text != "Remember the door code 4711" {
		t.Fatalf("index doc=%+v, want the content with a 32-d vector", d)
	}
}

func TestAsyncJobCompletes(t *testing.T) {
	ctx := context.Background()
	s, st, _ := newTestService(t, oneFact("likes", "jazz", "Alice likes jazz", lore.Resolution{Kind: "new"}, nil))
	res, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: true, Messages: msgs(time.Now(), "user", "I like jazz")})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	if res.JobID == "" || len(res.Events) != 0 {
		t.Fatalf("result=%+v, want a job and no events", res)
	}
	if facts, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults()}); len(facts) != 0 {
		t.Fatalf("facts before the worker ran=%d, want 0", len(facts))
	}
	runWorkers(t, s)
	job := waitJob(t, st, lore.DefaultTenant, res.JobID, lore.JobDone)
	if job.Attempts != 1 || job.Error != "" || len(job.Events) != 1 || job.Events[0].Event != lore.EventAdd {
		t.Fatalf("job attempts=%d error=%q events=%v, want 1, none, one ADD", job.Attempts, job.Error, job.Events)
	}
}

// flakyExtractor fails with err the first fails calls, then succeeds.
func flakyExtractor(fails int, err error, calls *int) stubExtractor {
	ok := oneFact("likes", "jazz", "Alice likes jazz", lore.Resolution{Kind: "new"}, nil)
	return stubExtractor{fn: func(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		*calls++
		if *calls <= fails {
			return nil, err
		}
		return ok.fn(ctx, req)
	}}
}

func TestJobFailures(t *testing.T) {
	unavailable := lore.Errorf(lore.EUNAVAILABLE, "model endpoint returned 503")
	tests := []struct {
		name         string
		fails        int
		err          error
		maxAttempts  int
		wantStatus   lore.JobStatus
		wantAttempts int
		wantCalls    int
	}{
		{"retryable error then success", 2, unavailable, 5, lore.JobDone, 3, 3},
		{"dead letter after max attempts", 100, unavailable, 3, lore.JobFailed, 3, 3},
		{"plain error is retried", 1, errors.New("connection reset"), 3, lore.JobDone, 2, 2},
		{"invalid input fails at once", 100, lore.Errorf(lore.EINVALID, "episode is not English"), 5, lore.JobFailed, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			s, st, _ := newTestService(t, flakyExtractor(tt.fails, tt.err, &calls))
			s.Config.MaxAttempts = tt.maxAttempts
			s.Config.Workers = 1
			res, err := s.Add(context.Background(), AddRequest{Scope: alice(), Infer: true, Messages: msgs(time.Now(), "user", "I like jazz")})
			if err != nil {
				t.Fatalf("Add: %v", err)
			}
			runWorkers(t, s)
			job := waitJob(t, st, lore.DefaultTenant, res.JobID, tt.wantStatus)
			if job.Attempts != tt.wantAttempts || calls != tt.wantCalls {
				t.Fatalf("attempts=%d calls=%d, want %d and %d", job.Attempts, calls, tt.wantAttempts, tt.wantCalls)
			}
			if tt.wantStatus == lore.JobFailed && !strings.Contains(job.Error, lore.ErrorMessage(tt.err)) {
				t.Fatalf("job error=%q, want it to contain %q", job.Error, lore.ErrorMessage(tt.err))
			}
			if tt.wantStatus == lore.JobDone && job.Error != "" {
				t.Fatalf("done job error=%q, want empty", job.Error)
			}
		})
	}
}

func TestRetryJobRequeuesDeadLetter(t *testing.T) {
	ctx := context.Background()
	calls := 0
	s, st, _ := newTestService(t, flakyExtractor(2, lore.Errorf(lore.EUNAVAILABLE, "down"), &calls))
	s.Config.MaxAttempts = 2
	res, err := s.Add(ctx, AddRequest{Scope: alice(), Infer: true, Messages: msgs(time.Now(), "user", "I like jazz")})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	if _, err := s.RetryJob(ctx, "", res.JobID); lore.ErrorCode(err) != lore.ECONFLICT {
		t.Fatalf("RetryJob of a queued job: err=%v, want ECONFLICT", err)
	}
	if _, err := s.RetryJob(ctx, "", "no-such-job"); lore.ErrorCode(err) != lore.ENOTFOUND {
		t.Fatalf("RetryJob of an unknown job: err=%v, want ENOTFOUND", err)
	}
	runWorkers(t, s)
	waitJob(t, st, lore.DefaultTenant, res.JobID, lore.JobFailed)
	job, err := s.RetryJob(ctx, lore.DefaultTenant, res.JobID)
	if err != nil {
		t.Fatalf("RetryJob: %v", err)
	}
	if job.Status != lore.JobQueued || job.Attempts != 0 {
		t.Fatalf("retried job status=%s attempts=%d, want queued 0", job.Status, job.Attempts)
	}
	done := waitJob(t, st, lore.DefaultTenant, res.JobID, lore.JobDone)
	if done.Attempts != 1 || done.Error != "" {
		t.Fatalf("after retry attempts=%d error=%q, want 1 and none", done.Attempts, done.Error)
	}
}

func TestRestartResumesJobs(t *testing.T) {
	ctx := context.Background()
	st, idx := newMemStore(), newMemIndex()
	ext := oneFact("likes", "jazz", "Alice likes jazz", lore.Resolution{Kind: "new"}, nil)
	first := &Service{Store: st, Index: idx, Extractor: ext, Config: testConfig(), Logger: quietLogger()}
	queued, err := first.Add(ctx, AddRequest{Scope: alice(), Infer: true, Messages: msgs(time.Now(), "user", "I like jazz")})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	running, err := first.Add(ctx, AddRequest{Scope: lore.Scope{UserID: "bob"}, Infer: true, Messages: msgs(time.Now(), "user", "I like jazz too")})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	// A worker claims bob's job and dies before saving it: the job stays
	// running until its lease runs out.
	crashed, err := st.ClaimJob(ctx, lore.ClaimRequest{Now: time.Now(), Lease: time.Millisecond})
	if err != nil {
		t.Fatalf("ClaimJob: %v", err)
	}
	// A worker that is shut down mid-run hands its job back.
	workerCtx, cancel := context.WithCancel(ctx)
	blocked := &Service{Store: st, Index: idx, Config: testConfig(), Logger: quietLogger(), Extractor: stubExtractor{fn: func(ctx context.Context, _ lore.ExtractRequest) (*lore.Extraction, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	}}}
	if err := blocked.RunWorkers(workerCtx); err != nil {
		t.Fatalf("RunWorkers: %v", err)
	}
	other := queued.JobID
	if crashed.ID == queued.JobID {
		other = running.JobID
	}
	handedBack, _ := st.GetJob(ctx, lore.DefaultTenant, other)
	if handedBack.Status != lore.JobQueued || handedBack.Attempts != 0 {
		t.Fatalf("interrupted job status=%s attempts=%d, want queued 0", handedBack.Status, handedBack.Attempts)
	}

	second := &Service{Store: st, Index: idx, Extractor: ext, Config: testConfig(), Logger: quietLogger()}
	runWorkers(t, second)
	for _, id := range []string{queued.JobID, running.JobID} {
		waitJob(t, st, lore.DefaultTenant, id, lore.JobDone)
	}
	for _, u := range []string{"alice", "bob"} {
		if facts, _ := st.FindFacts(ctx, lore.FactFilter{Scope: lore.Scope{TenantID: lore.DefaultTenant, UserID: u}}); len(facts) != 1 {
			t.Errorf("%s has %d facts after restart, want 1", u, len(facts))
		}
	}
}

func TestMessageTimes(t *testing.T) {
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	may1, may2 := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	at := func(t time.Time) *time.Time { return &t }
	tests := []struct {
		name string
		msgs []Message
		want []time.Time
	}{
		{"none timed: now", []Message{{}, {}}, []time.Time{now, now}},
		{"a reply takes its question's time", []Message{{CreatedAt: at(may1)}, {}}, []time.Time{may1, may1}},
		{"each follows the one before", []Message{{CreatedAt: at(may1)}, {}, {CreatedAt: at(may2)}, {}}, []time.Time{may1, may1, may2, may2}},
		{"before any timed one: the first timed", []Message{{}, {CreatedAt: at(may2)}}, []time.Time{may2, may2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := messageTimes(tt.msgs, now)
			if !slices.EqualFunc(got, tt.want, time.Time.Equal) {
				t.Errorf("messageTimes = %v, want %v", got, tt.want)
			}
		})
	}
}
