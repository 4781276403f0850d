package storetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

// RunNameRewriter runs the conformance suite for lore.NameRewriter against
// one backend, whose store must implement it. open is called once.
func RunNameRewriter(t *testing.T, backend string, open func(testing.TB) lore.Store) {
	t.Helper()
	st := open(t)
	rw, ok := st.(lore.NameRewriter)
	if !ok {
		t.Fatalf("%T does not rewrite names (lore.NameRewriter)", st)
	}
	s := suite{t: t, backend: backend}
	// prefix marks a rewritten name; a marked one is left alone, so a
	// second pass changes nothing.
	prefix := func(_ lore.NameKind, v string) (string, error) {
		if strings.HasPrefix(v, "z") {
			return v, nil
		}
		return "z" + v, nil
	}

	s.run("NameRewriter/RewritesInPlace", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		other := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		withAgent := lore.Scope{TenantID: sc.TenantID, UserID: sc.UserID, AgentID: "helper"}
		cleanupStore(t, st, sc, other, withAgent)
		must(t, "AddEpisodes", st.AddEpisodes(ctx, []*lore.Episode{
			{Scope: sc, Role: "user", Speaker: "Maya", Content: "Emma is a pastry chef.", OccurredAt: at(0)},
			{Scope: withAgent, Role: "user", Speaker: "Maya", Content: "Emma lives in Rome.", OccurredAt: at(1)},
			{Scope: other, Role: "user", Speaker: "Bob", Content: "Emma is my cousin.", OccurredAt: at(1)},
		}))
		emma, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Emma", Type: "person", Aliases: []string{"em"}})
		must(t, "MergeEntity", err)
		rome := mergeEntity(t, st, withAgent, "Rome", 1)
		helperEmma := mergeEntity(t, st, withAgent, "Emma", 1)
		bobsEmma := mergeEntity(t, st, other, "Emma", 1)
		chef := mergeFact(t, st, sc, emma, "works_as", nil, "Pastry Chef", 0)
		lives := mergeFact(t, st, withAgent, helperEmma, "lives_in", rome, "", 1)

		n, err := rw.RewriteNames(ctx, sc, prefix)
		must(t, "RewriteNames", err)
		// alice: 3 entities, 1 alias, 2 facts, 2 episodes' speaker.
		if n != 8 {
			t.Errorf("RewriteNames changed %d values, want 8", n)
		}
		if n, err := rw.RewriteNames(ctx, sc, prefix); err != nil || n != 0 {
			t.Errorf("RewriteNames again=%d, %v; want 0", n, err)
		}
		for _, c := range []struct {
			scope lore.Scope
			name  string
			want  []string
		}{
			{sc, "zEMMA", []string{emma.ID}},
			{sc, "zem", []string{emma.ID}},
			{sc, "emma", nil},
			{withAgent, "zrome", []string{rome.ID}},
			{other, "emma", []string{bobsEmma.ID}},
		} {
			got, err := st.FindEntities(ctx, lore.EntityFilter{Scope: c.scope, Names: []string{c.name}})
			must(t, "FindEntities", err)
			var ids []string
			for _, e := range got {
				if e.ID == helperEmma.ID {
					continue // alice's scope reads her agent's Emma too
				}
				ids = append(ids, e.ID)
			}
			if !slices.Equal(ids, c.want) {
				t.Errorf("FindEntities(%s, %q)=%v, want %v", c.scope.UserID, c.name, ids, c.want)
			}
		}
		got, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc, IDs: []string{emma.ID}})
		must(t, "FindEntities(id)", err)
		if len(got) != 1 || got[0].Name != "zEmma" || got[0].NormalizedName != "zemma" || !slices.Equal(got[0].Aliases, []string{"zem"}) {
			t.Errorf("rewritten entity=%+v, want zEmma / zemma with alias zem", got)
		}
		facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IDs: []string{chef.ID, lives.ID}})
		must(t, "FindFacts", err)
		for _, f := range facts {
			if !strings.HasPrefix(f.Subject, "z") || !strings.HasPrefix(f.Object, "z") {
				t.Errorf("fact %s states %q %q, want both rewritten", f.ID, f.Subject, f.Object)
			}
		}
		// The literal's key followed: a restatement merges.
		f, ev, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: emma.ID, Predicate: "works_as", Object: "ZPASTRY chef", Text: "again"}, "test")
		must(t, "MergeFact", err)
		if f.ID != chef.ID || ev != lore.EventMerge {
			t.Errorf("restated rewritten literal: fact %s %s, want a merge into %s", f.ID, ev, chef.ID)
		}
		sp, err := st.Speakers(ctx, sc)
		must(t, "Speakers", err)
		if !slices.Equal(sp, []string{"zMaya"}) {
			t.Errorf("Speakers=%q, want [zMaya]", sp)
		}
		sp, err = st.Speakers(ctx, other)
		must(t, "Speakers(bob)", err)
		if !slices.Equal(sp, []string{"Bob"}) {
			t.Errorf("bob's Speakers=%q, want [Bob] (not his to rewrite)", sp)
		}
	})

	s.run("NameRewriter/RefusesTakenNames", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		mergeEntity(t, st, sc, "Bob", 0)
		mergeEntity(t, st, sc, "zbob", 0)
		_, err := rw.RewriteNames(ctx, sc, func(_ lore.NameKind, v string) (string, error) {
			if v == "Bob" {
				return "zBob", nil
			}
			return v, nil
		})
		wantCode(t, "RewriteNames onto a taken name", err, lore.ECONFLICT)
		got, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc, Names: []string{"bob"}})
		must(t, "FindEntities", err)
		if len(got) != 1 || got[0].Name != "Bob" {
			t.Errorf("after the refused rewrite, bob=%v; want it unchanged", got)
		}
	})
}
