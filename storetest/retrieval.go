package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// RetrievalFixture is the file RunRetrieval ingests and queries, relative to
// the module root.
const RetrievalFixture = "fixtures/retrieval/conversation.json"

// RetrievalTopK is how far down the results a query's expected memory may
// be found.
const RetrievalTopK = 3

// retrievalFixture is the shape of RetrievalFixture.
type retrievalFixture struct {
	Now     time.Time        `json:"now"`
	Primary retrievalUser    `json:"primary"`
	Other   retrievalUser    `json:"other"`
	Queries []retrievalQuery `json:"queries"`
}

// retrievalUser is one user's conversation. Markers are words that only
// this user's conversation holds, so a result showing one in another user's
// search crossed scopes.
type retrievalUser struct {
	UserID   string             `json:"user_id"`
	Markers  []string           `json:"markers"`
	Sessions []retrievalSession `json:"sessions"`
}

// retrievalSession is one dated batch of messages, ingested by one Add.
type retrievalSession struct {
	OccurredAt time.Time        `json:"occurred_at"`
	Messages   []ingest.Message `json:"messages"`
}

// retrievalQuery is a search of the primary user's memory and the text its
// expected memory contains.
type retrievalQuery struct {
	Name  string `json:"name"`
	Query string `json:"query"`
	Want  string `json:"want"`
}

// RetrievalBackend names a store and index pair for CompareRetrieval.
type RetrievalBackend struct {
	Name string
	Open func(testing.TB) (lore.Store, lore.Index)
}

// RunRetrieval runs the retrieval conformance suite against one backend
// combination: it ingests RetrievalFixture for two users of one tenant
// through ingest.Service with the rules extractor and a deterministic
// embedder, then searches through retrieve.Pipeline. Each query's expected
// memory must be in the top RetrievalTopK (backend/Retrieval/Top3/Name), and
// no result, source or linked entity of one user may belong to or show the
// details of the other (backend/Retrieval/ScopeIsolation/...). open is
// called once and registers its own cleanup.
func RunRetrieval(t *testing.T, backend string, open func(testing.TB) (lore.Store, lore.Index)) {
	t.Helper()
	fx := loadRetrievalFixture(t)
	st, idx := open(t)
	w := ingestRetrieval(t, fx, st, idx)
	s := suite{t: t, backend: backend}

	for _, q := range fx.Queries {
		s.run("Retrieval/Top3/"+q.Name, func(t *testing.T) {
			resp := w.search(t, w.primary, q.Query)
			t.Logf("query %q: top %d %s", q.Query, RetrievalTopK, describeResults(resp.Results, RetrievalTopK))
			if rank := rankOf(resp.Results, q.Want); rank < 0 || rank >= RetrievalTopK {
				t.Errorf("query %q: %q at rank %d (0-based, -1: absent), want within the top %d; got %s",
					q.Query, q.Want, rank, RetrievalTopK, describeResults(resp.Results, RetrievalTopK+2))
			}
		})
	}

	users := []struct {
		name    string
		scope   lore.Scope
		foreign []string // the other user's marker words
	}{
		{"Primary", w.primary, fx.Other.Markers},
		{"Other", w.other, fx.Primary.Markers},
	}
	for _, u := range users {
		s.run("Retrieval/ScopeIsolation/"+u.name, func(t *testing.T) {
			queries := make([]string, 0, len(fx.Queries)+len(u.foreign))
			for _, q := range fx.Queries {
				queries = append(queries, q.Query)
			}
			// The other user's own words are the hardest test: they find
			// nothing in this scope unless a search leaks.
			queries = append(queries, u.foreign...)
			for _, q := range queries {
				resp := w.search(t, u.scope, q)
				checkIsolated(t, q, u.scope, resp, u.foreign)
			}
		})
	}

	// The other user's memory holds its own details, so isolation is not
	// vacuous: a search there does find them.
	s.run("Retrieval/ScopeIsolation/OtherFindsOwn", func(t *testing.T) {
		for _, m := range fx.Other.Markers {
			resp := w.search(t, w.other, m)
			if rankOf(resp.Results, m) < 0 {
				t.Errorf("query %q in %s: no result mentions it, want the user's own memory; got %s",
					m, describe(w.other), describeResults(resp.Results, RetrievalTopK))
			}
		}
	})
}

// CompareRetrieval ingests RetrievalFixture into two backend combinations
// and compares, query by query, the texts of their top RetrievalTopK
// memories (ids differ between backends, texts do not). It logs every
// difference and fails unless both find every expected memory in their top
// RetrievalTopK and agree on the top memory's text for at least minTop1 of
// the queries (0..1). Subtests are named a.Name+"+"+b.Name+"/Compare/...".
func CompareRetrieval(t *testing.T, a, b RetrievalBackend, minTop1 float64) {
	t.Helper()
	fx := loadRetrievalFixture(t)
	sa, ia := a.Open(t)
	sb, ib := b.Open(t)
	wa := ingestRetrieval(t, fx, sa, ia)
	wb := ingestRetrieval(t, fx, sb, ib)
	t.Run(a.Name+"+"+b.Name+"/Compare/TopMemories", func(t *testing.T) {
		agree := 0
		for _, q := range fx.Queries {
			respA, respB := wa.searchExplain(t, wa.primary, q.Query), wb.searchExplain(t, wb.primary, q.Query)
			ra, rb := topTexts(respA.Results, RetrievalTopK), topTexts(respB.Results, RetrievalTopK)
			if sameTurn(respA.Results, respB.Results) {
				agree++
			}
			if !slices.Equal(ra, rb) {
				t.Logf("query %q differs:\n  %s: %s\n  %s: %s", q.Query,
					a.Name, explainResults(respA.Results, RetrievalTopK), b.Name, explainResults(respB.Results, RetrievalTopK))
			}
			for _, side := range []struct {
				name  string
				texts []string
			}{{a.Name, ra}, {b.Name, rb}} {
				if !slices.ContainsFunc(side.texts, func(s string) bool { return containsFold(s, q.Want) }) {
					t.Errorf("query %q: %s top %d=%q, want one containing %q", q.Query, side.name, RetrievalTopK, side.texts, q.Want)
				}
			}
		}
		share := float64(agree) / float64(len(fx.Queries))
		t.Logf("same top-1 memory (by source turn) on %d of %d queries (%.2f)", agree, len(fx.Queries), share)
		if share < minTop1 {
			t.Errorf("same top-1 memory on %.2f of the queries, want at least %.2f", share, minTop1)
		}
	})
}

// retrievalWorld is a fixture ingested into one backend combination.
type retrievalWorld struct {
	pipeline *retrieve.Pipeline
	now      time.Time
	primary  lore.Scope
	other    lore.Scope
}

// search runs one query with the fixture's clock and fails the test on error.
func (w *retrievalWorld) search(t *testing.T, sc lore.Scope, query string) *retrieve.Response {
	t.Helper()
	resp, err := w.pipeline.Search(ctxFor(t), retrieve.Request{Scope: sc, Query: query, TopK: 10, QueryTime: w.now})
	if err != nil {
		t.Fatalf("Search(%q) in %s: %v", query, describe(sc), err)
	}
	return resp
}

// searchExplain is search with per-signal scores.
func (w *retrievalWorld) searchExplain(t *testing.T, sc lore.Scope, query string) *retrieve.Response {
	t.Helper()
	resp, err := w.pipeline.Search(ctxFor(t), retrieve.Request{Scope: sc, Query: query, TopK: 10, QueryTime: w.now, Explain: true})
	if err != nil {
		t.Fatalf("Search(%q) in %s: %v", query, describe(sc), err)
	}
	return resp
}

// ingestRetrieval ingests both users' conversations of fx into a fresh
// tenant of st and idx, synchronously, and returns the pipeline to query
// them. It removes what it wrote when the test ends.
func ingestRetrieval(t *testing.T, fx *retrievalFixture, st lore.Store, idx lore.Index) *retrievalWorld {
	t.Helper()
	tenant := newTenant()
	w := &retrievalWorld{
		now:     fx.Now,
		primary: lore.Scope{TenantID: tenant, UserID: fx.Primary.UserID},
		other:   lore.Scope{TenantID: tenant, UserID: fx.Other.UserID},
	}
	cleanupStore(t, st, w.primary, w.other)
	cleanupIndex(t, idx, w.primary, w.other)
	emb := HashEmbedder{}
	clock := func() time.Time { return fx.Now }
	svc := &ingest.Service{Store: st, Index: idx, Embedder: emb, Extractor: rules.New(), Now: clock}
	w.pipeline = &retrieve.Pipeline{Graph: st, Index: idx, Embedder: emb, Config: retrieve.DefaultConfig(), Now: clock}

	ctx := ctxFor(t)
	for _, u := range []struct {
		scope lore.Scope
		user  retrievalUser
	}{{w.primary, fx.Primary}, {w.other, fx.Other}} {
		for i, sess := range u.user.Sessions {
			msgs := slices.Clone(sess.Messages)
			for j := range msgs {
				// Turns of a session are a few seconds apart, in order.
				at := sess.OccurredAt.Add(time.Duration(j) * 10 * time.Second)
				msgs[j].CreatedAt = &at
			}
			res, err := svc.Add(ctx, ingest.AddRequest{Scope: u.scope, Messages: msgs, Infer: true, Sync: true})
			if err != nil {
				t.Fatalf("ingest %s session %d: %v", describe(u.scope), i+1, err)
			}
			if len(res.EpisodeIDs) != len(msgs) {
				t.Fatalf("ingest %s session %d: %d episodes, want %d", describe(u.scope), i+1, len(res.EpisodeIDs), len(msgs))
			}
		}
	}
	return w
}

// checkIsolated fails unless every result, source and linked entity of resp
// belongs to sc and none shows one of the foreign words.
func checkIsolated(t *testing.T, query string, sc lore.Scope, resp *retrieve.Response, foreign []string) {
	t.Helper()
	for _, r := range resp.Results {
		var owner lore.Scope
		switch {
		case r.Fact != nil:
			owner = r.Fact.Scope
		case r.Episode != nil:
			owner = r.Episode.Scope
		default:
			t.Errorf("query %q: result %s has neither fact nor episode", query, r.ID)
			continue
		}
		if !sc.Contains(owner) {
			t.Errorf("query %q in %s: result %q belongs to %s", query, describe(sc), r.Memory, describe(owner))
		}
		texts := []string{r.Memory}
		for _, src := range r.Sources {
			texts = append(texts, src.Content)
		}
		for _, text := range texts {
			for _, f := range foreign {
				if containsWord(text, f) {
					t.Errorf("query %q in %s: result shows %q, a detail of another user: %q", query, describe(sc), f, text)
				}
			}
		}
	}
	for _, e := range resp.Entities {
		if !sc.Namespace().Contains(e.Scope) {
			t.Errorf("query %q in %s: linked entity %q belongs to %s", query, describe(sc), e.Name, describe(e.Scope))
		}
	}
	if slices.ContainsFunc(foreign, func(f string) bool { return containsWord(resp.Context, f) }) {
		t.Errorf("query %q in %s: context shows another user's details: %q", query, describe(sc), resp.Context)
	}
}

// loadRetrievalFixture reads RetrievalFixture from the module root, found
// by walking up from the test's working directory (its package directory).
func loadRetrievalFixture(t *testing.T) *retrievalFixture {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatalf("retrieval fixture: %v", err)
	}
	raw, err := os.ReadFile(filepath.Join(root, RetrievalFixture))
	if err != nil {
		t.Fatalf("retrieval fixture: %v", err)
	}
	var fx retrievalFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("retrieval fixture %s: %v", RetrievalFixture, err)
	}
	if len(fx.Queries) == 0 || len(fx.Primary.Sessions) == 0 || len(fx.Other.Sessions) == 0 ||
		len(fx.Primary.Markers) == 0 || len(fx.Other.Markers) == 0 {
		t.Fatalf("retrieval fixture %s: want queries and both users' sessions and markers", RetrievalFixture)
	}
	return &fx
}

// moduleRoot returns the nearest directory at or above the working
// directory that holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("getwd: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("stat go.mod: %w", err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// rankOf returns the index of the first result whose memory contains want
// (case-insensitively), or -1.
func rankOf(results []retrieve.Result, want string) int {
	return slices.IndexFunc(results, func(r retrieve.Result) bool { return containsFold(r.Memory, want) })
}

// topTexts returns the memory texts of the first k results.
// sameTurn reports whether the first results of a and b share a source turn,
// compared by its text since ids differ between backends.
func sameTurn(a, b []retrieve.Result) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	turns := map[string]bool{}
	for _, src := range a[0].Sources {
		turns[src.Content] = true
	}
	for _, src := range b[0].Sources {
		if turns[src.Content] {
			return true
		}
	}
	return a[0].Memory == b[0].Memory
}

func topTexts(results []retrieve.Result, k int) []string {
	out := make([]string, 0, k)
	for _, r := range results[:min(k, len(results))] {
		out = append(out, r.Memory)
	}
	return out
}

// describeResults formats the first k results for a failure message.
func describeResults(results []retrieve.Result, k int) string {
	parts := make([]string, 0, k)
	for i, r := range results[:min(k, len(results))] {
		parts = append(parts, fmt.Sprintf("%d:%s %q (%.3f)", i, r.Type, r.Memory, r.Score))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// explainResults formats the first k results with their per-signal
// scores, so a log shows why two backends ranked differently.
func explainResults(results []retrieve.Result, k int) string {
	var b strings.Builder
	for i, r := range results[:min(k, len(results))] {
		fmt.Fprintf(&b, "\n    %d: %q %.3f", i, r.Memory, r.Score)
		keys := make([]string, 0, len(r.ScoreDetails))
		for key := range r.ScoreDetails {
			keys = append(keys, key)
		}
		slices.Sort(keys)
		for _, key := range keys {
			fmt.Fprintf(&b, " %s=%.3f", key, r.ScoreDetails[key])
		}
	}
	return b.String()
}

// containsFold reports whether s contains sub, ignoring case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// containsWord reports whether s holds word as a whole word, ignoring case.
func containsWord(s, word string) bool {
	return slices.Contains(words(s), strings.ToLower(word))
}

// words splits s into lower-case runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// HashEmbedderDim is HashEmbedder's dimension: MiniLM's, so an index that
// fixes one dimension per collection takes these vectors beside real ones.
const HashEmbedderDim = testDim

// HashEmbedder is a deterministic embedder for tests and benchmarks: a
// hashed bag of lower-cased words, L2-normalized, so texts that share words
// are near each other. It needs no model and gives the same vectors on
// every run and every machine.
type HashEmbedder struct{}

var _ lore.Embedder = HashEmbedder{}

// Embed returns one HashEmbedderDim vector per text.
func (HashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		out[i] = HashVector(text)
	}
	return out, nil
}

// Info names the embedder.
func (HashEmbedder) Info() lore.EmbedderInfo {
	return lore.EmbedderInfo{Name: "storetest/hashed-bag-of-words", Dim: HashEmbedderDim, Checksum: "fnv1a-v1"}
}

// HashVector returns text's hashed bag-of-words vector. A text without
// words gets a fixed unit vector, so every vector has a direction.
func HashVector(text string) []float32 {
	v := make([]float32, HashEmbedderDim)
	for _, w := range words(text) {
		h := fnv.New64a()
		h.Write([]byte(w))
		x := h.Sum64()
		// The sign bit spreads collisions around zero instead of piling up.
		sign := float32(1)
		if x>>63 == 1 {
			sign = -1
		}
		v[x%HashEmbedderDim] += sign
	}
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		v[0] = 1
		return v
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}
