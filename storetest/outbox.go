package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// OutboxStore is a store that keeps an outbox of index changes and lists
// its tenants.
type OutboxStore interface {
	lore.Store
	lore.Outbox
	lore.TenantLister
}

// claimAll takes every entry of the tenant, as a worker far in the future
// would.
func claimAll(t *testing.T, st OutboxStore, tenant string) []lore.OutboxEntry {
	t.Helper()
	got, err := st.ClaimOutbox(ctxFor(t), tenant, time.Now().Add(24*time.Hour), time.Minute, 1000)
	must(t, "ClaimOutbox", err)
	return got
}

// entryKeys renders entries as "kind:memory" in order, scope entries as
// "scope:<user>".
func entryKeys(entries []lore.OutboxEntry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		if e.Kind == lore.KindScope {
			out[i] = "scope:" + e.Scope.UserID
			continue
		}
		out[i] = string(e.Kind) + ":" + e.MemoryID
	}
	return out
}

// done deletes claimed entries.
func done(t *testing.T, st OutboxStore, entries []lore.OutboxEntry) {
	t.Helper()
	seqs := make([]int64, len(entries))
	for i, e := range entries {
		seqs[i] = e.Seq
	}
	must(t, "DoneOutbox", st.DoneOutbox(ctxFor(t), seqs))
}

// RunOutbox runs the conformance suite for lore.Outbox and
// lore.TenantLister against one backend. open is called once and
// registers its own cleanup.
func RunOutbox(t *testing.T, backend string, open func(testing.TB) OutboxStore) {
	t.Helper()
	st := open(t)
	s := suite{t: t, backend: backend}

	s.run("Outbox/RecordsEveryChange", func(t *testing.T) {
		ctx := lore.WithOutboxTag(ctxFor(t), "tag-1")
		sc := userScope()
		cleanupStore(t, st, sc)
		long := strings.Repeat("A long message that is split into passages. ", 400)
		eps := []*lore.Episode{
			{Scope: sc, Role: "user", Content: "I live in Paris.", OccurredAt: at(1)},
			{Scope: sc, Role: "assistant", Content: long, OccurredAt: at(2)},
			{Scope: sc, Role: "user", Content: "And I work at Google.", OccurredAt: at(3)},
		}
		must(t, "AddEpisodes", st.AddEpisodes(ctx, eps))
		got := claimAll(t, st, sc.TenantID)
		sameList(t, "entries of AddEpisodes", entryKeys(got), []string{"episode:" + eps[0].ID, "episode:" + eps[1].ID, "episode:" + eps[2].ID})
		if len(got) == 3 {
			if !slices.Contains(got[1].DocIDs, lore.PassageID(eps[1].ID, 1)) {
				t.Errorf("entry of a long episode names documents %v, want its passages", got[1].DocIDs)
			}
			if got[0].Tag != "tag-1" || got[0].Scope != sc || got[0].Attempts != 1 {
				t.Errorf("entry = %+v, want tag-1, scope %+v and 1 attempt", got[0], sc)
			}
		}
		done(t, st, got)

		alice := mergeEntity(t, st, sc, "Alice", 1)
		f, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: alice.ID, Subject: "Alice", Predicate: "lives_in", Object: "Paris",
			Text: "Alice lives in Paris", Confidence: 0.8, FirstSeen: at(1), LastSeen: at(1), SourceEpisodeIDs: []string{eps[0].ID}}, "test")
		must(t, "MergeFact", err)
		got = claimAll(t, st, sc.TenantID)
		sameList(t, "entries of MergeFact", entryKeys(got), []string{"fact:" + f.ID})
		done(t, st, got)

		_, err = st.UpdateFact(ctx, sc, f.ID, lore.FactUpdate{Text: ptr("Alice lives in Paris, France")})
		must(t, "UpdateFact", err)
		got = claimAll(t, st, sc.TenantID)
		sameSet(t, "entries of UpdateFact (text)", entryKeys(got), []string{"fact:" + f.ID, "episode:" + eps[0].ID})
		done(t, st, got)

		_, err = st.UpdateEpisode(ctx, sc, eps[1].ID, lore.EpisodeUpdate{Content: ptr("Short now.")})
		must(t, "UpdateEpisode", err)
		got = claimAll(t, st, sc.TenantID)
		// The turn after quotes this one in its document.
		sameSet(t, "entries of UpdateEpisode", entryKeys(got), []string{"episode:" + eps[1].ID, "episode:" + eps[2].ID})
		for _, e := range got {
			if e.MemoryID == eps[1].ID && !slices.Contains(e.DocIDs, lore.PassageID(eps[1].ID, 1)) {
				t.Errorf("entry of an episode that was long names documents %v, want its old passages", e.DocIDs)
			}
		}
		done(t, st, got)

		must(t, "DeleteFact", st.DeleteFact(ctx, sc, f.ID, "test"))
		must(t, "DeleteEpisode", st.DeleteEpisode(ctx, sc, eps[0].ID, "test"))
		got = claimAll(t, st, sc.TenantID)
		// Both name the fact's source episode: one entry each.
		keys := entryKeys(got)
		slices.Sort(keys)
		sameSet(t, "entries of DeleteFact and DeleteEpisode", slices.Compact(keys),
			[]string{"fact:" + f.ID, "episode:" + eps[0].ID, "episode:" + eps[1].ID})
		done(t, st, got)

		// A refused change records nothing.
		wantCode(t, "DeleteEpisode(unknown)", st.DeleteEpisode(ctx, sc, "no-such-episode", "test"), lore.ENOTFOUND)
		if got := claimAll(t, st, sc.TenantID); len(got) != 0 {
			t.Errorf("a refused delete recorded %v", entryKeys(got))
		}

		_, err = st.DeleteScope(ctx, sc)
		must(t, "DeleteScope", err)
		got = claimAll(t, st, sc.TenantID)
		sameList(t, "entries of DeleteScope", entryKeys(got), []string{"scope:alice"})
		done(t, st, got)
	})

	s.run("Outbox/GraceLeaseRetryDone", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		ep := addEpisode(t, st, sc, "hello", 1)
		now := time.Now()
		early, err := st.ClaimOutbox(ctx, sc.TenantID, now, time.Minute, 10)
		must(t, "ClaimOutbox now", err)
		if len(early) != 0 {
			t.Fatalf("an entry was taken within its grace: %v", entryKeys(early))
		}
		n, err := st.PendingOutbox(ctx, sc.TenantID)
		must(t, "PendingOutbox", err)
		if n != 1 {
			t.Fatalf("PendingOutbox=%d, want 1", n)
		}
		later := now.Add(lore.OutboxGrace + time.Second)
		got, err := st.ClaimOutbox(ctx, sc.TenantID, later, time.Minute, 10)
		must(t, "ClaimOutbox after the grace", err)
		sameList(t, "claimed", entryKeys(got), []string{"episode:" + ep.ID})
		again, err := st.ClaimOutbox(ctx, sc.TenantID, later.Add(30*time.Second), time.Minute, 10)
		must(t, "ClaimOutbox within the lease", err)
		if len(again) != 0 {
			t.Fatalf("an entry was taken again within its lease")
		}
		if len(got) != 1 {
			return
		}
		must(t, "FailOutbox", st.FailOutbox(ctx, got[0].Seq, later.Add(2*time.Minute), "index down"))
		retry, err := st.ClaimOutbox(ctx, sc.TenantID, later.Add(2*time.Minute), time.Minute, 10)
		must(t, "ClaimOutbox at the retry", err)
		if len(retry) != 1 || retry[0].Attempts != 2 || retry[0].LastError != "index down" {
			t.Fatalf("retry = %+v, want the entry with 2 attempts and its error", retry)
		}
		// Another tenant's worker never sees it.
		if other, err := st.ClaimOutbox(ctx, newTenant(), later.Add(time.Hour), time.Minute, 10); err != nil || len(other) != 0 {
			t.Fatalf("ClaimOutbox(other tenant) = %v, %v; want nothing", entryKeys(other), err)
		}
		done(t, st, retry)
		if n, _ := st.PendingOutbox(ctx, sc.TenantID); n != 0 {
			t.Fatalf("PendingOutbox after done = %d, want 0", n)
		}
		must(t, "DoneOutbox(unknown)", st.DoneOutbox(ctx, []int64{retry[0].Seq}))
	})

	s.run("Outbox/AckByTag", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		mine := lore.WithOutboxTag(ctx, "mine")
		a := &lore.Episode{Scope: sc, Role: "user", Content: "a", OccurredAt: at(1)}
		b := &lore.Episode{Scope: sc, Role: "user", Content: "b", OccurredAt: at(2)}
		must(t, "AddEpisodes", st.AddEpisodes(mine, []*lore.Episode{a, b}))
		c := &lore.Episode{Scope: sc, Role: "user", Content: "c", OccurredAt: at(3)}
		must(t, "AddEpisodes", st.AddEpisodes(lore.WithOutboxTag(ctx, "theirs"), []*lore.Episode{c}))
		must(t, "AckOutbox", st.AckOutbox(ctx, "mine", []string{a.ID, c.ID}))
		must(t, "AckOutbox without a tag", st.AckOutbox(ctx, "", []string{b.ID}))
		got := claimAll(t, st, sc.TenantID)
		sameSet(t, "left after the ack", entryKeys(got), []string{"episode:" + b.ID, "episode:" + c.ID})
	})

	s.run("Tenants", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		addEpisode(t, st, sc, "hello", 1)
		got, err := st.Tenants(ctx)
		must(t, "Tenants", err)
		if !slices.Contains(got, sc.TenantID) {
			t.Fatalf("Tenants() lacks %s (%d tenants)", sc.TenantID, len(got))
		}
		if !slices.IsSorted(got) {
			t.Errorf("Tenants() is not sorted")
		}
	})
}

// RunIndexLister runs the conformance suite for lore.IndexLister.
func RunIndexLister(t *testing.T, backend string, open func(testing.TB) lore.Index) {
	t.Helper()
	idx := open(t)
	lister, ok := idx.(lore.IndexLister)
	if !ok {
		t.Fatalf("%T is not a lore.IndexLister", idx)
	}
	s := suite{t: t, backend: backend}
	s.run("ListDocs/PagesThroughScope", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		bob := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		t.Cleanup(func() { _ = idx.DeleteScope(context.Background(), lore.Scope{TenantID: sc.TenantID}) })
		var docs []lore.IndexDoc
		want := map[string]lore.IndexDoc{}
		for i := range 7 {
			d := lore.IndexDoc{ID: fmt.Sprintf("doc-%d", i), Kind: lore.KindFact, Scope: sc, Text: fmt.Sprintf("text %d", i),
				Time: at(i), Vector: []float32{1, float32(i), 0}}
			if i%2 == 1 {
				d.Kind = lore.KindEpisode
			}
			docs = append(docs, d)
			want[d.ID] = d
		}
		docs = append(docs, lore.IndexDoc{ID: "bobs", Kind: lore.KindFact, Scope: bob, Text: "bob's", Time: at(1), Vector: []float32{0, 1, 0}})
		must(t, "Upsert", idx.Upsert(ctx, docs))
		seen := map[string]bool{}
		pages := 0
		for cursor := ""; ; pages++ {
			page, next, err := lister.ListDocs(ctx, sc, cursor, 3)
			must(t, "ListDocs", err)
			if len(page) > 3 {
				t.Fatalf("page of %d documents, limit 3", len(page))
			}
			for _, d := range page {
				w, ok := want[d.ID]
				if !ok || seen[d.ID] {
					t.Fatalf("ListDocs returned %q (known %v, seen before %v)", d.ID, ok, seen[d.ID])
				}
				seen[d.ID] = true
				if d.Kind != w.Kind || d.Scope != w.Scope || d.Text != w.Text || !d.Time.Equal(w.Time) || len(d.Vector) != 3 {
					t.Errorf("ListDocs %s = %+v, want %+v", d.ID, d, w)
				}
			}
			if next == "" {
				break
			}
			cursor = next
			if pages > 10 {
				t.Fatalf("ListDocs does not end")
			}
		}
		if len(seen) != len(want) {
			t.Fatalf("ListDocs listed %d of %d documents", len(seen), len(want))
		}
		all, _, err := lister.ListDocs(ctx, lore.Scope{TenantID: sc.TenantID}, "", 100)
		must(t, "ListDocs(tenant)", err)
		if len(all) != len(docs) {
			t.Fatalf("ListDocs(tenant) = %d documents, want %d", len(all), len(docs))
		}
	})
}
