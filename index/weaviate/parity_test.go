package weaviate

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
)

// TestParityWithEmbeddedIndex indexes one corpus in the embedded index
// (graph/sqlite) and in Weaviate and compares what the same queries find:
// the promise that a deployment can move between backends and keep its
// results. Vector search is exact on both (a user's documents are below
// Weaviate's flat-search cutoff), so the rankings must be equal. BM25 runs on
// the same terms, but the two engines weigh rare and common terms with
// slightly different IDF formulas, so the text rankings must largely agree.
func TestParityWithEmbeddedIndex(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	_, embedded := sqlitetest.Open(t)
	tenant := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, tenant)
	sc := lore.Scope{TenantID: tenant, UserID: "u"}
	r := rand.New(rand.NewPCG(11, 12))
	docs := benchCorpus(r, sc, 400)
	for i := range docs {
		docs[i].Kind = lore.KindFact
	}
	for _, x := range []lore.Index{idx, embedded} {
		if err := x.Upsert(ctx, docs); err != nil {
			t.Fatalf("Upsert: %v", err)
		}
	}

	const k = 10
	var top1, overlap float64
	const queries = 60
	for i := range queries {
		q := lore.IndexQuery{Scope: sc, Limit: k, Kinds: []lore.DocKind{lore.KindFact}, Vector: benchVector(r)}
		q.Text = strings.Join([]string{benchWords[r.IntN(len(benchWords))], benchWords[r.IntN(len(benchWords))]}, " ")

		wv, err := idx.SearchVector(ctx, q)
		if err != nil {
			t.Fatalf("weaviate SearchVector: %v", err)
		}
		ev, err := embedded.SearchVector(ctx, q)
		if err != nil {
			t.Fatalf("embedded SearchVector: %v", err)
		}
		if !slices.Equal(ids(wv), ids(ev)) {
			t.Errorf("query %d: vector ranking weaviate=%v, embedded=%v", i, ids(wv), ids(ev))
		}
		for j := range min(len(wv), len(ev)) {
			if math.Abs(wv[j].Score-ev[j].Score) > 1e-4 {
				t.Errorf("query %d hit %d: cosine weaviate=%v, embedded=%v", i, j, wv[j].Score, ev[j].Score)
			}
		}

		wt, err := idx.SearchText(ctx, q)
		if err != nil {
			t.Fatalf("weaviate SearchText: %v", err)
		}
		et, err := embedded.SearchText(ctx, q)
		if err != nil {
			t.Fatalf("embedded SearchText: %v", err)
		}
		if len(et) == 0 {
			if len(wt) != 0 {
				t.Errorf("query %q: weaviate found %d, embedded nothing", q.Text, len(wt))
			}
			top1, overlap = top1+1, overlap+1
			continue
		}
		if len(wt) > 0 && wt[0].Score == et[0].Score || len(wt) > 0 && wt[0].ID == et[0].ID {
			top1++
		}
		overlap += float64(len(intersect(ids(wt), ids(et)))) / float64(max(len(et), len(wt)))
	}
	top1, overlap = top1/queries, overlap/queries
	t.Logf("BM25 agreement over %d queries: top-1 %.2f, top-%d overlap %.2f", queries, top1, k, overlap)
	if top1 < 0.75 || overlap < 0.75 {
		t.Errorf("BM25 agreement with the embedded index: top-1 %.2f, top-%d overlap %.2f; want both at least 0.75", top1, k, overlap)
	}
}

func ids(hits []lore.IndexHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
