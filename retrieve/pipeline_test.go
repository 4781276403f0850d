package retrieve_test

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/retrieve"
)

// hashEmbedder is a small honest embedder: a bag of lower-case words hashed
// into Dim buckets and L2-normalised, so texts sharing words are close.
type hashEmbedder struct{ Dim int }

func (h hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, h.Dim)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		}) {
			f := fnv.New32a()
			f.Write([]byte(w))
			v[f.Sum32()%uint32(h.Dim)]++
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		if n > 0 {
			for j := range v {
				v[j] /= float32(math.Sqrt(n))
			}
		}
		out[i] = v
	}
	return out, nil
}

func (h hashEmbedder) Info() lore.EmbedderInfo {
	return lore.EmbedderInfo{Name: "hash-test", Dim: h.Dim, Checksum: "test"}
}

// world is a seeded store with helpers to add records through the ports and
// index them as ingest does.
type world struct {
	t     testing.TB
	ctx   context.Context
	store *sqlite.Store
	idx   *sqlite.Index
	emb   lore.Embedder
	base  time.Time
}

func newWorld(tb testing.TB, emb lore.Embedder) *world {
	tb.Helper()
	ctx := context.Background()
	st, idx := sqlitetest.Open(tb)
	return &world{t: tb, ctx: ctx, store: st, idx: idx, emb: emb, base: time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)}
}

func (w *world) pipeline() *retrieve.Pipeline {
	return &retrieve.Pipeline{Graph: w.store, Index: w.idx, Embedder: w.emb, Config: retrieve.DefaultConfig(),
		Now: func() time.Time { return w.base.AddDate(0, 6, 0) }}
}

func (w *world) index(docs ...lore.IndexDoc) {
	w.t.Helper()
	if w.emb != nil {
		for i := range docs {
			v, err := w.emb.Embed(w.ctx, []string{docs[i].Text})
			if err != nil {
				w.t.Fatalf("Embed: %v", err)
			}
			docs[i].Vector = v[0]
		}
	}
	if err := w.idx.Upsert(w.ctx, docs); err != nil {
		w.t.Fatalf("Upsert: %v", err)
	}
}

func (w *world) entity(sc lore.Scope, name, typ string, aliases ...string) *lore.Entity {
	w.t.Helper()
	e, err := w.store.MergeEntity(w.ctx, &lore.Entity{Scope: sc.Namespace(), Name: name, Type: typ, Aliases: aliases, FirstSeen: w.base, LastSeen: w.base})
	if err != nil {
		w.t.Fatalf("MergeEntity %s: %v", name, err)
	}
	return e
}

func (w *world) episode(sc lore.Scope, day int, speaker, content string, meta map[string]any) *lore.Episode {
	w.t.Helper()
	ep := &lore.Episode{Scope: sc, Role: "user", Speaker: speaker, Content: content, OccurredAt: w.base.AddDate(0, 0, day),
		SourceID: "D" + speaker, Metadata: meta}
	if err := w.store.AddEpisodes(w.ctx, []*lore.Episode{ep}); err != nil {
		w.t.Fatalf("AddEpisodes: %v", err)
	}
	w.index(lore.IndexDoc{ID: ep.ID, Kind: lore.KindEpisode, Scope: sc, Text: lore.EpisodeKey(ep, nil, nil), Time: ep.OccurredAt})
	return ep
}

// fact merges a fact between subj and obj (an entity, or a literal when obj
// is nil) and indexes it.
func (w *world) fact(sc lore.Scope, day int, subj *lore.Entity, pred string, obj *lore.Entity, literal, text string, src ...*lore.Episode) *lore.Fact {
	w.t.Helper()
	at := w.base.AddDate(0, 0, day)
	f := &lore.Fact{Scope: sc, SubjectID: subj.ID, Subject: subj.Name, Predicate: pred, Object: literal, Text: text,
		Confidence: 0.9, FirstSeen: at, LastSeen: at, Count: 1}
	if obj != nil {
		f.ObjectID, f.Object = obj.ID, obj.Name
	}
	for _, ep := range src {
		f.SourceEpisodeIDs = append(f.SourceEpisodeIDs, ep.ID)
	}
	got, _, err := w.store.MergeFact(w.ctx, f, "test")
	if err != nil {
		w.t.Fatalf("MergeFact %q: %v", text, err)
	}
	w.index(lore.IndexDoc{ID: got.ID, Kind: lore.KindFact, Scope: sc, Text: lore.FactKey(got), Time: got.LastSeen})
	return got
}

func resultIDs(rs []retrieve.Result) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func memories(rs []retrieve.Result) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Memory)
	}
	return out
}

// seed builds Alice's small graph and a look-alike for Bob in the same
// tenant, and one for Alice's namesake in another tenant.
type seeded struct {
	w                         *world
	alice, bob, other         lore.Scope
	lives, sister, sisterJob  *lore.Fact
	oldHome                   *lore.Fact
	bobJob, otherJob          *lore.Fact
	epMove, epTravel, epHobby *lore.Episode
	epBob                     *lore.Episode
}

func seed(t *testing.T, emb lore.Embedder) *seeded {
	w := newWorld(t, emb)
	s := &seeded{
		w:     w,
		alice: lore.Scope{TenantID: "t1", UserID: "alice"},
		bob:   lore.Scope{TenantID: "t1", UserID: "bob"},
		other: lore.Scope{TenantID: "t2", UserID: "alice"},
	}
	a := s.alice
	caroline := w.entity(a, "Caroline", "person")
	emma := w.entity(a, "Emma", "person")
	boston := w.entity(a, "Boston", "place")
	paris := w.entity(a, "Paris", "place")
	acme := w.entity(a, "Acme Robotics", "organization")
	s.epMove = w.episode(a, 0, "Caroline", "I finally moved to Boston last month, the apartment is lovely.", map[string]any{"topic": "home", "n": 1})
	s.epTravel = w.episode(a, 10, "Caroline", "We are planning a trip to Lisbon in the summer.", map[string]any{"topic": "travel", "n": 2})
	s.epHobby = w.episode(a, 20, "Caroline", "Pottery class on Saturdays keeps me sane.", map[string]any{"topic": "hobby", "n": 3})
	s.oldHome = w.fact(a, -300, caroline, "lives_in", paris, "", "Caroline lives in Paris")
	past := w.base.AddDate(0, 0, -1)
	if _, err := w.store.UpdateFact(w.ctx, a, s.oldHome.ID, lore.FactUpdate{InvalidAt: &past, ExpiredAt: &past, Event: lore.EventInvalidate, Actor: "test"}); err != nil {
		t.Fatalf("UpdateFact: %v", err)
	}
	s.lives = w.fact(a, 0, caroline, "lives_in", boston, "", "Caroline lives in Boston", s.epMove)
	s.sister = w.fact(a, 5, caroline, "has_sister", emma, "", "Caroline has a sister named Emma")
	s.sisterJob = w.fact(a, 6, emma, "works_at", acme, "", "Emma works at Acme Robotics")
	for i, txt := range []string{"the weather was grey", "a new phone arrived", "the bakery closed early", "traffic was terrible", "the garden needs water"} {
		subj := w.entity(a, "Thing"+string(rune('A'+i)), "thing")
		w.fact(a, i, subj, "note", nil, txt, txt)
	}

	bobCaroline := w.entity(s.bob, "Caroline", "person")
	globex := w.entity(s.bob, "Globex", "organization")
	s.epBob = w.episode(s.bob, 1, "Caroline", "Caroline moved to Boston and the apartment in Boston is lovely.", map[string]any{"topic": "home"})
	s.bobJob = w.fact(s.bob, 1, bobCaroline, "works_at", globex, "", "Caroline works at Globex in Boston", s.epBob)
	otherCaroline := w.entity(s.other, "Caroline", "person")
	initech := w.entity(s.other, "Initech", "organization")
	s.otherJob = w.fact(s.other, 1, otherCaroline, "works_at", initech, "", "Caroline works at Initech in Boston")
	return s
}

func search(t *testing.T, p *retrieve.Pipeline, req retrieve.Request) *retrieve.Response {
	t.Helper()
	resp, err := p.Search(context.Background(), req)
	if err != nil {
		t.Fatalf("Search(%q): %v", req.Query, err)
	}
	return resp
}

func TestSearchRanksRelevantFactFirst(t *testing.T) {
	s := seed(t, nil)
	resp := search(t, s.w.pipeline(), retrieve.Request{Scope: s.alice, Query: "Where does Caroline live?", Kinds: []lore.DocKind{lore.KindFact}})
	if len(resp.Results) == 0 || resp.Results[0].ID != s.lives.ID {
		t.Fatalf("results = %q, want %q first", memories(resp.Results), s.lives.Text)
	}
	if got := resp.Results[0].Sources; len(got) != 1 || got[0].EpisodeID != s.epMove.ID || got[0].Content != s.epMove.Content || !got[0].OccurredAt.Equal(s.epMove.OccurredAt) {
		t.Fatalf("sources = %+v, want the moving episode", got)
	}
	if !slices.ContainsFunc(resp.Entities, func(e *lore.Entity) bool { return e.Name == "Caroline" }) {
		t.Fatalf("entities = %+v, want Caroline linked", resp.Entities)
	}
	if !strings.Contains(resp.Context, "[2023-05-08] Caroline lives in Boston (fact)") {
		t.Fatalf("context = %q, want the dated fact line", resp.Context)
	}
}

func TestSearchGraphFindsTwoHopFact(t *testing.T) {
	s := seed(t, nil)
	p := s.w.pipeline()
	req := retrieve.Request{Scope: s.alice, Query: "Tell me about Caroline", Kinds: []lore.DocKind{lore.KindFact}, TopK: 20}

	p.Config.Signals = retrieve.Signals{BM25: true}
	if got := resultIDs(search(t, p, req).Results); slices.Contains(got, s.sisterJob.ID) {
		t.Fatalf("BM25 alone found %q; the test needs a fact BM25 misses", s.sisterJob.Text)
	}
	p.Config.Signals = retrieve.Signals{BM25: true, Graph: true}
	resp := search(t, p, req)
	if got := resultIDs(resp.Results); !slices.Contains(got, s.sisterJob.ID) {
		t.Fatalf("with graph: results = %q, want %q (two hops from Caroline)", memories(resp.Results), s.sisterJob.Text)
	}
	// One hop outranks two.
	pos := func(id string) int { return slices.Index(resultIDs(resp.Results), id) }
	if pos(s.sister.ID) > pos(s.sisterJob.ID) {
		t.Fatalf("results = %q, want the one-hop sister fact above the two-hop job", memories(resp.Results))
	}
}

func TestSearchEntityExpansionUsesAliases(t *testing.T) {
	s := seed(t, nil)
	a := s.alice
	mel := s.w.entity(a, "Melanie", "person", "mel")
	pottery := s.w.fact(a, 3, mel, "paints", nil, "sunsets", "Melanie paints sunsets")
	p := s.w.pipeline()
	req := retrieve.Request{Scope: a, Query: "anything about Mel?"}

	p.Config.Signals = retrieve.Signals{BM25: true}
	if got := resultIDs(search(t, p, req).Results); slices.Contains(got, pottery.ID) {
		t.Fatalf("BM25 alone found %q; the test needs a fact only the alias finds", pottery.Text)
	}
	p.Config.Signals = retrieve.Signals{BM25: true, EntityExpansion: true}
	resp := search(t, p, retrieve.Request{Scope: a, Query: "anything about Mel?", Explain: true})
	if len(resp.Results) == 0 || resp.Results[0].ID != pottery.ID {
		t.Fatalf("with expansion: results = %q, want %q first", memories(resp.Results), pottery.Text)
	}
	if d := resp.Results[0].ScoreDetails; d[retrieve.SignalExpansion] <= 0 {
		t.Fatalf("score details = %v, want an expansion score", d)
	}
}

func TestSearchNeverCrossesScopes(t *testing.T) {
	s := seed(t, hashEmbedder{Dim: 64})
	p := s.w.pipeline()
	foreign := []string{s.bobJob.ID, s.otherJob.ID, s.epBob.ID}
	for _, q := range []string{"Caroline works at Globex in Boston", "Initech", "apartment in Boston lovely", "Tell me about Caroline"} {
		for _, fusion := range []string{retrieve.FusionWeighted, retrieve.FusionRRF} {
			p.Config.Fusion = fusion
			resp := search(t, p, retrieve.Request{Scope: s.alice, Query: q, TopK: 50, IncludeInvalidated: true})
			for _, r := range resp.Results {
				if slices.Contains(foreign, r.ID) {
					t.Fatalf("%s %q: result %q belongs to another scope", fusion, q, r.Memory)
				}
				for _, src := range r.Sources {
					if src.EpisodeID == s.epBob.ID {
						t.Fatalf("%s %q: source of %q belongs to another scope", fusion, q, r.Memory)
					}
				}
			}
			for _, e := range resp.Entities {
				if e.Scope.UserID != "alice" || e.Scope.TenantID != "t1" {
					t.Fatalf("%s %q: linked entity %+v of another scope", fusion, q, e)
				}
			}
		}
	}
	resp := search(t, p, retrieve.Request{Scope: s.bob, Query: "Where does Caroline work?", Kinds: []lore.DocKind{lore.KindFact}})
	if len(resp.Results) == 0 || resp.Results[0].ID != s.bobJob.ID {
		t.Fatalf("bob: results = %q, want bob's own fact first", memories(resp.Results))
	}
}

func TestSearchInvalidated(t *testing.T) {
	s := seed(t, nil)
	p := s.w.pipeline()
	req := retrieve.Request{Scope: s.alice, Query: "Caroline lives in Paris", Kinds: []lore.DocKind{lore.KindFact}}
	if got := resultIDs(search(t, p, req).Results); slices.Contains(got, s.oldHome.ID) {
		t.Fatalf("default search returned the invalidated fact %q", s.oldHome.Text)
	}
	// Asked for, the ended fact shows, but below the fact that replaced it.
	req.IncludeInvalidated = true
	resp := search(t, p, req)
	if got := resultIDs(resp.Results); len(got) < 2 || got[0] != s.lives.ID || got[1] != s.oldHome.ID {
		t.Fatalf("include_invalidated: results = %q, want %q then %q", memories(resp.Results), s.lives.Text, s.oldHome.Text)
	}
	if !strings.Contains(resp.Context, "no longer true since") {
		t.Fatalf("context = %q, want the invalidation noted", resp.Context)
	}
}

func TestSearchFilters(t *testing.T) {
	s := seed(t, nil)
	p := s.w.pipeline()
	filter := func(raw string) *retrieve.Filter {
		f, err := retrieve.ParseFilter(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("ParseFilter: %v", err)
		}
		return f
	}
	since := s.w.base.AddDate(0, 0, 5)
	until := s.w.base.AddDate(0, 0, 15)
	const q = "Boston apartment trip Lisbon pottery class"
	tests := []struct {
		name string
		req  retrieve.Request
		want []string
	}{
		{"metadata eq", retrieve.Request{Filter: filter(`{"topic": "travel"}`)}, []string{s.epTravel.ID}},
		{"metadata in", retrieve.Request{Filter: filter(`{"topic": {"in": ["hobby", "home"]}}`)}, []string{s.epMove.ID, s.epHobby.ID}},
		{"metadata range", retrieve.Request{Filter: filter(`{"n": {"gte": 2}}`)}, []string{s.epTravel.ID, s.epHobby.ID}},
		{"time range", retrieve.Request{Since: &since, Until: &until}, []string{s.epTravel.ID}},
		{"since only", retrieve.Request{Since: &until}, []string{s.epHobby.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := tt.req
			req.Scope, req.Query, req.Kinds = s.alice, q, []lore.DocKind{lore.KindEpisode}
			got := resultIDs(search(t, p, req).Results)
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("ids = %v, want %v", got, want)
			}
		})
	}
}

func TestSearchKindsThresholdExplain(t *testing.T) {
	s := seed(t, hashEmbedder{Dim: 64})
	p := s.w.pipeline()
	resp := search(t, p, retrieve.Request{Scope: s.alice, Query: "Caroline moved to Boston", Explain: true})
	kinds := map[lore.DocKind]bool{}
	for _, r := range resp.Results {
		kinds[r.Type] = true
		d := r.ScoreDetails
		if d == nil {
			t.Fatalf("result %q has no score details with explain", r.Memory)
		}
		for _, k := range []string{retrieve.SignalBM25, retrieve.SignalDense, retrieve.SignalFused} {
			if _, ok := d[k]; !ok {
				t.Fatalf("score details %v lack %q", d, k)
			}
		}
		// A result the source diversity deferred is lowered to its place;
		// no result scores above its fused score.
		if r.Score > d[retrieve.SignalFused] {
			t.Fatalf("score %v above fused %v", r.Score, d[retrieve.SignalFused])
		}
	}
	if !kinds[lore.KindFact] || !kinds[lore.KindEpisode] {
		t.Fatalf("kinds = %v, want facts and episodes by default", kinds)
	}
	for i := 1; i < len(resp.Results); i++ {
		if resp.Results[i].Score > resp.Results[i-1].Score {
			t.Fatalf("scores not descending: %v then %v", resp.Results[i-1].Score, resp.Results[i].Score)
		}
	}

	only := search(t, p, retrieve.Request{Scope: s.alice, Query: "Caroline moved to Boston", Kinds: []lore.DocKind{lore.KindEpisode}})
	for _, r := range only.Results {
		if r.Type != lore.KindEpisode || r.ScoreDetails != nil {
			t.Fatalf("result %+v: want episodes only, without details", r)
		}
		if len(r.Sources) != 1 || r.Sources[0].EpisodeID != r.ID {
			t.Fatalf("episode sources = %+v, want itself", r.Sources)
		}
	}

	cut := resp.Results[0].Score
	high := search(t, p, retrieve.Request{Scope: s.alice, Query: "Caroline moved to Boston", Threshold: cut})
	for _, r := range high.Results {
		if r.Score < cut {
			t.Fatalf("threshold %v kept score %v", cut, r.Score)
		}
	}
	if len(high.Results) == 0 {
		t.Fatalf("threshold at the best score dropped the best result")
	}
}

func TestSearchTemporalBoost(t *testing.T) {
	w := newWorld(t, nil)
	sc := lore.Scope{TenantID: "t1", UserID: "u"}
	early := w.episode(sc, 0, "Sam", "Went hiking in the hills with friends.", nil)
	late := w.episode(sc, 30, "Sam", "Went hiking in the hills with friends.", nil)
	p := w.pipeline()
	qt := w.base.AddDate(0, 0, 35) // "last week" is days 28..34 or so
	req := retrieve.Request{Scope: sc, Query: "Where did Sam go hiking last week?", QueryTime: qt, Explain: true}
	p.Config.DuplicateSimilarity = 0 // the two episodes say the same thing on purpose
	resp := search(t, p, req)
	if len(resp.Results) != 2 || resp.Results[0].ID != late.ID || resp.Results[1].ID != early.ID {
		t.Fatalf("results = %v, want [%s %s] (last week's first)", resultIDs(resp.Results), late.ID, early.ID)
	}
	if d := resp.Results[0].ScoreDetails; d[retrieve.SignalTemporal] != 1 {
		t.Fatalf("details = %v, want temporal 1 for the episode inside last week", d)
	}
	p.Config.Signals.Temporal = false
	resp = search(t, p, req)
	if _, ok := resp.Results[0].ScoreDetails[retrieve.SignalTemporal]; ok {
		t.Fatalf("details = %v, want no temporal score with the signal off", resp.Results[0].ScoreDetails)
	}
}

func TestSearchDiversifies(t *testing.T) {
	w := newWorld(t, nil)
	sc := lore.Scope{TenantID: "t1", UserID: "u"}
	w.episode(sc, 0, "Sam", "I adopted a puppy named Rex.", nil)
	w.episode(sc, 1, "Sam", "I adopted a puppy named Rex!", nil)
	other := w.episode(sc, 2, "Sam", "Rex the puppy chewed my shoes.", nil)
	resp := search(t, w.pipeline(), retrieve.Request{Scope: sc, Query: "puppy Rex adopted"})
	if len(resp.Results) != 2 || resp.Results[1].ID != other.ID {
		t.Fatalf("results = %q, want one of the two identical turns, then %q", memories(resp.Results), other.Content)
	}
}

func TestSearchValidates(t *testing.T) {
	w := newWorld(t, nil)
	p := w.pipeline()
	sc := lore.Scope{TenantID: "t1", UserID: "u"}
	later := w.base.AddDate(0, 0, 1)
	tests := []struct {
		name string
		req  retrieve.Request
	}{
		{"no user or agent", retrieve.Request{Scope: lore.Scope{TenantID: "t1"}, Query: "x"}},
		{"empty query", retrieve.Request{Scope: sc, Query: "  "}},
		{"negative top_k", retrieve.Request{Scope: sc, Query: "x", TopK: -1}},
		{"unknown kind", retrieve.Request{Scope: sc, Query: "x", Kinds: []lore.DocKind{"entity"}}},
		{"since after until", retrieve.Request{Scope: sc, Query: "x", Since: &later, Until: &w.base}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Search(context.Background(), tt.req)
			if code := lore.ErrorCode(err); code != lore.EINVALID {
				t.Fatalf("code = %q (err %v), want %q", code, err, lore.EINVALID)
			}
		})
	}
	resp, err := p.Search(context.Background(), retrieve.Request{Scope: lore.Scope{UserID: "u"}, Query: "nothing stored"})
	if err != nil || resp.Results == nil || len(resp.Results) != 0 || resp.Entities == nil {
		t.Fatalf("empty store: %+v, %v; want empty non-nil results and entities", resp, err)
	}
}

// TestSearchContextFindsTheAnswerTurn checks that the turn after a strong
// hit surfaces even though it shares no word with the query: in dialogue
// the question holds the words and the next turn the answer.
func TestSearchContextFindsTheAnswerTurn(t *testing.T) {
	w := newWorld(t, nil)
	sc := lore.Scope{TenantID: "t1", UserID: "u1"}
	turn := func(min int, speaker, text string) *lore.Episode {
		ep := &lore.Episode{Scope: sc, Role: "user", Speaker: speaker, Content: text, OccurredAt: w.base.Add(time.Duration(min) * time.Minute)}
		if err := w.store.AddEpisodes(w.ctx, []*lore.Episode{ep}); err != nil {
			t.Fatalf("AddEpisodes: %v", err)
		}
		w.index(lore.IndexDoc{ID: ep.ID, Kind: lore.KindEpisode, Scope: sc, Text: lore.EpisodeKey(ep, nil, nil), Time: ep.OccurredAt})
		return ep
	}
	turn(0, "Ann", "The weather has been lovely all week.")
	q := turn(1, "Ann", "Any tips for getting started with adoption?")
	answer := turn(2, "Bea", "Find an agency or a lawyer first, then gather references and medical checks.")
	for i := range 8 {
		turn(100+i, "Ann", "Adoption is such a big step, "+strings.Repeat("really ", i)+"big.")
	}
	turn(300*24*60, "Bea", "A much later reply about paperwork.")

	for _, tc := range []struct {
		name    string
		context bool
		want    bool
	}{
		{"with context", true, true},
		{"without context", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := w.pipeline()
			p.Config.Signals = retrieve.Signals{BM25: true, Context: tc.context}
			resp := search(t, p, retrieve.Request{Scope: sc, Query: "tips for getting started with adoption", TopK: 3, Explain: true})
			ids := resultIDs(resp.Results)
			if len(ids) == 0 || ids[0] != q.ID {
				t.Fatalf("first result = %v, want the question turn %s", memories(resp.Results), q.ID)
			}
			if got := slices.Contains(ids, answer.ID); got != tc.want {
				t.Fatalf("answer turn in top 3 = %v, want %v; got %q", got, tc.want, memories(resp.Results))
			}
			if tc.want {
				i := slices.Index(ids, answer.ID)
				if resp.Results[i].ScoreDetails[retrieve.SignalContext] <= 0 {
					t.Errorf("answer's %s score = %v, want > 0", retrieve.SignalContext, resp.Results[i].ScoreDetails)
				}
			}
		})
	}
}

// TestSearchBoundsFactSources checks that a fact merged from many turns
// shows only MaxFactSources of them, latest first when none scored.
func TestSearchBoundsFactSources(t *testing.T) {
	w := newWorld(t, nil)
	sc := lore.Scope{TenantID: "t1", UserID: "u1"}
	ann := w.entity(sc, "Ann", "person")
	var eps []*lore.Episode
	for i := range 6 {
		eps = append(eps, w.episode(sc, i, "Ann", "hello there "+strings.Repeat("x", i), nil))
	}
	w.fact(sc, 0, ann, "likes", nil, "pottery", "Ann likes pottery", eps...)
	p := w.pipeline()
	p.Config.Signals = retrieve.Signals{BM25: true}
	p.Config.MaxFactSources = 2
	resp := search(t, p, retrieve.Request{Scope: sc, Query: "pottery", Kinds: []lore.DocKind{lore.KindFact}})
	if len(resp.Results) != 1 {
		t.Fatalf("len(results) = %d, want 1", len(resp.Results))
	}
	var got []string
	for _, s := range resp.Results[0].Sources {
		got = append(got, s.EpisodeID)
	}
	if want := []string{eps[5].ID, eps[4].ID}; !slices.Equal(got, want) {
		t.Errorf("sources = %v, want %v", got, want)
	}
	if n := len(resp.Results[0].Fact.SourceEpisodeIDs); n != 6 {
		t.Errorf("fact keeps %d source ids, want 6", n)
	}
}

// recordingEmbedder remembers the texts it embeds.
type recordingEmbedder struct {
	hashEmbedder
	mu    sync.Mutex
	texts []string
}

func (r *recordingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	r.texts = append(r.texts, texts...)
	r.mu.Unlock()
	return r.hashEmbedder.Embed(ctx, texts)
}

// TestSearchDenseQueryDropsSpeakerNames checks that the dense signal embeds
// the query without the names of the conversation's speakers it names, and
// only with the speaker signal on.
func TestSearchDenseQueryDropsSpeakerNames(t *testing.T) {
	emb := &recordingEmbedder{hashEmbedder: hashEmbedder{Dim: 64}}
	w := newWorld(t, emb)
	sc := lore.Scope{TenantID: "t1", UserID: "u1"}
	w.episode(sc, 0, "Caroline", "I painted a sunrise over the lake.", nil)
	w.episode(sc, 0, "Melanie", "Wow, Caroline, that painting is lovely!", nil)
	for _, tc := range []struct {
		speaker bool
		want    string
	}{
		{true, "What did paint with Kate?"},
		{false, "What did Caroline paint with Kate?"},
	} {
		p := w.pipeline()
		p.Config.Signals.Speaker = tc.speaker
		emb.texts = nil
		search(t, p, retrieve.Request{Scope: sc, Query: "What did Caroline paint with Kate?"})
		if !slices.Equal(emb.texts, []string{tc.want}) {
			t.Errorf("speaker signal %v: embedded %q, want [%q]", tc.speaker, emb.texts, tc.want)
		}
	}
}

// TestDeferredFactPassesNoise: "Caroline lives in Boston" is deferred, as
// the turn it came from is shown first, but it still ranks above results
// that are noise to the query (under 5 % of the best score, or a tenth of
// its own).
func TestDeferredFactPassesNoise(t *testing.T) {
	s := seed(t, hashEmbedder{Dim: 64})
	resp := search(t, s.w.pipeline(), retrieve.Request{Scope: s.alice, Query: "Caroline moved to Boston", TopK: 10})
	place := map[string]int{}
	for i, r := range resp.Results {
		place[r.Memory] = i + 1
	}
	fact := place["Caroline lives in Boston"]
	if fact == 0 {
		t.Fatalf("results %v lack the Boston fact", resultIDs(resp.Results))
	}
	for _, noise := range []string{"Caroline has a sister named Emma", "the weather was grey"} {
		if p := place[noise]; p != 0 && p < fact {
			t.Errorf("%q at place %d above the deferred Boston fact at %d", noise, p, fact)
		}
	}
}
