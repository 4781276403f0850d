package weaviate

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/index/terms"
)

// cjkWords are Chinese words (Traditional and Simplified) and a few Latin
// ones, written for this test, from which cjkCorpus builds sentences with
// no spaces between Chinese words, as Chinese is written.
var cjkWords = strings.Fields(`我 住在 台北 台中 東京 上海 北京 妹妹 老公 工作 上班 台積電 聯發科 字节跳动
	喜歡 喜欢 攀岩 龍洞 跑步 过敏 過敏 花生 牛奶 工程師 护士 医生 搬到 上個月 上个月 去年 週末
	咖啡 早午餐 醫院 医院 公司 學校 学校 Google Emma 5.11a 的 了 很 也 在 和`)

// cjkCorpus returns n documents of Chinese text with some Latin words.
func cjkCorpus(r *rand.Rand, sc lore.Scope, n int) []lore.IndexDoc {
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(cjkWords)-1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	docs := make([]lore.IndexDoc, n)
	for i := range docs {
		var b strings.Builder
		for j := range 6 + r.IntN(10) {
			w := cjkWords[zipf.Uint64()]
			if j > 0 && (w[0] < 0x80) {
				b.WriteByte(' ')
			}
			b.WriteString(w)
			if r.IntN(5) == 0 {
				b.WriteString("，")
			}
		}
		b.WriteString("。")
		docs[i] = lore.IndexDoc{
			ID: uuid.NewString(), Kind: lore.KindFact, Scope: sc,
			Text: b.String(), Vector: benchVector(r), Time: base.Add(time.Duration(i) * time.Minute),
		}
	}
	return docs
}

// TestParityChinese is TestParityWithEmbeddedIndex for Chinese text: both
// indexes rank BM25 over the character bigrams of package terms (Weaviate's
// terms property is tokenized on white space, and terms.Joined writes the
// bigrams space-separated), so a Chinese query finds the same documents in
// both; only the engines' IDF formulas differ.
func TestParityChinese(t *testing.T) {
	idx := mustOpen(t)
	ctx := testCtx(t)
	_, embedded := sqlitetest.Open(t)
	tenant := "wvtest-" + uuid.NewString()
	dropTenantAfter(t, idx, tenant)
	sc := lore.Scope{TenantID: tenant, UserID: "u"}
	r := rand.New(rand.NewPCG(21, 22))
	docs := cjkCorpus(r, sc, 300)
	for _, x := range []lore.Index{idx, embedded} {
		if err := x.Upsert(ctx, docs); err != nil {
			t.Fatalf("Upsert: %v", err)
		}
	}
	const k = 10
	queries := []string{"我妹妹住在哪裡？", "我在哪家公司上班", "攀岩", "龍洞", "我對什麼過敏", "我老公是医生吗", "Google工作",
		"我在Google工作", "上个月搬到上海", "台積電工程師", "喜欢跑步", "東京", "咖啡早午餐", "妹妹是护士"}
	for range 30 {
		queries = append(queries, cjkWords[r.IntN(len(cjkWords))]+cjkWords[r.IntN(len(cjkWords))])
	}
	var top1, overlap float64
	var empty int
	for _, text := range queries {
		q := lore.IndexQuery{Scope: sc, Limit: k, Kinds: []lore.DocKind{lore.KindFact}, Text: text}
		wt, err := idx.SearchText(ctx, q)
		if err != nil {
			t.Fatalf("weaviate SearchText(%q): %v", text, err)
		}
		et, err := embedded.SearchText(ctx, q)
		if err != nil {
			t.Fatalf("embedded SearchText(%q): %v", text, err)
		}
		if len(et) == 0 {
			empty++
			if len(wt) != 0 {
				t.Errorf("query %q (terms %q): weaviate found %d, embedded nothing", text, terms.Joined(text), len(wt))
			}
			top1, overlap = top1+1, overlap+1
			continue
		}
		if len(wt) > 0 && (wt[0].Score == et[0].Score || wt[0].ID == et[0].ID) {
			top1++
		}
		overlap += float64(len(intersect(ids(wt), ids(et)))) / float64(max(len(et), len(wt)))
	}
	n := float64(len(queries))
	top1, overlap = top1/n, overlap/n
	t.Logf("Chinese BM25 agreement over %d queries (%d found nothing in either): top-1 %.2f, top-%d overlap %.2f", len(queries), empty, top1, k, overlap)
	if empty > len(queries)/4 {
		t.Errorf("%d of %d Chinese queries found nothing: the bigrams do not match", empty, len(queries))
	}
	if top1 < 0.75 || overlap < 0.75 {
		t.Errorf("Chinese BM25 agreement with the embedded index: top-1 %.2f, top-%d overlap %.2f; want both at least 0.75", top1, k, overlap)
	}
}
