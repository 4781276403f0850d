package storetest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lore-memory/lore"
)

// hops maps each hit's fact id to its hop count.
func hops(hits []lore.GraphHit) map[string]int {
	out := make(map[string]int, len(hits))
	for _, h := range hits {
		out[h.Fact.ID] = h.Hops
	}
	return out
}

func runNeighborhood(s suite, st lore.Store) {
	// twoUsers builds the same-named graph for two users of one tenant:
	// Alice knows Bob, Bob lives in Paris, Paris is in France, Alice likes
	// pizza. Bob (the user) additionally has Bob works at Acme.
	type graph struct {
		alice, bob, paris         *lore.Entity
		knows, lives, inFr, pizza *lore.Fact
	}
	build := func(t *testing.T, sc lore.Scope) graph {
		var g graph
		g.alice = mergeEntity(t, st, sc, "Alice", 0)
		g.bob = mergeEntity(t, st, sc, "Bob", 0)
		g.paris = mergeEntity(t, st, sc, "Paris", 0)
		france := mergeEntity(t, st, sc, "France", 0)
		g.knows = mergeFact(t, st, sc, g.alice, "knows", g.bob, "", 1)
		g.lives = mergeFact(t, st, sc, g.bob, "lives_in", g.paris, "", 2)
		g.inFr = mergeFact(t, st, sc, g.paris, "located_in", france, "", 3)
		g.pizza = mergeFact(t, st, sc, g.alice, "likes", nil, "pizza", 4)
		return g
	}

	s.run("Neighborhood/HopsAndIsolation", func(t *testing.T) {
		ctx := ctxFor(t)
		u1 := userScope()
		u2 := lore.Scope{TenantID: u1.TenantID, UserID: "bob"}
		cleanupStore(t, st, u1, u2)
		g := build(t, u1)
		other := build(t, u2)
		acme := mergeEntity(t, st, u2, "Acme", 0)
		mergeFact(t, st, u2, other.bob, "works_at", acme, "", 5)

		one, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: u1, SeedIDs: []string{g.alice.ID}, MaxHops: 1})
		must(t, "Neighborhood 1 hop", err)
		got := hops(one)
		want := map[string]int{g.knows.ID: 1, g.pizza.ID: 1}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("1 hop=%v, want %v", got, want)
		}
		for _, h := range one {
			if h.SeedID != g.alice.ID {
				t.Errorf("hit %s seed=%q, want alice %q", h.Fact.ID, h.SeedID, g.alice.ID)
			}
		}

		two, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: u1, SeedIDs: []string{g.alice.ID}, MaxHops: 2})
		must(t, "Neighborhood 2 hops", err)
		got = hops(two)
		want = map[string]int{g.knows.ID: 1, g.pizza.ID: 1, g.lives.ID: 2}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("2 hops=%v, want %v (never the 3-hop fact %s or another user's)", got, want, g.inFr.ID)
		}
		if len(two) != len(got) {
			t.Errorf("2 hops returned %d hits for %d facts, want each fact once", len(two), len(got))
		}
		if !slices.IsSortedFunc(two, func(a, b lore.GraphHit) int { return a.Hops - b.Hops }) {
			t.Errorf("hits not nearest first: %v", got)
		}

		// The other user's seed, asked for in this user's scope, reaches nothing.
		foreign, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: u1, SeedIDs: []string{other.bob.ID}, MaxHops: 2})
		must(t, "Neighborhood foreign seed", err)
		if len(foreign) != 0 {
			t.Errorf("foreign seed reached %v, want nothing", hops(foreign))
		}
		// Bob's graph from his Bob reaches his works_at but never alice's facts.
		theirs, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: u2, SeedIDs: []string{other.bob.ID}, MaxHops: 2})
		must(t, "Neighborhood other user", err)
		for _, h := range theirs {
			if h.Fact.Scope.UserID != "bob" {
				t.Errorf("user bob's walk reached %s of user %q", h.Fact.ID, h.Fact.Scope.UserID)
			}
		}
		if len(theirs) != 5 {
			t.Errorf("bob's 2-hop walk from Bob=%d facts, want 5 (knows, lives_in, works_at, then located_in, likes)", len(theirs))
		}
	})

	s.run("Neighborhood/LimitAndInvalidated", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		g := build(t, sc)
		_, err := st.UpdateFact(ctx, sc, g.knows.ID, lore.FactUpdate{InvalidAt: ptr(at(9)), ExpiredAt: ptr(at(9)), Event: lore.EventInvalidate})
		must(t, "UpdateFact", err)
		cur, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: sc, SeedIDs: []string{g.alice.ID}, MaxHops: 1})
		must(t, "Neighborhood", err)
		if fmt.Sprint(hops(cur)) != fmt.Sprint(map[string]int{g.pizza.ID: 1}) {
			t.Errorf("current 1 hop=%v, want only pizza %s", hops(cur), g.pizza.ID)
		}
		all, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: sc, SeedIDs: []string{g.alice.ID}, MaxHops: 1, IncludeInvalidated: true})
		must(t, "Neighborhood IncludeInvalidated", err)
		if len(all) != 2 {
			t.Errorf("1 hop with invalidated=%v, want knows and pizza", hops(all))
		}
		lim, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: sc, SeedIDs: []string{g.bob.ID, g.paris.ID}, MaxHops: 2, Limit: 2, IncludeInvalidated: true})
		must(t, "Neighborhood limit", err)
		if len(lim) != 2 {
			t.Fatalf("len(hits)=%d with Limit 2, want 2", len(lim))
		}
		for _, h := range lim {
			if h.Hops != 1 {
				t.Errorf("limited walk returned a %d-hop hit before the 1-hop ones", h.Hops)
			}
		}
	})
}

func runScopes(s suite, st lore.Store) {
	s.run("Scope/ContainsRules", func(t *testing.T) {
		ctx := ctxFor(t)
		tenant := newTenant()
		type rec struct{ user, agent, run string }
		// The last two are the agent a1's own records (no user).
		stored := []rec{{"u1", "a1", "r1"}, {"u1", "a1", "r2"}, {"u1", "a2", ""}, {"u1", "", ""}, {"u2", "a1", "r1"}, {"", "a1", ""}, {"", "a1", "r1"}}
		ids := map[rec]string{}
		for _, r := range stored {
			sc := lore.Scope{TenantID: tenant, UserID: r.user, AgentID: r.agent, RunID: r.run}
			ids[r] = addEpisode(t, st, sc, fmt.Sprint(r), 0).ID
		}
		cleanupStore(t, st, lore.Scope{TenantID: tenant, UserID: "u1"}, lore.Scope{TenantID: tenant, UserID: "u2"}, lore.Scope{TenantID: tenant, AgentID: "a1"})
		other := lore.Scope{TenantID: newTenant(), UserID: "u1"}
		addEpisode(t, st, other, "other tenant", 0)
		cleanupStore(t, st, other)

		cases := []struct {
			read lore.Scope
			want []rec
		}{
			{lore.Scope{UserID: "u1"}, stored[:4]},
			{lore.Scope{UserID: "u1", AgentID: "a1"}, stored[:2]},
			{lore.Scope{UserID: "u1", AgentID: "a1", RunID: "r1"}, stored[:1]},
			// mem0 would answer these with every user's records that carry
			// the agent; Lore gives the agent its own only.
			{lore.Scope{AgentID: "a1"}, stored[5:7]},
			{lore.Scope{AgentID: "a1", RunID: "r1"}, stored[6:7]},
			{lore.Scope{AgentID: "a2"}, nil},
			{lore.Scope{UserID: "u2"}, stored[4:5]},
			{lore.Scope{UserID: "u3"}, nil},
		}
		for _, c := range cases {
			c.read.TenantID = tenant
			var want []string
			for _, r := range c.want {
				want = append(want, ids[r])
			}
			got, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: c.read})
			must(t, describe(c.read), err)
			sameSet(t, describe(c.read), episodeIDs(got), want)
		}
	})

	s.run("Scope/FactsAndEntitiesIsolated", func(t *testing.T) {
		ctx := ctxFor(t)
		u1 := userScope()
		u2 := lore.Scope{TenantID: u1.TenantID, UserID: "bob"}
		agent := lore.Scope{TenantID: u1.TenantID, UserID: "alice", AgentID: "coach"}
		cleanupStore(t, st, u1, u2)
		e1 := mergeEntity(t, st, u1, "Tom", 0)
		e2 := mergeEntity(t, st, u2, "Tom", 0)
		ea := mergeEntity(t, st, agent, "Tom", 0)
		f1 := mergeFact(t, st, u1, e1, "likes", nil, "jazz", 0)
		f2 := mergeFact(t, st, u2, e2, "likes", nil, "jazz", 0)
		fa := mergeFact(t, st, agent, ea, "likes", nil, "jazz", 0)
		cases := []struct {
			read      lore.Scope
			facts     []string
			entityIDs []string
		}{
			{u1, []string{f1.ID, fa.ID}, []string{e1.ID, ea.ID}},
			{agent, []string{fa.ID}, []string{ea.ID}},
			{u2, []string{f2.ID}, []string{e2.ID}},
		}
		for _, c := range cases {
			facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: c.read, Predicate: "likes"})
			must(t, "FindFacts", err)
			sameSet(t, "facts of "+describe(c.read), factIDs(facts), c.facts)
			ents, err := st.FindEntities(ctx, lore.EntityFilter{Scope: c.read, Names: []string{"tom"}})
			must(t, "FindEntities", err)
			var got []string
			for _, e := range ents {
				got = append(got, e.ID)
			}
			sameSet(t, "entities of "+describe(c.read), got, c.entityIDs)
		}
		_, err := st.History(ctx, u2, f1.ID)
		wantCode(t, "History of another user's fact", err, lore.ENOTFOUND)
	})

	s.run("Scope/AgentOnlyNeverReadsUsers", func(t *testing.T) {
		ctx := ctxFor(t)
		tenant := newTenant()
		own := lore.Scope{TenantID: tenant, AgentID: "coach"}
		alice := lore.Scope{TenantID: tenant, UserID: "alice", AgentID: "coach"}
		cleanupStore(t, st, lore.Scope{TenantID: tenant, UserID: "alice"}, own)
		ownEp := addEpisode(t, st, own, "coach notes: be brief", 0)
		aliceEp := addEpisode(t, st, alice, "I have diabetes", 1)
		ownE := mergeEntity(t, st, own, "Tom", 0)
		aliceE := mergeEntity(t, st, alice, "Tom", 0)
		ownF := mergeFact(t, st, own, ownE, "likes", nil, "jazz", 0)
		aliceF := mergeFact(t, st, alice, aliceE, "likes", nil, "jazz", 0)
		mergeFact(t, st, alice, aliceE, "has", nil, "diabetes", 1, aliceEp.ID)

		eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: own})
		must(t, "FindEpisodes", err)
		sameSet(t, "agent-only episodes", episodeIDs(eps), []string{ownEp.ID})
		facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: own, IncludeInvalidated: true})
		must(t, "FindFacts", err)
		sameSet(t, "agent-only facts", factIDs(facts), []string{ownF.ID})
		ents, err := st.FindEntities(ctx, lore.EntityFilter{Scope: own})
		must(t, "FindEntities", err)
		if len(ents) != 1 || ents[0].ID != ownE.ID {
			t.Errorf("agent-only entities=%v, want the agent's own Tom only", entityNames(ents))
		}
		byID, err := st.FindFacts(ctx, lore.FactFilter{Scope: own, IDs: []string{aliceF.ID}})
		must(t, "FindFacts by a user's id", err)
		if len(byID) != 0 {
			t.Errorf("agent-only read of alice's fact by id=%v, want nothing", factIDs(byID))
		}
		_, err = st.History(ctx, own, aliceF.ID)
		wantCode(t, "History of a user's fact through the agent", err, lore.ENOTFOUND)
		hood, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: own, SeedIDs: []string{aliceE.ID, ownE.ID}, MaxHops: 2})
		must(t, "Neighborhood", err)
		for _, h := range hood {
			if h.Fact.Scope.UserID != "" {
				t.Errorf("agent-only walk reached %s of user %q", h.Fact.ID, h.Fact.Scope.UserID)
			}
		}
		// Erasing the agent erases its own memories, not its users'.
		stats, err := st.DeleteScope(ctx, own)
		must(t, "DeleteScope(agent)", err)
		if stats.Episodes != 1 || stats.Facts != 1 || stats.Entities != 1 {
			t.Errorf("DeleteScope(agent)=%+v, want 1 episode, 1 fact, 1 entity: the agent's own", stats)
		}
		left, err := st.FindFacts(ctx, lore.FactFilter{Scope: alice})
		must(t, "FindFacts alice", err)
		if len(left) != 2 {
			t.Errorf("alice's facts after the agent's erase=%d, want 2", len(left))
		}
		leftEps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: alice})
		must(t, "FindEpisodes alice", err)
		sameList(t, "alice's episodes after the agent's erase", episodeIDs(leftEps), []string{aliceEp.ID})
	})

	s.run("DeleteScope/CountsAndRemoves", func(t *testing.T) {
		ctx := ctxFor(t)
		gone := userScope()
		kept := lore.Scope{TenantID: gone.TenantID, UserID: "bob"}
		cleanupStore(t, st, kept)
		ep1 := addEpisode(t, st, gone, "one", 0)
		addEpisode(t, st, gone, "two", 1)
		keptEp := addEpisode(t, st, kept, "bob's", 0)
		alice := mergeEntity(t, st, gone, "Alice", 0)
		paris := mergeEntity(t, st, gone, "Paris", 0)
		fact := mergeFact(t, st, gone, alice, "lives_in", paris, "", 0, ep1.ID)
		mergeFact(t, st, gone, alice, "likes", nil, "tea", 0, ep1.ID)
		bobE := mergeEntity(t, st, kept, "Alice", 0)
		keptFact := mergeFact(t, st, kept, bobE, "lives_in", nil, "Rome", 0)
		job := &lore.Job{Scope: gone, Kind: "extract", EpisodeIDs: []string{ep1.ID}, Status: lore.JobQueued, MaxAttempts: 3, NextRunAt: at(0)}
		must(t, "EnqueueJob", st.EnqueueJob(ctx, job))
		keptJob := &lore.Job{Scope: kept, Kind: "extract", Status: lore.JobDone, MaxAttempts: 3, NextRunAt: at(0)}
		must(t, "EnqueueJob kept", st.EnqueueJob(ctx, keptJob))

		stats, err := st.DeleteScope(ctx, gone)
		must(t, "DeleteScope", err)
		want := lore.DeleteStats{Episodes: 2, Entities: 2, Facts: 2, Jobs: 1}
		if stats != want {
			t.Errorf("stats=%+v, want %+v", stats, want)
		}
		eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: gone})
		must(t, "FindEpisodes", err)
		facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: gone, IncludeInvalidated: true})
		must(t, "FindFacts", err)
		ents, err := st.FindEntities(ctx, lore.EntityFilter{Scope: gone})
		must(t, "FindEntities", err)
		if len(eps)+len(facts)+len(ents) != 0 {
			t.Errorf("after DeleteScope: %d episodes, %d facts, %d entities, want none", len(eps), len(facts), len(ents))
		}
		_, err = st.History(ctx, gone, fact.ID)
		wantCode(t, "History after DeleteScope", err, lore.ENOTFOUND)
		_, err = st.GetJob(ctx, gone.TenantID, job.ID)
		wantCode(t, "GetJob after DeleteScope", err, lore.ENOTFOUND)
		hood, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: gone, SeedIDs: []string{alice.ID}, MaxHops: 2})
		must(t, "Neighborhood", err)
		if len(hood) != 0 {
			t.Errorf("Neighborhood after DeleteScope=%d hits, want 0", len(hood))
		}

		// The other user keeps everything.
		eps, err = st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: kept})
		must(t, "FindEpisodes kept", err)
		sameList(t, "kept episodes", episodeIDs(eps), []string{keptEp.ID})
		facts, err = st.FindFacts(ctx, lore.FactFilter{Scope: kept})
		must(t, "FindFacts kept", err)
		sameList(t, "kept facts", factIDs(facts), []string{keptFact.ID})
		_, err = st.GetJob(ctx, kept.TenantID, keptJob.ID)
		must(t, "GetJob kept", err)
		if _, err := st.History(ctx, kept, keptFact.ID); err != nil {
			t.Errorf("History of kept fact: %v", err)
		}

		again, err := st.DeleteScope(ctx, gone)
		must(t, "DeleteScope again", err)
		if again != (lore.DeleteStats{}) {
			t.Errorf("second DeleteScope=%+v, want zero", again)
		}
	})

	s.run("DeleteScope/RunOnly", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		run1 := sc
		run1.RunID = "r1"
		run2 := sc
		run2.RunID = "r2"
		addEpisode(t, st, run1, "in run 1", 0)
		keep := addEpisode(t, st, run2, "in run 2", 0)
		ent := mergeEntity(t, st, run1, "Alice", 0)
		stats, err := st.DeleteScope(ctx, run1)
		must(t, "DeleteScope run", err)
		if stats.Episodes != 1 || stats.Entities != 0 {
			t.Errorf("stats=%+v, want 1 episode and no entities (entities belong to the namespace)", stats)
		}
		eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
		must(t, "FindEpisodes", err)
		sameList(t, "remaining", episodeIDs(eps), []string{keep.ID})
		ents, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc})
		must(t, "FindEntities", err)
		if len(ents) != 1 || ents[0].ID != ent.ID {
			t.Errorf("entities=%v, want Alice kept", entityNames(ents))
		}
	})

	// A scope naming a tenant alone erases the tenant (Erase/WholeTenant);
	// one naming nothing, or a run of no user or agent, is refused.
	s.run("DeleteScope/Invalid", func(t *testing.T) {
		_, err := st.DeleteScope(ctxFor(t), lore.Scope{})
		wantCode(t, "DeleteScope without a tenant", err, lore.EINVALID)
		_, err = st.DeleteScope(ctxFor(t), lore.Scope{TenantID: newTenant(), RunID: "r"})
		wantCode(t, "DeleteScope of a run without user or agent", err, lore.EINVALID)
	})
}
