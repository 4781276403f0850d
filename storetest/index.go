package storetest

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
)

// cleanupIndex removes what a test indexed under the scopes.
func cleanupIndex(t *testing.T, idx lore.Index, scopes ...lore.Scope) {
	t.Helper()
	t.Cleanup(func() {
		for _, sc := range scopes {
			if err := idx.DeleteScope(context.Background(), sc); err != nil {
				t.Errorf("cleanup: DeleteScope(%+v): %v", sc, err)
			}
		}
	})
}

// doc returns a fact document with a fresh id.
func doc(sc lore.Scope, text string, hours int, vec []float32) lore.IndexDoc {
	return lore.IndexDoc{ID: uuid.NewString(), Kind: lore.KindFact, Scope: sc, Text: text, Time: at(hours), Vector: vec}
}

// rng returns a deterministic random source for a test.
func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

func runIndex(s suite, idx lore.Index) {
	s.run("Index/UpsertReplaces", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupIndex(t, idx, sc)
		r := rng(1)
		d := doc(sc, "Alice adopted a golden retriever", 0, unitVector(r))
		must(t, "Upsert", idx.Upsert(ctx, []lore.IndexDoc{d}))
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "retriever", Limit: 10})
		must(t, "SearchText", err)
		sameList(t, "before replace", hitIDs(hits), []string{d.ID})
		if len(hits) == 1 && (hits[0].Kind != lore.KindFact || hits[0].Score <= 0) {
			t.Errorf("hit=%+v, want kind fact and a positive score", hits[0])
		}

		// Search by vector before replacing, so that any cache must follow.
		warm, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: d.Vector, Limit: 10})
		must(t, "SearchVector before replace", err)
		sameList(t, "vector before replace", hitIDs(warm), []string{d.ID})

		old := d.Vector
		d.Text = "Alice adopted a tabby cat"
		d.Vector = unitVector(r)
		must(t, "Upsert replace", idx.Upsert(ctx, []lore.IndexDoc{d}))
		hits, err = idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "retriever", Limit: 10})
		must(t, "SearchText old text", err)
		sameList(t, "old text after replace", hitIDs(hits), []string{})
		hits, err = idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "tabby", Limit: 10})
		must(t, "SearchText new text", err)
		sameList(t, "new text after replace", hitIDs(hits), []string{d.ID})
		vhits, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: d.Vector, Limit: 10})
		must(t, "SearchVector", err)
		if len(vhits) != 1 || math.Abs(vhits[0].Score-1) > 1e-3 {
			t.Errorf("vector hits=%+v, want the one doc with cosine 1 to its new vector", vhits)
		}
		vhits, err = idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: old, Limit: 10})
		must(t, "SearchVector old vector", err)
		if len(vhits) == 1 && vhits[0].Score > 0.5 {
			t.Errorf("old vector still scores %v against the replaced doc, want its new vector's cosine %v", vhits[0].Score, lore.Cosine(old, d.Vector))
		}

		// Replaced without a vector, the doc leaves vector search.
		d.Vector = nil
		must(t, "Upsert without vector", idx.Upsert(ctx, []lore.IndexDoc{d}))
		vhits, err = idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: old, Limit: 10})
		must(t, "SearchVector after dropping the vector", err)
		sameList(t, "vector hits after dropping the vector", hitIDs(vhits), []string{})
		hits, err = idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "tabby", Limit: 10})
		must(t, "SearchText after dropping the vector", err)
		sameList(t, "text hits after dropping the vector", hitIDs(hits), []string{d.ID})
	})

	s.run("Index/BM25PrefersRareTerms", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupIndex(t, idx, sc)
		var docs []lore.IndexDoc
		// "dinner" is common; "sushi" and "Kyoto" are rare.
		for _, text := range []string{
			"We had dinner at home", "Dinner with the team was fun", "Dinner plans for Friday",
			"Cooked pasta for dinner", "Dinner was late again", "A quiet dinner by the lake",
		} {
			docs = append(docs, doc(sc, text, 0, nil))
		}
		rare := doc(sc, "Dinner of sushi in Kyoto with Ken", 0, nil)
		oneRare := doc(sc, "Sushi is my favourite food", 0, nil)
		docs = append(docs, rare, oneRare)
		must(t, "Upsert", idx.Upsert(ctx, docs))
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "sushi dinner in Kyoto?", Limit: 10})
		must(t, "SearchText", err)
		if len(hits) < 2 || hits[0].ID != rare.ID || hits[1].ID != oneRare.ID {
			t.Fatalf("ranking=%v, want %s (sushi, Kyoto, dinner) then %s (sushi) first", hitIDs(hits), rare.ID, oneRare.ID)
		}
		if !slices.IsSortedFunc(hits, func(a, b lore.IndexHit) int { return cmpDesc(a.Score, b.Score) }) {
			t.Errorf("scores not descending: %+v", hits)
		}
		limited, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "dinner", Limit: 3})
		must(t, "SearchText limit", err)
		if len(limited) != 3 {
			t.Errorf("len(hits)=%d with Limit 3, want 3", len(limited))
		}
		// Case does not matter.
		upper, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "DINNER", Limit: 10})
		must(t, "SearchText upper case", err)
		if len(upper) != 7 {
			t.Errorf("len(hits) for \"DINNER\"=%d, want the 7 docs that say dinner", len(upper))
		}
	})

	s.run("Index/TextNeverFailsOnSyntax", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupIndex(t, idx, sc)
		d := doc(sc, "Alice's cat is called Tom-Tom (really)", 0, nil)
		must(t, "Upsert", idx.Upsert(ctx, []lore.IndexDoc{d}))
		cases := []struct {
			name  string
			query string
			hit   bool
		}{
			{"quotes", `"cat`, true},
			{"operators", `cat AND OR NOT NEAR(tom, 2)`, true},
			{"column filter", `text: cat`, true},
			{"prefix star", `ca* tom*`, true},
			{"parentheses", `((cat)`, true},
			{"hyphen", `Tom-Tom`, true},
			{"apostrophe", `Alice's`, true},
			{"caret and plus", `^cat +tom`, true},
			{"only punctuation", `"*():^-+`, false},
			{"empty", ``, false},
			{"spaces", `   `, false},
			{"unicode", `猫 кот cat`, true},
		}
		for _, c := range cases {
			hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: c.query, Limit: 5})
			must(t, c.name, err)
			if got := len(hits) > 0; got != c.hit {
				t.Errorf("%s: query %q found=%v, want %v", c.name, c.query, got, c.hit)
			}
		}
	})

	s.run("Index/VectorRanksByCosine", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupIndex(t, idx, sc)
		r := rng(2)
		q := unitVector(r)
		far := unitVector(r)
		// Documents at decreasing similarity to q.
		var docs []lore.IndexDoc
		for _, w := range []float64{0.1, 0.4, 0.7, 0.95} {
			docs = append(docs, doc(sc, "doc", 0, blend(q, far, w)))
		}
		noVec := doc(sc, "no vector", 0, nil)
		shuffled := []lore.IndexDoc{docs[2], noVec, docs[0], docs[3], docs[1]}
		must(t, "Upsert", idx.Upsert(ctx, shuffled))
		hits, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: q, Limit: 10})
		must(t, "SearchVector", err)
		sameList(t, "order", hitIDs(hits), []string{docs[0].ID, docs[1].ID, docs[2].ID, docs[3].ID})
		for i, h := range hits {
			if i < len(docs) {
				if want := lore.Cosine(q, docs[i].Vector); math.Abs(h.Score-want) > 1e-3 {
					t.Errorf("hit %d score=%v, want cosine %v", i, h.Score, want)
				}
			}
		}
		top, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: q, Limit: 2})
		must(t, "SearchVector limit", err)
		sameList(t, "limit 2", hitIDs(top), []string{docs[0].ID, docs[1].ID})
		empty, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Limit: 10})
		must(t, "SearchVector without a vector", err)
		if len(empty) != 0 {
			t.Errorf("SearchVector without a vector=%d hits, want 0", len(empty))
		}
	})

	s.run("Index/KindsAndTimeFilters", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupIndex(t, idx, sc)
		r := rng(3)
		q := unitVector(r)
		f1 := doc(sc, "trip to Rome", 1, blend(q, unitVector(r), 0.1))
		f2 := doc(sc, "trip to Oslo", 3, blend(q, unitVector(r), 0.2))
		e1 := doc(sc, "we planned the trip", 2, blend(q, unitVector(r), 0.3))
		e1.Kind = lore.KindEpisode
		must(t, "Upsert", idx.Upsert(ctx, []lore.IndexDoc{f1, f2, e1}))
		cases := []struct {
			name string
			q    lore.IndexQuery
			want []string
		}{
			{"facts", lore.IndexQuery{Kinds: []lore.DocKind{lore.KindFact}}, []string{f1.ID, f2.ID}},
			{"episodes", lore.IndexQuery{Kinds: []lore.DocKind{lore.KindEpisode}}, []string{e1.ID}},
			{"both kinds", lore.IndexQuery{Kinds: []lore.DocKind{lore.KindEpisode, lore.KindFact}}, []string{f1.ID, f2.ID, e1.ID}},
			{"since inclusive", lore.IndexQuery{Since: ptr(at(2))}, []string{f2.ID, e1.ID}},
			{"until exclusive", lore.IndexQuery{Until: ptr(at(3))}, []string{f1.ID, e1.ID}},
			{"range and kind", lore.IndexQuery{Since: ptr(at(1)), Until: ptr(at(3)), Kinds: []lore.DocKind{lore.KindFact}}, []string{f1.ID}},
		}
		for _, c := range cases {
			c.q.Scope, c.q.Limit = sc, 10
			c.q.Text = "trip"
			th, err := idx.SearchText(ctx, c.q)
			must(t, c.name+" text", err)
			sameSet(t, c.name+" text", hitIDs(th), c.want)
			c.q.Vector = q
			vh, err := idx.SearchVector(ctx, c.q)
			must(t, c.name+" vector", err)
			sameSet(t, c.name+" vector", hitIDs(vh), c.want)
			for _, h := range th {
				if h.ID == e1.ID && h.Kind != lore.KindEpisode {
					t.Errorf("%s: episode hit kind=%q, want episode", c.name, h.Kind)
				}
			}
		}
	})

	s.run("Index/ScopeIsolation", func(t *testing.T) {
		ctx := ctxFor(t)
		tenant := newTenant()
		r := rng(4)
		v := unitVector(r)
		type rec struct{ user, agent, run string }
		// The last two are the agent a1's own documents (no user).
		stored := []rec{{"u1", "a1", "r1"}, {"u1", "a1", "r2"}, {"u1", "a2", ""}, {"u2", "a1", "r1"}, {"", "a1", ""}, {"", "a1", "r1"}}
		ids := map[rec]string{}
		var docs []lore.IndexDoc
		for _, rc := range stored {
			d := doc(lore.Scope{TenantID: tenant, UserID: rc.user, AgentID: rc.agent, RunID: rc.run}, "shared secret words", 0, v)
			ids[rc] = d.ID
			docs = append(docs, d)
		}
		other := doc(lore.Scope{TenantID: newTenant(), UserID: "u1"}, "shared secret words", 0, v)
		docs = append(docs, other)
		must(t, "Upsert", idx.Upsert(ctx, docs))
		cleanupIndex(t, idx, lore.Scope{TenantID: tenant, UserID: "u1"}, lore.Scope{TenantID: tenant, UserID: "u2"},
			lore.Scope{TenantID: tenant, AgentID: "a1"}, other.Scope)
		cases := []struct {
			read lore.Scope
			want []rec
		}{
			{lore.Scope{UserID: "u1"}, stored[:3]},
			{lore.Scope{UserID: "u1", AgentID: "a1"}, stored[:2]},
			{lore.Scope{UserID: "u1", AgentID: "a1", RunID: "r2"}, stored[1:2]},
			// An agent-only read finds the agent's own documents, never
			// those of the users who share the agent.
			{lore.Scope{AgentID: "a1"}, stored[4:6]},
			{lore.Scope{AgentID: "a1", RunID: "r1"}, stored[5:6]},
			{lore.Scope{AgentID: "a2"}, nil},
			{lore.Scope{UserID: "u2"}, stored[3:4]},
			{lore.Scope{UserID: "nobody"}, nil},
		}
		for _, c := range cases {
			c.read.TenantID = tenant
			var want []string
			for _, rc := range c.want {
				want = append(want, ids[rc])
			}
			th, err := idx.SearchText(ctx, lore.IndexQuery{Scope: c.read, Text: "secret", Limit: 10})
			must(t, describe(c.read), err)
			sameSet(t, "text "+describe(c.read), hitIDs(th), want)
			vh, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: c.read, Vector: v, Limit: 10})
			must(t, describe(c.read), err)
			sameSet(t, "vector "+describe(c.read), hitIDs(vh), want)
		}
	})

	s.run("Index/Delete", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		otherUser := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		cleanupIndex(t, idx, sc, otherUser)
		r := rng(5)
		v := unitVector(r)
		a := doc(sc, "orange juice", 0, v)
		b := doc(sc, "orange peel", 0, v)
		c := doc(otherUser, "orange cake", 0, v)
		must(t, "Upsert", idx.Upsert(ctx, []lore.IndexDoc{a, b, c}))
		// Warm any cache before the delete, so that the delete must reach it.
		for _, read := range []lore.Scope{sc, otherUser} {
			_, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: read, Vector: v, Limit: 10})
			must(t, "SearchVector warm", err)
		}
		must(t, "Delete", idx.Delete(ctx, sc, []string{a.ID, "no-such-id"}))
		// A delete through the wrong scope removes nothing.
		must(t, "Delete foreign", idx.Delete(ctx, sc, []string{c.ID}))
		th, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "orange", Limit: 10})
		must(t, "SearchText", err)
		sameList(t, "text after delete", hitIDs(th), []string{b.ID})
		vh, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: v, Limit: 10})
		must(t, "SearchVector", err)
		sameList(t, "vector after delete", hitIDs(vh), []string{b.ID})
		oh, err := idx.SearchText(ctx, lore.IndexQuery{Scope: otherUser, Text: "orange", Limit: 10})
		must(t, "SearchText other user", err)
		sameList(t, "other user's docs", hitIDs(oh), []string{c.ID})
		ov, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: otherUser, Vector: v, Limit: 10})
		must(t, "SearchVector other user", err)
		sameList(t, "other user's vector hits", hitIDs(ov), []string{c.ID})
	})

	s.run("Index/DeleteScope", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		kept := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		cleanupIndex(t, idx, kept)
		r := rng(6)
		v := unitVector(r)
		var docs []lore.IndexDoc
		for range 5 {
			docs = append(docs, doc(sc, "lemon tart", 0, v))
		}
		keep := doc(kept, "lemon tart", 0, v)
		docs = append(docs, keep)
		must(t, "Upsert", idx.Upsert(ctx, docs))
		// Warm any cache before the delete, so that the delete must reach it.
		_, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: v, Limit: 10})
		must(t, "SearchVector warm", err)
		must(t, "DeleteScope", idx.DeleteScope(ctx, sc))
		th, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "lemon", Limit: 10})
		must(t, "SearchText", err)
		vh, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: v, Limit: 10})
		must(t, "SearchVector", err)
		if len(th)+len(vh) != 0 {
			t.Errorf("after DeleteScope: %d text and %d vector hits, want none", len(th), len(vh))
		}
		kh, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: kept, Vector: v, Limit: 10})
		must(t, "SearchVector kept", err)
		sameList(t, "kept", hitIDs(kh), []string{keep.ID})
		wantCode(t, "DeleteScope without a tenant", idx.DeleteScope(ctx, lore.Scope{}), lore.EINVALID)
		// A scope naming the tenant alone erases the whole tenant.
		must(t, "DeleteScope of the tenant", idx.DeleteScope(ctx, lore.Scope{TenantID: sc.TenantID}))
		kh, err = idx.SearchVector(ctx, lore.IndexQuery{Scope: kept, Vector: v, Limit: 10})
		must(t, "SearchVector kept after the tenant's erase", err)
		kt, err := idx.SearchText(ctx, lore.IndexQuery{Scope: kept, Text: "lemon", Limit: 10})
		must(t, "SearchText kept after the tenant's erase", err)
		if len(kh)+len(kt) != 0 {
			t.Errorf("after the tenant's erase: %d vector and %d text hits of bob, want none", len(kh), len(kt))
		}
	})

	s.run("Index/InvalidScope", func(t *testing.T) {
		ctx := ctxFor(t)
		_, err := idx.SearchText(ctx, lore.IndexQuery{Scope: lore.Scope{TenantID: newTenant()}, Text: "x", Limit: 5})
		wantCode(t, "SearchText without user or agent", err, lore.EINVALID)
		_, err = idx.SearchVector(ctx, lore.IndexQuery{Scope: lore.Scope{TenantID: newTenant()}, Vector: unitVector(rng(7)), Limit: 5})
		wantCode(t, "SearchVector without user or agent", err, lore.EINVALID)
	})
}

// cmpDesc orders higher scores first.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
