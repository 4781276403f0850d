package storetest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/lore-memory/lore"
)

// mergeEntity merges one mention of a named entity seen at hour h.
func mergeEntity(t *testing.T, st lore.Store, sc lore.Scope, name string, h int) *lore.Entity {
	t.Helper()
	e, err := st.MergeEntity(ctxFor(t), &lore.Entity{Scope: sc, Name: name, Type: "person", FirstSeen: at(h), LastSeen: at(h)})
	must(t, "MergeEntity "+name, err)
	return e
}

// mergeFact merges a fact seen at hour h from subject to an entity object,
// or to a literal when obj is nil.
func mergeFact(t *testing.T, st lore.Store, sc lore.Scope, subj *lore.Entity, pred string, obj *lore.Entity, literal string, h int, sources ...string) *lore.Fact {
	t.Helper()
	f := &lore.Fact{
		Scope: sc, SubjectID: subj.ID, Subject: subj.Name, Predicate: pred, Object: literal,
		Text: fmt.Sprintf("%s %s %s", subj.Name, pred, literal), Confidence: 0.8,
		FirstSeen: at(h), LastSeen: at(h), SourceEpisodeIDs: sources, Extractor: "test",
	}
	if obj != nil {
		f.ObjectID, f.Object = obj.ID, obj.Name
		f.Text = fmt.Sprintf("%s %s %s", subj.Name, pred, obj.Name)
	}
	got, _, err := st.MergeFact(ctxFor(t), f, "test")
	must(t, "MergeFact "+f.Text, err)
	return got
}

func runEntities(s suite, st lore.Store) {
	s.run("MergeEntity/CreatesThenCounts", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		first, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Alice Smith", Type: "person", FirstSeen: at(5), LastSeen: at(5)})
		must(t, "MergeEntity", err)
		if first.ID == "" || first.Mentions != 1 || first.NormalizedName != "alice smith" || first.Type != "person" {
			t.Fatalf("new entity=%+v, want an id, 1 mention, normalized name \"alice smith\"", first)
		}
		if first.Scope != sc.Namespace() {
			t.Errorf("entity scope=%+v, want the namespace %+v", first.Scope, sc.Namespace())
		}
		// Merged twice more: once earlier with 3 mentions, once later.
		_, err = st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "alice  SMITH", Mentions: 3, FirstSeen: at(1), LastSeen: at(2)})
		must(t, "MergeEntity earlier", err)
		got, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Alice Smith.", FirstSeen: at(9), LastSeen: at(9)})
		must(t, "MergeEntity later", err)
		if got.ID != first.ID {
			t.Fatalf("merged id=%q, want %q (same entity)", got.ID, first.ID)
		}
		if got.Mentions != 5 {
			t.Errorf("mentions=%d, want 5 (1 + 3 + 1)", got.Mentions)
		}
		sameTime(t, "FirstSeen", got.FirstSeen, at(1))
		sameTime(t, "LastSeen", got.LastSeen, at(9))
		if got.Name != "Alice Smith" {
			t.Errorf("name=%q, want the first spelling \"Alice Smith\"", got.Name)
		}
		all, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc})
		must(t, "FindEntities", err)
		if len(all) != 1 {
			t.Errorf("len(entities)=%d, want 1", len(all))
		}
	})

	s.run("MergeEntity/ByAlias", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		rob, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Robert", Type: "person", Aliases: []string{"Bob", "Bobby"}, FirstSeen: at(0), LastSeen: at(0)})
		must(t, "MergeEntity Robert", err)
		byAlias, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "bob", FirstSeen: at(1), LastSeen: at(1)})
		must(t, "MergeEntity bob", err)
		if byAlias.ID != rob.ID || byAlias.Mentions != 2 {
			t.Fatalf("merge by alias gave id=%q mentions=%d, want %q with 2", byAlias.ID, byAlias.Mentions, rob.ID)
		}
		// A new alias learned through a merge makes the entity findable by it.
		_, err = st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Robert", Aliases: []string{"Rob"}, FirstSeen: at(2), LastSeen: at(2)})
		must(t, "MergeEntity with new alias", err)
		found, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc, Names: []string{"ROB"}})
		must(t, "FindEntities by alias", err)
		if len(found) != 1 || found[0].ID != rob.ID {
			t.Fatalf("FindEntities(Names=[ROB])=%v, want Robert", entityNames(found))
		}
		sameSet(t, "aliases", found[0].Aliases, []string{"bob", "bobby", "rob"})
		if found[0].Mentions != 3 {
			t.Errorf("mentions=%d, want 3", found[0].Mentions)
		}
	})

	s.run("MergeEntity/ConcurrentMergesCreateOne", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		const n = 24
		ids := make([]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Paris", Type: "place", FirstSeen: at(i), LastSeen: at(i)})
				errs[i] = err
				if err == nil {
					ids[i] = e.ID
				}
			}()
		}
		wg.Wait()
		for i, err := range errs {
			must(t, fmt.Sprintf("merge %d", i), err)
			if ids[i] != ids[0] {
				t.Fatalf("merge %d gave id %q, merge 0 gave %q, want one entity", i, ids[i], ids[0])
			}
		}
		all, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc})
		must(t, "FindEntities", err)
		if len(all) != 1 || all[0].Mentions != n {
			t.Fatalf("entities=%d mentions=%v, want 1 entity with %d mentions", len(all), all, n)
		}
		sameTime(t, "FirstSeen", all[0].FirstSeen, at(0))
		sameTime(t, "LastSeen", all[0].LastSeen, at(n-1))
	})

	s.run("MergeEntity/PerNamespace", func(t *testing.T) {
		ctx := ctxFor(t)
		alice := userScope()
		bob := lore.Scope{TenantID: alice.TenantID, UserID: "bob"}
		run1 := lore.Scope{TenantID: alice.TenantID, UserID: "alice", RunID: "run-1"}
		run2 := lore.Scope{TenantID: alice.TenantID, UserID: "alice", RunID: "run-2"}
		cleanupStore(t, st, alice, bob)
		a1 := mergeEntity(t, st, run1, "Max", 0)
		a2 := mergeEntity(t, st, run2, "Max", 1)
		b := mergeEntity(t, st, bob, "Max", 2)
		if a1.ID != a2.ID {
			t.Errorf("runs of one user gave ids %q and %q, want one entity per namespace", a1.ID, a2.ID)
		}
		if b.ID == a1.ID {
			t.Errorf("two users share entity %q, want one each", b.ID)
		}
		if b.Mentions != 1 {
			t.Errorf("bob's entity mentions=%d, want 1", b.Mentions)
		}
		// A read within a run still sees the namespace's entities.
		got, err := st.FindEntities(ctx, lore.EntityFilter{Scope: run1, Names: []string{"max"}})
		must(t, "FindEntities in a run", err)
		if len(got) != 1 || got[0].ID != a1.ID || got[0].Mentions != 2 {
			t.Errorf("FindEntities in run-1=%+v, want alice's Max with 2 mentions", got)
		}
		got, err = st.FindEntities(ctx, lore.EntityFilter{Scope: bob})
		must(t, "FindEntities bob", err)
		if len(got) != 1 || got[0].ID != b.ID {
			t.Errorf("bob's entities=%v, want only his Max", entityNames(got))
		}
	})

	s.run("FindEntities/FiltersAndOrders", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		for i, name := range []string{"Carol", "Bob", "Dave", "Carol", "Bob", "Anna", "Bob"} {
			mergeEntity(t, st, sc, name, i)
		}
		// Mentions: Bob 3, Carol 2, Anna 1, Dave 1 (ties ordered by name).
		all, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc})
		must(t, "FindEntities", err)
		sameList(t, "order", entityNames(all), []string{"Bob", "Carol", "Anna", "Dave"})
		cases := []struct {
			name   string
			filter lore.EntityFilter
			want   []string
		}{
			{"limit", lore.EntityFilter{Scope: sc, Limit: 2}, []string{"Bob", "Carol"}},
			{"offset", lore.EntityFilter{Scope: sc, Limit: 2, Offset: 2}, []string{"Anna", "Dave"}},
			{"names normalized", lore.EntityFilter{Scope: sc, Names: []string{" DAVE ", "the anna"}}, []string{"Anna", "Dave"}},
			{"ids", lore.EntityFilter{Scope: sc, IDs: []string{all[3].ID, all[0].ID}}, []string{"Bob", "Dave"}},
			{"unknown name", lore.EntityFilter{Scope: sc, Names: []string{"zed"}}, []string{}},
		}
		for _, c := range cases {
			got, err := st.FindEntities(ctx, c.filter)
			must(t, c.name, err)
			sameList(t, c.name, entityNames(got), c.want)
		}
	})

	s.run("MergeEntity/Invalid", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		_, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "  ...  "})
		wantCode(t, "MergeEntity with an empty name", err, lore.EINVALID)
		_, err = st.MergeEntity(ctx, &lore.Entity{Scope: lore.Scope{TenantID: sc.TenantID}, Name: "Alice"})
		wantCode(t, "MergeEntity without user or agent", err, lore.EINVALID)
	})
}

func runFacts(s suite, st lore.Store) {
	s.run("MergeFact/AddThenMerge", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		paris := mergeEntity(t, st, sc, "Paris", 0)
		in := &lore.Fact{Scope: sc, SubjectID: alice.ID, Subject: "Alice", Predicate: "lives_in", ObjectID: paris.ID,
			Object: "Paris", Text: "Alice lives in Paris", Confidence: 0.6, FirstSeen: at(5), LastSeen: at(5),
			ValidAt: ptr(at(4)), SourceEpisodeIDs: []string{"ep-1", "ep-2"}, Extractor: "rules/v1",
			Metadata: map[string]any{"origin": "chat"}}
		added, ev, err := st.MergeFact(ctx, in, "extractor:rules")
		must(t, "MergeFact new", err)
		if ev != lore.EventAdd || added.ID == "" || added.Count != 1 {
			t.Fatalf("first merge: event=%s id=%q count=%d, want ADD, an id, count 1", ev, added.ID, added.Count)
		}
		if added.CreatedAt.IsZero() || added.Extractor != "rules/v1" || added.Metadata["origin"] != "chat" || added.ValidAt == nil {
			t.Errorf("added fact=%+v, want created_at, extractor, metadata and valid_at kept", added)
		}
		again := &lore.Fact{Scope: sc, SubjectID: alice.ID, Subject: "Alice", Predicate: "lives_in", ObjectID: paris.ID,
			Object: "Paris", Text: "Alice lives in Paris", Confidence: 0.9, Count: 2, FirstSeen: at(2), LastSeen: at(8),
			SourceEpisodeIDs: []string{"ep-2", "ep-3"}}
		merged, ev, err := st.MergeFact(ctx, again, "extractor:rules")
		must(t, "MergeFact repeat", err)
		if ev != lore.EventMerge || merged.ID != added.ID {
			t.Fatalf("second merge: event=%s id=%q, want MERGE into %q", ev, merged.ID, added.ID)
		}
		if merged.Count != 3 {
			t.Errorf("count=%d, want 3 (1 + 2)", merged.Count)
		}
		if merged.Confidence != 0.9 {
			t.Errorf("confidence=%v, want the larger 0.9", merged.Confidence)
		}
		sameTime(t, "FirstSeen", merged.FirstSeen, at(2))
		sameTime(t, "LastSeen", merged.LastSeen, at(8))
		sameSet(t, "sources", merged.SourceEpisodeIDs, []string{"ep-1", "ep-2", "ep-3"})
		// The stored record agrees with what MergeFact returned.
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
		must(t, "FindFacts", err)
		if len(got) != 1 || got[0].Count != 3 {
			t.Fatalf("stored facts=%d, want 1 with count 3", len(got))
		}
		sameSet(t, "stored sources", got[0].SourceEpisodeIDs, []string{"ep-1", "ep-2", "ep-3"})
		sameTime(t, "stored FirstSeen", got[0].FirstSeen, at(2))
		hist, err := st.History(ctx, sc, added.ID)
		must(t, "History", err)
		sameList(t, "events", eventKinds(hist), []string{"ADD", "MERGE"})
		if len(hist) == 2 && (hist[0].After != "Alice lives in Paris" || hist[1].Actor != "extractor:rules") {
			t.Errorf("history=%+v, want ADD with the fact text and MERGE by extractor:rules", hist)
		}
	})

	s.run("MergeFact/ConcurrentMergesCreateOne", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		paris := mergeEntity(t, st, sc, "Paris", 0)
		const n = 16
		ids := make([]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: alice.ID, Subject: "Alice", Predicate: "lives_in",
					ObjectID: paris.ID, Object: "Paris", Text: "Alice lives in Paris", FirstSeen: at(i), LastSeen: at(i),
					SourceEpisodeIDs: []string{fmt.Sprintf("ep-%d", i)}}, "test")
				errs[i] = err
				if err == nil {
					ids[i] = f.ID
				}
			}()
		}
		wg.Wait()
		for i, err := range errs {
			must(t, fmt.Sprintf("merge %d", i), err)
		}
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
		must(t, "FindFacts", err)
		if len(got) != 1 {
			t.Fatalf("len(facts)=%d after %d concurrent merges of one fact, want 1", len(got), n)
		}
		f := got[0]
		if f.Count != n || len(f.SourceEpisodeIDs) != n {
			t.Errorf("count=%d sources=%d, want %d and %d", f.Count, len(f.SourceEpisodeIDs), n, n)
		}
		sameTime(t, "FirstSeen", f.FirstSeen, at(0))
		sameTime(t, "LastSeen", f.LastSeen, at(n-1))
		for i, id := range ids {
			if id != f.ID {
				t.Errorf("merge %d returned %q, want %q", i, id, f.ID)
			}
		}
		hist, err := st.History(ctx, sc, f.ID)
		must(t, "History", err)
		if len(hist) != n || hist[0].Event != lore.EventAdd {
			t.Errorf("history=%v, want one ADD then %d MERGE", eventKinds(hist), n-1)
		}
	})

	s.run("MergeFact/LiteralObjectsNormalized", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		a := mergeFact(t, st, sc, alice, "likes", nil, "Green Tea", 0)
		b := mergeFact(t, st, sc, alice, "likes", nil, "green  tea!", 1)
		c := mergeFact(t, st, sc, alice, "likes", nil, "coffee", 2)
		d := mergeFact(t, st, sc, alice, "dislikes", nil, "green tea", 3)
		if a.ID != b.ID || b.Count != 2 {
			t.Errorf("normalized literal: ids %q/%q count %d, want one fact with count 2", a.ID, b.ID, b.Count)
		}
		if c.ID == a.ID || d.ID == a.ID {
			t.Errorf("other object or predicate merged into %q, want new facts", a.ID)
		}
		all, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
		must(t, "FindFacts", err)
		if len(all) != 3 {
			t.Errorf("len(facts)=%d, want 3", len(all))
		}
	})

	s.run("MergeFact/PerNamespace", func(t *testing.T) {
		ctx := ctxFor(t)
		alice := userScope()
		bob := lore.Scope{TenantID: alice.TenantID, UserID: "bob"}
		cleanupStore(t, st, alice, bob)
		// Homonym entities of two users: facts never merge across users.
		ea := mergeEntity(t, st, alice, "Sam", 0)
		eb := mergeEntity(t, st, bob, "Sam", 0)
		fa := mergeFact(t, st, alice, ea, "likes", nil, "jazz", 0)
		fb := mergeFact(t, st, bob, eb, "likes", nil, "jazz", 0)
		if fa.ID == fb.ID || fb.Count != 1 {
			t.Errorf("bob's fact id=%q count=%d, alice's %q, want separate facts", fb.ID, fb.Count, fa.ID)
		}
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: bob})
		must(t, "FindFacts bob", err)
		sameList(t, "bob's facts", factIDs(got), []string{fb.ID})
	})

	s.run("MergeFact/InvalidatedFactIsNotReused", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		old := mergeFact(t, st, sc, alice, "lives_in", nil, "Berlin", 0)
		_, err := st.UpdateFact(ctx, sc, old.ID, lore.FactUpdate{InvalidAt: ptr(at(1)), ExpiredAt: ptr(at(1)), Event: lore.EventInvalidate})
		must(t, "UpdateFact invalidate", err)
		again, ev, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: alice.ID, Subject: "Alice", Predicate: "lives_in",
			Object: "Berlin", Text: "Alice lives in Berlin again", FirstSeen: at(10), LastSeen: at(10)}, "test")
		must(t, "MergeFact after invalidation", err)
		if ev != lore.EventAdd || again.ID == old.ID {
			t.Errorf("merge after invalidation: event=%s id=%q, want ADD of a new fact (old %q)", ev, again.ID, old.ID)
		}
	})

	s.run("MergeFact/ClosedFactNeverMergesIntoCurrent", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		acme := mergeEntity(t, st, sc, "Acme", 0)
		current := mergeFact(t, st, sc, alice, "works_at", acme, "", 0, "ep-1")
		// An ending stated as a closed fact is history of its own: merging
		// it into the current twin would lose the ending.
		ended, ev, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: alice.ID, Subject: "Alice", Predicate: "works_at",
			ObjectID: acme.ID, Object: "Acme", Text: "Alice left Acme", InvalidAt: ptr(at(3)), FirstSeen: at(3), LastSeen: at(3),
			SourceEpisodeIDs: []string{"ep-2"}}, "test")
		must(t, "MergeFact closed", err)
		if ev != lore.EventAdd || ended.ID == current.ID {
			t.Fatalf("closed merge: event=%s id=%q, want ADD of a new fact (current %q)", ev, ended.ID, current.ID)
		}
		if ended.InvalidAt == nil || !ended.InvalidAt.Equal(at(3)) {
			t.Errorf("closed fact invalid_at=%v, want %v", ended.InvalidAt, at(3))
		}
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
		must(t, "FindFacts", err)
		if len(got) != 1 || got[0].ID != current.ID || got[0].Count != 1 || got[0].InvalidAt != nil {
			t.Fatalf("current facts=%v, want only %q, unchanged with count 1", factIDs(got), current.ID)
		}
		// A closed fact never absorbs later statements either.
		again := mergeFact(t, st, sc, alice, "works_at", acme, "", 5, "ep-3")
		if again.ID != current.ID || again.Count != 2 {
			t.Errorf("restatement id=%q count=%d, want a merge into %q with count 2", again.ID, again.Count, current.ID)
		}
		all, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IncludeInvalidated: true})
		must(t, "FindFacts IncludeInvalidated", err)
		sameSet(t, "all facts", factIDs(all), []string{current.ID, ended.ID})
	})

	s.run("MergeFact/Invalid", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		cases := []struct {
			name string
			fact lore.Fact
		}{
			{"no scope", lore.Fact{Scope: lore.Scope{TenantID: sc.TenantID}, SubjectID: alice.ID, Predicate: "likes", Object: "tea", Text: "t"}},
			{"no subject", lore.Fact{Scope: sc, Predicate: "likes", Object: "tea", Text: "t"}},
			{"no predicate", lore.Fact{Scope: sc, SubjectID: alice.ID, Object: "tea", Text: "t"}},
			{"no object", lore.Fact{Scope: sc, SubjectID: alice.ID, Predicate: "likes", Text: "t"}},
		}
		for _, c := range cases {
			f := c.fact
			_, _, err := st.MergeFact(ctx, &f, "test")
			wantCode(t, c.name, err, lore.EINVALID)
		}
	})

	s.run("UpdateFact/InvalidateHidesByDefault", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		berlin := mergeFact(t, st, sc, alice, "lives_in", nil, "Berlin", 0)
		paris := mergeFact(t, st, sc, alice, "lives_in", nil, "Paris", 1)
		upd, err := st.UpdateFact(ctx, sc, berlin.ID, lore.FactUpdate{
			InvalidAt: ptr(at(1)), ExpiredAt: ptr(at(1)), Event: lore.EventInvalidate,
			Actor: "extractor:rules", Reason: "contradicted by " + paris.ID,
		})
		must(t, "UpdateFact", err)
		if upd.InvalidAt == nil || !upd.InvalidAt.Equal(at(1)) || upd.ExpiredAt == nil {
			t.Errorf("invalidated fact invalid_at=%v expired_at=%v, want both set", upd.InvalidAt, upd.ExpiredAt)
		}
		current, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
		must(t, "FindFacts", err)
		sameList(t, "current facts", factIDs(current), []string{paris.ID})
		all, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IncludeInvalidated: true})
		must(t, "FindFacts IncludeInvalidated", err)
		sameSet(t, "all facts", factIDs(all), []string{berlin.ID, paris.ID})
		hist, err := st.History(ctx, sc, berlin.ID)
		must(t, "History", err)
		sameList(t, "events", eventKinds(hist), []string{"ADD", "INVALIDATE"})
		if len(hist) == 2 {
			inv := hist[1]
			if inv.Before != berlin.Text || inv.Actor != "extractor:rules" || inv.Reason == "" {
				t.Errorf("INVALIDATE event=%+v, want before=%q, the actor and the reason", inv, berlin.Text)
			}
			if inv.At.Before(hist[0].At) {
				t.Errorf("events out of order: %v before %v", inv.At, hist[0].At)
			}
		}
	})

	s.run("UpdateFact/AddSources", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		f := mergeFact(t, st, sc, alice, "works_at", nil, "Blue Bottle", 0, "ep-hired")
		upd, err := st.UpdateFact(ctx, sc, f.ID, lore.FactUpdate{
			InvalidAt: ptr(at(2)), ExpiredAt: ptr(at(2)), Event: lore.EventInvalidate,
			AddSources: []string{"ep-fired", "ep-hired", "", "ep-fired"},
		})
		must(t, "UpdateFact", err)
		sameSet(t, "sources returned", upd.SourceEpisodeIDs, []string{"ep-hired", "ep-fired"})
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IncludeInvalidated: true})
		must(t, "FindFacts", err)
		if len(got) != 1 {
			t.Fatalf("facts=%d, want 1", len(got))
		}
		sameSet(t, "sources stored", got[0].SourceEpisodeIDs, []string{"ep-hired", "ep-fired"})
		// Without AddSources an update keeps the sources as they are.
		upd, err = st.UpdateFact(ctx, sc, f.ID, lore.FactUpdate{Text: ptr("Alice worked at Blue Bottle")})
		must(t, "UpdateFact text", err)
		sameSet(t, "sources after a text update", upd.SourceEpisodeIDs, []string{"ep-hired", "ep-fired"})
	})

	s.run("UpdateFact/FutureInvalidAtStaysCurrent", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		f := mergeFact(t, st, sc, alice, "works_at", nil, "Acme", 0)
		future := baseTime.AddDate(200, 0, 0)
		_, err := st.UpdateFact(ctx, sc, f.ID, lore.FactUpdate{InvalidAt: &future})
		must(t, "UpdateFact", err)
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
		must(t, "FindFacts", err)
		sameList(t, "current facts", factIDs(got), []string{f.ID})
	})

	s.run("UpdateFact/TextHistoryBeforeAfter", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		f := mergeFact(t, st, sc, alice, "likes", nil, "tea", 0)
		upd, err := st.UpdateFact(ctx, sc, f.ID, lore.FactUpdate{
			Text: ptr("Alice loves green tea"), Confidence: ptr(0.95), Metadata: map[string]any{"checked": "yes"}, Actor: "api",
		})
		must(t, "UpdateFact", err)
		if upd.Text != "Alice loves green tea" || upd.Confidence != 0.95 || upd.Metadata["checked"] != "yes" {
			t.Errorf("updated fact=%+v, want the new text, confidence and metadata", upd)
		}
		hist, err := st.History(ctx, sc, f.ID)
		must(t, "History", err)
		sameList(t, "events", eventKinds(hist), []string{"ADD", "UPDATE"})
		if len(hist) == 2 && (hist[1].Before != f.Text || hist[1].After != "Alice loves green tea" || hist[1].Actor != "api") {
			t.Errorf("UPDATE event=%+v, want before %q, after the new text, actor api", hist[1], f.Text)
		}
	})

	s.run("UpdateFact/TripleMovesTheFact", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		acme := mergeEntity(t, st, sc, "Acme", 0)
		globex := mergeEntity(t, st, sc, "Globex", 0)
		f := mergeFact(t, st, sc, alice, "works_at", acme, "", 0, "ep-1")
		upd, err := st.UpdateFact(ctx, sc, f.ID, lore.FactUpdate{
			Triple: &lore.Triple{SubjectID: alice.ID, Predicate: "Works At", ObjectID: globex.ID},
			Text:   ptr("Alice works at Globex"), Actor: "api", Reason: "corrected",
		})
		must(t, "UpdateFact triple", err)
		if upd.ID != f.ID || upd.Predicate != "works_at" || upd.ObjectID != globex.ID || upd.Object != "Globex" || upd.Subject != "Alice" || upd.Count != 1 {
			t.Fatalf("updated fact=%+v, want %s now works_at Globex (names from the entities), count kept", upd, f.ID)
		}
		byObject := func(id string) []string {
			got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, ObjectID: id})
			must(t, "FindFacts object", err)
			return factIDs(got)
		}
		sameList(t, "facts of Globex", byObject(globex.ID), []string{f.ID})
		sameList(t, "facts of Acme", byObject(acme.ID), []string{})
		hits, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: sc, SeedIDs: []string{globex.ID}, MaxHops: 1})
		must(t, "Neighborhood", err)
		if len(hits) != 1 || hits[0].Fact.ID != f.ID {
			t.Errorf("walk from Globex=%d hits, want the moved fact", len(hits))
		}
		// Deduplication follows the new triple.
		again := mergeFact(t, st, sc, alice, "works_at", globex, "", 2, "ep-2")
		if again.ID != f.ID || again.Count != 2 {
			t.Errorf("restating the new triple: id=%q count=%d, want a merge into %q with count 2", again.ID, again.Count, f.ID)
		}
		old := mergeFact(t, st, sc, alice, "works_at", acme, "", 3, "ep-3")
		if old.ID == f.ID || old.Count != 1 {
			t.Errorf("restating the old triple: id=%q count=%d, want a new fact", old.ID, old.Count)
		}
		hist, err := st.History(ctx, sc, f.ID)
		must(t, "History", err)
		sameList(t, "events", eventKinds(hist), []string{"ADD", "UPDATE", "MERGE"})
		if len(hist) == 3 && (hist[1].After != "Alice works at Globex" || hist[1].Reason != "corrected" || hist[1].Actor != "api") {
			t.Errorf("UPDATE event=%+v, want the new text, the reason and the actor", hist[1])
		}
	})

	s.run("UpdateFact/TripleToLiteral", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		acme := mergeEntity(t, st, sc, "Acme", 0)
		f := mergeFact(t, st, sc, alice, "works_at", acme, "", 0)
		upd, err := st.UpdateFact(ctx, sc, f.ID, lore.FactUpdate{Triple: &lore.Triple{SubjectID: alice.ID, Predicate: "job_title", Object: " nurse "}})
		must(t, "UpdateFact", err)
		if upd.ObjectID != "" || upd.Object != "nurse" || upd.Predicate != "job_title" {
			t.Fatalf("updated fact object_id=%q object=%q predicate=%q, want the literal nurse, job_title", upd.ObjectID, upd.Object, upd.Predicate)
		}
		again := mergeFact(t, st, sc, alice, "job_title", nil, "Nurse", 1)
		if again.ID != f.ID {
			t.Errorf("restating the literal: id=%q, want a merge into %q", again.ID, f.ID)
		}
	})

	s.run("UpdateFact/TripleOfAnotherCurrentFactConflicts", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		tea := mergeFact(t, st, sc, alice, "likes", nil, "tea", 0)
		coffee := mergeFact(t, st, sc, alice, "likes", nil, "coffee", 1)
		_, err := st.UpdateFact(ctx, sc, coffee.ID, lore.FactUpdate{Triple: &lore.Triple{SubjectID: alice.ID, Predicate: "likes", Object: "Tea"}, Text: ptr("x")})
		wantCode(t, "UpdateFact onto a twin", err, lore.ECONFLICT)
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IDs: []string{coffee.ID}})
		must(t, "FindFacts", err)
		if len(got) != 1 || got[0].Object != "coffee" || got[0].Text != coffee.Text {
			t.Errorf("refused update changed the fact: %+v", got)
		}
		// Restating its own triple is no conflict.
		_, err = st.UpdateFact(ctx, sc, tea.ID, lore.FactUpdate{Triple: &lore.Triple{SubjectID: alice.ID, Predicate: "likes", Object: "tea"}})
		must(t, "UpdateFact same triple", err)
	})

	s.run("UpdateFact/TripleEndsStayInScope", func(t *testing.T) {
		ctx := ctxFor(t)
		a := userScope()
		b := lore.Scope{TenantID: a.TenantID, UserID: "bob"}
		cleanupStore(t, st, a, b)
		alice := mergeEntity(t, st, a, "Alice", 0)
		bobs := mergeEntity(t, st, b, "Paris", 0)
		f := mergeFact(t, st, a, alice, "likes", nil, "tea", 0)
		cases := []struct {
			name   string
			triple lore.Triple
		}{
			{"object of another user", lore.Triple{SubjectID: alice.ID, Predicate: "lives_in", ObjectID: bobs.ID}},
			{"subject of another user", lore.Triple{SubjectID: bobs.ID, Predicate: "likes", Object: "tea"}},
			{"no subject", lore.Triple{Predicate: "likes", Object: "tea"}},
			{"no predicate", lore.Triple{SubjectID: alice.ID, Object: "tea"}},
			{"no object", lore.Triple{SubjectID: alice.ID, Predicate: "likes"}},
		}
		for _, c := range cases {
			tr := c.triple
			_, err := st.UpdateFact(ctx, a, f.ID, lore.FactUpdate{Triple: &tr})
			wantCode(t, c.name, err, lore.EINVALID)
		}
	})

	s.run("UpdateFact/NotFound", func(t *testing.T) {
		ctx := ctxFor(t)
		a := userScope()
		b := lore.Scope{TenantID: a.TenantID, UserID: "bob"}
		cleanupStore(t, st, a, b)
		alice := mergeEntity(t, st, a, "Alice", 0)
		f := mergeFact(t, st, a, alice, "likes", nil, "tea", 0)
		_, err := st.UpdateFact(ctx, a, "no-such-fact", lore.FactUpdate{Text: ptr("x")})
		wantCode(t, "UpdateFact unknown id", err, lore.ENOTFOUND)
		_, err = st.UpdateFact(ctx, b, f.ID, lore.FactUpdate{Text: ptr("hijacked")})
		wantCode(t, "UpdateFact from another user", err, lore.ENOTFOUND)
		wantCode(t, "DeleteFact from another user", st.DeleteFact(ctx, b, f.ID, "api"), lore.ENOTFOUND)
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: a, IDs: []string{f.ID}})
		must(t, "FindFacts", err)
		if len(got) != 1 || got[0].Text != f.Text {
			t.Errorf("fact after foreign writes=%+v, want it unchanged", got)
		}
	})

	s.run("DeleteFact/RemovesAndKeepsHistory", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		f := mergeFact(t, st, sc, alice, "likes", nil, "tea", 0)
		keep := mergeFact(t, st, sc, alice, "likes", nil, "coffee", 1)
		must(t, "DeleteFact", st.DeleteFact(ctx, sc, f.ID, "api"))
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IncludeInvalidated: true})
		must(t, "FindFacts", err)
		sameList(t, "remaining", factIDs(got), []string{keep.ID})
		wantCode(t, "second DeleteFact", st.DeleteFact(ctx, sc, f.ID, "api"), lore.ENOTFOUND)
		hist, err := st.History(ctx, sc, f.ID)
		must(t, "History", err)
		sameList(t, "events", eventKinds(hist), []string{"ADD", "DELETE"})
		// The same statement later is a new fact, not a resurrection.
		again := mergeFact(t, st, sc, alice, "likes", nil, "tea", 2)
		if again.ID == f.ID || again.Count != 1 {
			t.Errorf("re-added fact id=%q count=%d, want a new id with count 1", again.ID, again.Count)
		}
	})

	s.run("FindFacts/Filters", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		bob := mergeEntity(t, st, sc, "Bob", 0)
		paris := mergeEntity(t, st, sc, "Paris", 0)
		// Seen windows: knows [1,1], livesA [2,2], livesB [3,3], likes [4,6].
		knows := mergeFact(t, st, sc, alice, "knows", bob, "", 1)
		livesA := mergeFact(t, st, sc, alice, "lives_in", paris, "", 2)
		livesB := mergeFact(t, st, sc, bob, "lives_in", paris, "", 3)
		likes := mergeFact(t, st, sc, bob, "likes", nil, "chess", 4)
		_, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: bob.ID, Subject: "Bob", Predicate: "likes",
			Object: "chess", Text: "Bob likes chess", FirstSeen: at(6), LastSeen: at(6)}, "test")
		must(t, "MergeFact widen", err)
		cases := []struct {
			name   string
			filter lore.FactFilter
			want   []string // in order: LastSeen descending
		}{
			{"all by last seen", lore.FactFilter{Scope: sc}, []string{likes.ID, livesB.ID, livesA.ID, knows.ID}},
			{"subject", lore.FactFilter{Scope: sc, SubjectID: alice.ID}, []string{livesA.ID, knows.ID}},
			{"object", lore.FactFilter{Scope: sc, ObjectID: paris.ID}, []string{livesB.ID, livesA.ID}},
			{"entity either end", lore.FactFilter{Scope: sc, EntityID: bob.ID}, []string{likes.ID, livesB.ID, knows.ID}},
			{"predicate", lore.FactFilter{Scope: sc, Predicate: "lives_in"}, []string{livesB.ID, livesA.ID}},
			{"subject and predicate", lore.FactFilter{Scope: sc, SubjectID: bob.ID, Predicate: "lives_in"}, []string{livesB.ID}},
			{"ids", lore.FactFilter{Scope: sc, IDs: []string{knows.ID, likes.ID}}, []string{likes.ID, knows.ID}},
			{"since overlaps", lore.FactFilter{Scope: sc, Since: ptr(at(3))}, []string{likes.ID, livesB.ID}},
			{"until overlaps", lore.FactFilter{Scope: sc, Until: ptr(at(2))}, []string{knows.ID}},
			{"window inside a long fact", lore.FactFilter{Scope: sc, Since: ptr(at(5)), Until: ptr(at(6))}, []string{likes.ID}},
			{"range", lore.FactFilter{Scope: sc, Since: ptr(at(2)), Until: ptr(at(4))}, []string{livesB.ID, livesA.ID}},
			{"limit", lore.FactFilter{Scope: sc, Limit: 2}, []string{likes.ID, livesB.ID}},
			{"limit offset", lore.FactFilter{Scope: sc, Limit: 2, Offset: 2}, []string{livesA.ID, knows.ID}},
			{"no match", lore.FactFilter{Scope: sc, Predicate: "hates"}, []string{}},
		}
		for _, c := range cases {
			got, err := st.FindFacts(ctx, c.filter)
			must(t, c.name, err)
			sameList(t, c.name, factIDs(got), c.want)
		}
	})

	s.run("FindFacts/TiesOrderedByID", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		alice := mergeEntity(t, st, sc, "Alice", 0)
		var ids []string
		for _, obj := range []string{"a", "b", "c", "d", "e"} {
			ids = append(ids, mergeFact(t, st, sc, alice, "likes", nil, obj, 0).ID)
		}
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
		must(t, "FindFacts", err)
		sameList(t, "tie order", factIDs(got), sortedCopy(ids))
	})
}
