package weaviate

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

// serverURL returns the Weaviate server the integration tests use, skipping
// the test when none is configured, or failing it under CI=true.
func serverURL(tb testing.TB) string {
	tb.Helper()
	return storetest.ServerURL(tb, "LORE_TEST_WEAVIATE_URL", "start a server with `scripts/weaviate/install.sh && scripts/weaviate/start.sh` and export the LORE_TEST_WEAVIATE_URL it prints")
}

// mustOpen opens the index on the test server and closes it when the test
// ends.
func mustOpen(tb testing.TB) *Index {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	idx, err := Open(ctx, Config{URL: serverURL(tb)})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() {
		if err := idx.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return idx
}

// dropTenantAfter removes a test tenant from the server when the test ends.
func dropTenantAfter(tb testing.TB, idx *Index, tenantID string) {
	tb.Helper()
	tb.Cleanup(func() {
		if err := idx.DropTenant(context.Background(), tenantID); err != nil {
			tb.Errorf("cleanup: DropTenant(%q): %v", tenantID, err)
		}
	})
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestConformance(t *testing.T) {
	storetest.RunIndex(t, "weaviate", func(tb testing.TB) lore.Index { return mustOpen(tb) })
}

func TestOpenIsIdempotentUnderConcurrency(t *testing.T) {
	u := serverURL(t)
	ctx := testCtx(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			idx, err := Open(ctx, Config{URL: u})
			if err == nil {
				err = idx.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open #%d: %v, want nil", i, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name string
		url  string
		code string
	}{
		{name: "bad url", url: "localhost", code: lore.EINVALID},
		// Port 1 on loopback is reserved and refuses connections.
		{name: "nothing listening", url: "http://127.0.0.1:1", code: lore.EUNAVAILABLE},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			idx, err := Open(ctx, Config{URL: tt.url})
			if idx != nil {
				idx.Close()
			}
			if got := lore.ErrorCode(err); got != tt.code {
				t.Fatalf("Open(%q) code=%q (err=%v), want %q", tt.url, got, err, tt.code)
			}
		})
	}
}

func TestOpenRejectedAPIKey(t *testing.T) {
	// The test server allows anonymous access only, so any API key is
	// refused, as a wrong key is by a server that checks keys.
	u := serverURL(t)
	ctx := testCtx(t)
	idx, err := Open(ctx, Config{URL: u, APIKey: "not-a-valid-key"})
	if idx != nil {
		idx.Close()
	}
	if got := lore.ErrorCode(err); got != lore.EUNAVAILABLE || !strings.Contains(lore.ErrorMessage(err), "API key") {
		t.Fatalf("Open with a refused key: code=%q message=%q, want %q naming the API key", got, lore.ErrorMessage(err), lore.EUNAVAILABLE)
	}
}

func TestUpsertAcrossTenantsAndHashedNames(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	// Upper case and spaces force the hashed Weaviate tenant name.
	plain, hashed := "wvtest-"+uuid.NewString(), "WV Test "+uuid.NewString()
	dropTenantAfter(t, idx, plain)
	dropTenantAfter(t, idx, hashed)
	a := lore.IndexDoc{ID: uuid.NewString(), Kind: lore.KindFact, Scope: lore.Scope{TenantID: plain, UserID: "u"}, Text: "kiwi smoothie"}
	b := lore.IndexDoc{ID: uuid.NewString(), Kind: lore.KindEpisode, Scope: lore.Scope{TenantID: hashed, UserID: "u"}, Text: "kiwi smoothie"}
	if err := idx.Upsert(ctx, []lore.IndexDoc{a, b}); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	for _, want := range []lore.IndexDoc{a, b} {
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: want.Scope, Text: "kiwi"})
		if err != nil {
			t.Fatalf("SearchText(%q): %v", want.Scope.TenantID, err)
		}
		if len(hits) != 1 || hits[0].ID != want.ID || hits[0].Kind != want.Kind {
			t.Fatalf("SearchText in tenant %q=%+v, want only %s (%s)", want.Scope.TenantID, hits, want.ID, want.Kind)
		}
	}
}

func TestUpsertBatchesAndDuplicates(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	tenant := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, tenant)
	sc := lore.Scope{TenantID: tenant, AgentID: "planner"}
	// More than one import batch, and an id repeated across batches: the
	// last version wins.
	n := upsertBatch*2 + 7
	docs := make([]lore.IndexDoc, 0, n+1)
	for i := range n {
		docs = append(docs, lore.IndexDoc{ID: uuid.NewString(), Kind: lore.KindEpisode, Scope: sc, Text: "walnut bread batch"})
		_ = i
	}
	last := docs[3]
	last.Text = "pecan pie"
	docs = append(docs, last)
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "walnut", Limit: MaxLimit})
	if err != nil {
		t.Fatalf("SearchText: %v", err)
	}
	if len(hits) != n-1 {
		t.Fatalf("len(walnut hits)=%d, want %d", len(hits), n-1)
	}
	hits, err = idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "pecan"})
	if err != nil {
		t.Fatalf("SearchText: %v", err)
	}
	if len(hits) != 1 || hits[0].ID != last.ID {
		t.Fatalf("pecan hits=%+v, want only %s", hits, last.ID)
	}
}

func TestInvalidInput(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	good := lore.Scope{TenantID: "wvtest-" + uuid.NewString(), UserID: "u"}
	nan := float32(0)
	nan /= nan
	tests := []struct {
		name string
		run  func() error
	}{
		{"upsert without id", func() error {
			return idx.Upsert(ctx, []lore.IndexDoc{{Kind: lore.KindFact, Scope: good, Text: "x"}})
		}},
		{"upsert without user or agent", func() error {
			return idx.Upsert(ctx, []lore.IndexDoc{{ID: "a", Kind: lore.KindFact, Scope: lore.Scope{TenantID: good.TenantID}, Text: "x"}})
		}},
		{"upsert unknown kind", func() error {
			return idx.Upsert(ctx, []lore.IndexDoc{{ID: "a", Kind: "chunk", Scope: good, Text: "x"}})
		}},
		{"upsert NaN vector", func() error {
			return idx.Upsert(ctx, []lore.IndexDoc{{ID: "a", Kind: lore.KindFact, Scope: good, Text: "x", Vector: []float32{1, nan}}})
		}},
		{"search unknown kind", func() error {
			_, err := idx.SearchText(ctx, lore.IndexQuery{Scope: good, Text: "x", Kinds: []lore.DocKind{"chunk"}})
			return err
		}},
		{"search NaN vector", func() error {
			_, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: good, Vector: []float32{nan}})
			return err
		}},
		{"delete without user or agent", func() error {
			return idx.Delete(ctx, lore.Scope{TenantID: good.TenantID}, []string{"a"})
		}},
		{"drop empty tenant id", func() error { return idx.DropTenant(ctx, "") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lore.ErrorCode(tt.run()); got != lore.EINVALID {
				t.Fatalf("code=%q, want %q", got, lore.EINVALID)
			}
		})
	}
}

func TestUnknownTenantIsEmpty(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	sc := lore.Scope{TenantID: "wvtest-never-" + uuid.NewString()[:8], UserID: "u"}
	hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "anything"})
	if err != nil || len(hits) != 0 {
		t.Fatalf("SearchText on unknown tenant=(%v, %v), want no hits and no error", hits, err)
	}
	hits, err = idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: []float32{1, 0, 0}})
	if err != nil || len(hits) != 0 {
		t.Fatalf("SearchVector on unknown tenant=(%v, %v), want no hits and no error", hits, err)
	}
	if err := idx.Delete(ctx, sc, []string{"x"}); err != nil {
		t.Fatalf("Delete on unknown tenant: %v, want nil", err)
	}
	if err := idx.DeleteScope(ctx, sc); err != nil {
		t.Fatalf("DeleteScope on unknown tenant: %v, want nil", err)
	}
	if err := idx.DropTenant(ctx, sc.TenantID); err != nil {
		t.Fatalf("DropTenant on unknown tenant: %v, want nil", err)
	}
}

func TestDropTenant(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	tenant := "wvtest-" + uuid.NewString()
	other := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, other)
	var docs []lore.IndexDoc
	for _, tn := range []string{tenant, other} {
		for _, user := range []string{"u1", "u2"} {
			docs = append(docs, lore.IndexDoc{ID: uuid.NewString(), Kind: lore.KindFact, Scope: lore.Scope{TenantID: tn, UserID: user}, Text: "mango lassi"})
		}
	}
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	if err := idx.DropTenant(ctx, tenant); err != nil {
		t.Fatalf("DropTenant: %v", err)
	}
	for _, c := range []struct {
		tenant string
		want   int
	}{{tenant, 0}, {other, 1}} {
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: lore.Scope{TenantID: c.tenant, UserID: "u1"}, Text: "mango"})
		if err != nil {
			t.Fatalf("SearchText(%s): %v", c.tenant, err)
		}
		if len(hits) != c.want {
			t.Errorf("len(hits) in %s=%d, want %d", c.tenant, len(hits), c.want)
		}
	}
}

func TestHostileQueryText(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	tenant := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, tenant)
	victim := lore.Scope{TenantID: tenant, UserID: "victim"}
	attacker := lore.Scope{TenantID: tenant, UserID: "attacker"}
	if err := idx.Upsert(ctx, []lore.IndexDoc{{ID: "secret", Kind: lore.KindFact, Scope: victim, Text: "the vault code is 1234"}}); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	for _, q := range []string{
		`vault"}, where:{operator:Equal,path:["user_id"],valueText:"victim"}) {lore_id}} #`,
		"vault\x00\x07\\",
		`\"vault\"`,
	} {
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: attacker, Text: q})
		if err != nil {
			t.Fatalf("SearchText(%q): %v", q, err)
		}
		if len(hits) != 0 {
			t.Fatalf("SearchText(%q) as attacker=%+v, want nothing", q, hits)
		}
	}
	if !strings.Contains(buildQuery(lore.IndexQuery{Scope: attacker}, []string{FactCollection}, 1, "bm25:{query:\"x\"}", "score"), `valueText:"attacker"`) {
		t.Fatal("query does not filter on the reading user")
	}
}

func TestDeleteBeyondOnePage(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 10k documents; skipped with -short")
	}
	idx := mustOpen(t)
	ctx := testCtx(t)
	tenant := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, tenant)
	sc := lore.Scope{TenantID: tenant, UserID: "u"}
	kept := lore.Scope{TenantID: tenant, UserID: "other"}
	// More than Weaviate's default QUERY_MAXIMUM_RESULTS (10,000), the most
	// one batch delete removes, so DeleteScope must loop even after Delete
	// removed 600.
	const n = MaxLimit + 1200
	docs := make([]lore.IndexDoc, 0, n+1)
	for range n {
		docs = append(docs, lore.IndexDoc{ID: uuid.NewString(), Kind: lore.KindFact, Scope: sc, Text: "quince jam"})
	}
	docs = append(docs, lore.IndexDoc{ID: uuid.NewString(), Kind: lore.KindEpisode, Scope: kept, Text: "quince jam"})
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	// Delete by id in more than one chunk of ids.
	ids := make([]string, 0, deleteBatch+100)
	for _, d := range docs[:deleteBatch+100] {
		ids = append(ids, d.ID)
	}
	if err := idx.Delete(ctx, sc, ids); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "quince", Limit: MaxLimit})
	if err != nil {
		t.Fatalf("SearchText: %v", err)
	}
	if want := n - len(ids); len(hits) != min(want, MaxLimit) {
		t.Fatalf("after Delete: %d hits, want %d", len(hits), min(want, MaxLimit))
	}
	if err := idx.DeleteScope(ctx, sc); err != nil {
		t.Fatalf("DeleteScope: %v", err)
	}
	hits, err = idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "quince", Limit: MaxLimit})
	if err != nil {
		t.Fatalf("SearchText: %v", err)
	}
	if len(hits) != 0 {
		t.Fatalf("after DeleteScope: %d hits, want 0", len(hits))
	}
	hits, err = idx.SearchText(ctx, lore.IndexQuery{Scope: kept, Text: "quince"})
	if err != nil || len(hits) != 1 {
		t.Fatalf("other user's hits=(%v, %v), want 1", hits, err)
	}
}

func TestUpsertReportsRefusedObjects(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	tenant := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, tenant)
	sc := lore.Scope{TenantID: tenant, UserID: "u"}
	first := lore.IndexDoc{ID: "dim3", Kind: lore.KindFact, Scope: sc, Text: "a", Vector: []float32{1, 0, 0}}
	if err := idx.Upsert(ctx, []lore.IndexDoc{first}); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	// A vector of another dimension than the index's is refused by
	// Weaviate object by object; Upsert must say so, naming the document.
	second := lore.IndexDoc{ID: "dim4", Kind: lore.KindFact, Scope: sc, Text: "b", Vector: []float32{1, 0, 0, 0}}
	err := idx.Upsert(ctx, []lore.IndexDoc{second})
	if err == nil || !strings.Contains(err.Error(), "dim4") {
		t.Fatalf("Upsert of a 4-dimensional vector into a 3-dimensional index: err=%v, want an error naming dim4", err)
	}
}

func TestScopeIDsAreExact(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	tenant := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, tenant)
	// Identifiers that a tokenizer could fold together must stay apart:
	// case, inner spaces and punctuation are all significant.
	users := []string{"Alice", "alice", "al ice", "al-ice", "alice.", "ALICE"}
	var docs []lore.IndexDoc
	for _, u := range users {
		docs = append(docs, lore.IndexDoc{ID: "doc-" + u, Kind: lore.KindFact, Scope: lore.Scope{TenantID: tenant, UserID: u}, Text: "plum", Vector: []float32{1, 0}})
	}
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	for _, u := range users {
		sc := lore.Scope{TenantID: tenant, UserID: u}
		th, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "plum"})
		if err != nil {
			t.Fatalf("SearchText(%q): %v", u, err)
		}
		vh, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: []float32{1, 0}})
		if err != nil {
			t.Fatalf("SearchVector(%q): %v", u, err)
		}
		for _, hits := range [][]lore.IndexHit{th, vh} {
			if len(hits) != 1 || hits[0].ID != "doc-"+u {
				t.Errorf("user %q sees %+v, want only doc-%s", u, hits, u)
			}
		}
	}
}

func TestTextSearchStemsLikeTheEmbeddedIndex(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	tenant := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, tenant)
	sc := lore.Scope{TenantID: tenant, UserID: "u"}
	docs := []lore.IndexDoc{
		{ID: "adopted", Kind: lore.KindFact, Scope: sc, Text: "Alice adopted two beagles"},
		{ID: "cafe", Kind: lore.KindEpisode, Scope: sc, Text: "We met at the Café Crème in Lyon"},
		{ID: "nineties", Kind: lore.KindFact, Scope: sc, Text: "Grew up in the 1990s"},
	}
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	tests := []struct{ query, want string }{
		{"Which dog did she adopt?", "adopted"},
		{"beagle adoption", "adopted"},
		{"cafe creme", "cafe"},
		{"CAFÉS", "cafe"},
		{"1990", "nineties"},
	}
	for _, tt := range tests {
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: tt.query})
		if err != nil {
			t.Fatalf("SearchText(%q): %v", tt.query, err)
		}
		if len(hits) == 0 || hits[0].ID != tt.want {
			t.Errorf("SearchText(%q)=%+v, want %s first", tt.query, hits, tt.want)
		}
	}
}

// TestBM25KeepsFreshRareMatches guards against Weaviate's BlockMax WAND
// index, which in 1.35.2 prunes documents of terms not yet flushed to disk
// once a limited query's heap is full (weaviate/weaviate#11780): the one
// document holding both query terms must come first. The collections must
// have been created with USE_INVERTED_SEARCHABLE=false, as start.sh and
// docker-compose.yml do.
func TestBM25KeepsFreshRareMatches(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	tenant := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, tenant)
	sc := lore.Scope{TenantID: tenant, UserID: "u"}
	var docs []lore.IndexDoc
	for i := range 300 {
		docs = append(docs, lore.IndexDoc{ID: fmt.Sprintf("common-%03d", i), Kind: lore.KindFact, Scope: sc, Text: "dinner again tonight"})
	}
	docs = append(docs, lore.IndexDoc{ID: "rare", Kind: lore.KindFact, Scope: sc, Text: "dinner of sushi sushi sushi sushi sushi"})
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	for _, limit := range []int{1, 3} {
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "dinner sushi", Limit: limit, Kinds: []lore.DocKind{lore.KindFact}})
		if err != nil {
			t.Fatalf("SearchText: %v", err)
		}
		if len(hits) == 0 || hits[0].ID != "rare" {
			t.Fatalf("SearchText(limit %d)=%+v, want the sushi document first (is the collection on BlockMax WAND? see docs/weaviate.md)", limit, hits)
		}
	}
}

func TestListDocs(t *testing.T) {
	storetest.RunIndexLister(t, "weaviate", func(tb testing.TB) lore.Index { return mustOpen(tb) })
}
