package sqlite

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/lore-memory/lore"
)

// TestPostingCacheFollowsWrites: a long posting list served from the cache
// gives the same hits as one read from SQLite after every kind of write to
// its partition: an add, a delete, and a replacement whose counts come out
// even (the same number of documents and tokens, other terms).
func TestPostingCacheFollowsWrites(t *testing.T) {
	ctx := context.Background()
	st, idx := openIndex(t)
	sc := testScope()
	var docs []lore.IndexDoc
	for i := range postingCacheMin + 100 {
		docs = append(docs, lore.IndexDoc{ID: fmt.Sprintf("d%d", i), Kind: lore.KindEpisode, Scope: sc,
			Text: fmt.Sprintf("common word%d", i%37)})
	}
	mustUpsert(t, idx, docs...)
	search := func(cached bool) []lore.IndexHit {
		t.Helper()
		cache := st.postings
		if !cached {
			st.postings = nil
			defer func() { st.postings = cache }()
		}
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "common word5", Limit: 2000})
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	check := func(step string) {
		t.Helper()
		search(true) // reads the list into the cache, or finds it there
		held := st.postings.held
		got, want := search(true), search(false)
		if held == 0 {
			t.Fatalf("%s: the cache holds nothing; the test would prove nothing", step)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: cached search gave %d hits, SQLite %d (first %v / %v)", step, len(got), len(want), got[:min(3, len(got))], want[:min(3, len(want))])
		}
	}
	check("first")
	mustUpsert(t, idx, lore.IndexDoc{ID: "new", Kind: lore.KindEpisode, Scope: sc, Text: "common word5 again"})
	if st.postings.held != 0 {
		t.Errorf("the write left %d postings of its partition in the cache", st.postings.held)
	}
	check("after an add")
	if err := idx.Delete(ctx, sc, []string{"d5", "d42"}); err != nil {
		t.Fatal(err)
	}
	check("after a delete")
	// Two tokens for two tokens: the partition's counts do not change, its
	// "common" list loses d7.
	mustUpsert(t, idx, lore.IndexDoc{ID: "d7", Kind: lore.KindEpisode, Scope: sc, Text: "other thing"})
	check("after an even replacement")
	for _, h := range search(true) {
		if h.ID == "d7" {
			t.Errorf("d7 no longer says common but was found: %v", h)
		}
	}
}

func TestPostingCacheBound(t *testing.T) {
	c := newPostingCache(3 * postingCacheMin)
	list := make([]posting, postingCacheMin)
	for i := range 5 {
		c.put(postingKey{part: 1, gen: int64(i), term: "x"}, list)
	}
	if c.held != 3*postingCacheMin || len(c.byKey) != 3 {
		t.Fatalf("held %d postings in %d lists, want %d in 3", c.held, len(c.byKey), 3*postingCacheMin)
	}
	if _, ok := c.get(postingKey{part: 1, gen: 0, term: "x"}); ok {
		t.Error("the least recently used list is still held")
	}
	if _, ok := c.get(postingKey{part: 1, gen: 4, term: "x"}); !ok {
		t.Error("the newest list is gone")
	}
	c.put(postingKey{part: 2, term: "short"}, list[:postingCacheMin-1])
	if _, ok := c.get(postingKey{part: 2, term: "short"}); ok {
		t.Error("a list shorter than postingCacheMin was kept")
	}
}
