package storetest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/lore-memory/lore"
)

// addEpisode stores one episode and returns it with its assigned id.
func addEpisode(t *testing.T, st lore.Store, sc lore.Scope, content string, hours int) *lore.Episode {
	t.Helper()
	ep := &lore.Episode{Scope: sc, Role: "user", Content: content, OccurredAt: at(hours)}
	must(t, "AddEpisodes", st.AddEpisodes(ctxFor(t), []*lore.Episode{ep}))
	if ep.ID == "" {
		t.Fatalf("AddEpisodes left ID empty, want an assigned id")
	}
	return ep
}

func runEpisodes(s suite, st lore.Store) {
	s.run("Episodes/AddRoundTrips", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		sc.AgentID, sc.RunID = "helper", "run-1"
		cleanupStore(t, st, sc)
		in := &lore.Episode{
			Scope: sc, Role: "user", Speaker: "Alice", Content: "I moved to Lisbon last spring.",
			OccurredAt: at(0), SourceID: "D1:3", Verbatim: true,
			Metadata: map[string]any{"topic": "travel", "mood": "happy"},
		}
		must(t, "AddEpisodes", st.AddEpisodes(ctx, []*lore.Episode{in}))
		if in.ID == "" || in.CreatedAt.IsZero() || in.UpdatedAt.IsZero() {
			t.Fatalf("AddEpisodes: id=%q created=%v updated=%v, want all assigned", in.ID, in.CreatedAt, in.UpdatedAt)
		}
		got, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc, IDs: []string{in.ID}})
		must(t, "FindEpisodes", err)
		if len(got) != 1 {
			t.Fatalf("len(episodes)=%d, want 1", len(got))
		}
		ep := got[0]
		if ep.Scope != sc || ep.Role != "user" || ep.Speaker != "Alice" || ep.Content != in.Content ||
			ep.SourceID != "D1:3" || !ep.Verbatim {
			t.Errorf("episode=%+v, want the stored fields of %+v", ep, in)
		}
		sameTime(t, "OccurredAt", ep.OccurredAt, at(0))
		sameTime(t, "CreatedAt", ep.CreatedAt, in.CreatedAt)
		if ep.Metadata["topic"] != "travel" || ep.Metadata["mood"] != "happy" {
			t.Errorf("metadata=%v, want topic=travel mood=happy", ep.Metadata)
		}
		hist, err := st.History(ctx, sc, in.ID)
		must(t, "History", err)
		if len(hist) != 1 || hist[0].Event != lore.EventAdd || hist[0].After != in.Content {
			t.Errorf("history=%+v, want one ADD with the content as new memory", hist)
		}
	})

	s.run("Episodes/BatchKeepsOrder", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		// A session's turns share its date; the order given is the only
		// order they have, and the neighbouring-turn context relies on it.
		var batch []*lore.Episode
		for i := range 40 {
			batch = append(batch, &lore.Episode{Scope: sc, Role: "user", Content: fmt.Sprintf("turn %d", i), OccurredAt: at(0)})
		}
		must(t, "AddEpisodes", st.AddEpisodes(ctx, batch))
		got, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
		must(t, "FindEpisodes", err)
		if len(got) != len(batch) {
			t.Fatalf("len(episodes)=%d, want %d", len(got), len(batch))
		}
		for i, ep := range got {
			if ep.ID != batch[i].ID {
				t.Fatalf("episode %d is %q, want %q: a batch must list in the order it was given", i, ep.Content, batch[i].Content)
			}
		}
	})

	s.run("Episodes/Speakers", func(t *testing.T) {
		ctx := ctxFor(t)
		a := userScope()
		b := lore.Scope{TenantID: a.TenantID, UserID: "bob"}
		withAgent := a
		withAgent.AgentID = "helper"
		cleanupStore(t, st, a, b)
		var batch []*lore.Episode
		for i, sp := range []string{"Melanie", "Caroline", "", "Melanie"} {
			batch = append(batch, &lore.Episode{Scope: a, Role: "user", Speaker: sp, Content: fmt.Sprintf("turn %d", i), OccurredAt: at(i)})
		}
		batch = append(batch,
			&lore.Episode{Scope: withAgent, Role: "assistant", Speaker: "Helper", Content: "agent turn", OccurredAt: at(5)},
			&lore.Episode{Scope: b, Role: "user", Speaker: "Bob", Content: "bob's turn", OccurredAt: at(0)})
		must(t, "AddEpisodes", st.AddEpisodes(ctx, batch))
		got, err := st.Speakers(ctx, a)
		must(t, "Speakers", err)
		sameList(t, "speakers of the user", got, []string{"Caroline", "Helper", "Melanie"})
		got, err = st.Speakers(ctx, withAgent)
		must(t, "Speakers", err)
		sameList(t, "speakers of the user with the agent", got, []string{"Helper"})
		got, err = st.Speakers(ctx, lore.Scope{TenantID: a.TenantID, UserID: "nobody"})
		must(t, "Speakers", err)
		sameList(t, "speakers of a user without episodes", got, []string{})
		_, err = st.Speakers(ctx, lore.Scope{TenantID: a.TenantID})
		wantCode(t, "Speakers without user or agent", err, lore.EINVALID)

		// A speaker stays while one of its episodes does.
		must(t, "DeleteEpisode", st.DeleteEpisode(ctx, a, batch[0].ID, "api"))
		got, err = st.Speakers(ctx, a)
		must(t, "Speakers", err)
		sameList(t, "speakers after deleting one of two Melanie turns", got, []string{"Caroline", "Helper", "Melanie"})
		must(t, "DeleteEpisode", st.DeleteEpisode(ctx, a, batch[3].ID, "api"))
		must(t, "DeleteEpisode", st.DeleteEpisode(ctx, a, batch[1].ID, "api"))
		got, err = st.Speakers(ctx, a)
		must(t, "Speakers", err)
		sameList(t, "speakers after deleting every Melanie and Caroline turn", got, []string{"Helper"})
		_, err = st.DeleteScope(ctx, withAgent)
		must(t, "DeleteScope", err)
		got, err = st.Speakers(ctx, a)
		must(t, "Speakers", err)
		sameList(t, "speakers after deleting the agent's scope", got, []string{})
		got, err = st.Speakers(ctx, b)
		must(t, "Speakers", err)
		sameList(t, "speakers of the other user", got, []string{"Bob"})
	})

	s.run("Episodes/SpeakersUnderConcurrentWrites", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		const writers, each = 8, 3
		eps := make([][]*lore.Episode, writers)
		errs := make([]error, writers)
		var wg sync.WaitGroup
		for w := range writers {
			for i := range each {
				eps[w] = append(eps[w], &lore.Episode{Scope: sc, Role: "user", Speaker: "Melanie", Content: fmt.Sprintf("turn %d.%d", w, i), OccurredAt: at(i)})
			}
			wg.Go(func() { errs[w] = st.AddEpisodes(ctx, eps[w]) })
		}
		wg.Wait()
		for w, err := range errs {
			must(t, fmt.Sprintf("AddEpisodes %d", w), err)
		}
		got, err := st.Speakers(ctx, sc)
		must(t, "Speakers", err)
		sameList(t, "speakers after concurrent adds", got, []string{"Melanie"})
		// Every turn but one deleted concurrently: the speaker stays; the
		// last one deleted: it goes.
		for w := range writers {
			wg.Go(func() {
				for i, ep := range eps[w] {
					if w == 0 && i == 0 {
						continue
					}
					if err := st.DeleteEpisode(ctx, sc, ep.ID, "api"); err != nil {
						errs[w] = err
						return
					}
				}
			})
		}
		wg.Wait()
		for w, err := range errs {
			must(t, fmt.Sprintf("DeleteEpisode %d", w), err)
		}
		got, err = st.Speakers(ctx, sc)
		must(t, "Speakers", err)
		sameList(t, "speakers with one turn left", got, []string{"Melanie"})
		must(t, "DeleteEpisode", st.DeleteEpisode(ctx, sc, eps[0][0].ID, "api"))
		got, err = st.Speakers(ctx, sc)
		must(t, "Speakers", err)
		sameList(t, "speakers with no turn left", got, []string{})
	})

	s.run("Episodes/KeepsGivenID", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		ep := &lore.Episode{ID: "7d0c5f2e-0000-4000-8000-" + sc.TenantID[len(sc.TenantID)-12:], Scope: sc,
			Role: "user", Content: "hello", OccurredAt: at(0)}
		must(t, "AddEpisodes", st.AddEpisodes(ctx, []*lore.Episode{ep}))
		got, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
		must(t, "FindEpisodes", err)
		sameList(t, "ids", episodeIDs(got), []string{ep.ID})
	})

	s.run("Episodes/FindFiltersAndOrders", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		// Stored out of order so that the ordering by OccurredAt is visible.
		e3 := addEpisode(t, st, sc, "third", 3)
		e1 := addEpisode(t, st, sc, "first", 1)
		e2 := addEpisode(t, st, sc, "second", 2)
		e4 := &lore.Episode{Scope: sc, Role: "assistant", Content: "fourth", OccurredAt: at(4), SourceID: "S4"}
		must(t, "AddEpisodes", st.AddEpisodes(ctx, []*lore.Episode{e4}))
		cases := []struct {
			name   string
			filter lore.EpisodeFilter
			want   []string
		}{
			{"all ordered by occurred_at", lore.EpisodeFilter{Scope: sc}, []string{e1.ID, e2.ID, e3.ID, e4.ID}},
			{"ids", lore.EpisodeFilter{Scope: sc, IDs: []string{e4.ID, e2.ID}}, []string{e2.ID, e4.ID}},
			{"source ids", lore.EpisodeFilter{Scope: sc, SourceIDs: []string{"S4"}}, []string{e4.ID}},
			{"since inclusive", lore.EpisodeFilter{Scope: sc, Since: ptr(at(2))}, []string{e2.ID, e3.ID, e4.ID}},
			{"until exclusive", lore.EpisodeFilter{Scope: sc, Until: ptr(at(3))}, []string{e1.ID, e2.ID}},
			{"range", lore.EpisodeFilter{Scope: sc, Since: ptr(at(2)), Until: ptr(at(4))}, []string{e2.ID, e3.ID}},
			{"limit", lore.EpisodeFilter{Scope: sc, Limit: 2}, []string{e1.ID, e2.ID}},
			{"limit offset", lore.EpisodeFilter{Scope: sc, Limit: 2, Offset: 1}, []string{e2.ID, e3.ID}},
			{"offset only", lore.EpisodeFilter{Scope: sc, Offset: 3}, []string{e4.ID}},
			{"unknown id", lore.EpisodeFilter{Scope: sc, IDs: []string{"no-such-id"}}, []string{}},
		}
		for _, c := range cases {
			got, err := st.FindEpisodes(ctx, c.filter)
			must(t, c.name, err)
			sameList(t, c.name, episodeIDs(got), c.want)
		}
	})

	s.run("Episodes/UpdateRecordsHistory", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		ep := addEpisode(t, st, sc, "I like tea", 0)
		got, err := st.UpdateEpisode(ctx, sc, ep.ID, lore.EpisodeUpdate{
			Content: ptr("I like green tea"), Metadata: map[string]any{"edited": true}, Actor: "api", Reason: "typo",
		})
		must(t, "UpdateEpisode", err)
		if got.Content != "I like green tea" || got.Metadata["edited"] != true {
			t.Errorf("updated episode content=%q metadata=%v, want new content and metadata", got.Content, got.Metadata)
		}
		if got.UpdatedAt.Before(ep.UpdatedAt) {
			t.Errorf("UpdatedAt=%v went back from %v", got.UpdatedAt, ep.UpdatedAt)
		}
		found, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc, IDs: []string{ep.ID}})
		must(t, "FindEpisodes", err)
		if len(found) != 1 || found[0].Content != "I like green tea" {
			t.Fatalf("stored episode=%+v, want the new content", found)
		}
		hist, err := st.History(ctx, sc, ep.ID)
		must(t, "History", err)
		sameList(t, "events", eventKinds(hist), []string{"ADD", "UPDATE"})
		if len(hist) == 2 {
			u := hist[1]
			if u.Before != "I like tea" || u.After != "I like green tea" || u.Actor != "api" || u.Reason != "typo" {
				t.Errorf("UPDATE event=%+v, want before/after text, actor api, reason typo", u)
			}
			if u.MemoryID != ep.ID || u.Scope.TenantID != sc.TenantID {
				t.Errorf("UPDATE event memory=%q scope=%+v, want %q in tenant %q", u.MemoryID, u.Scope, ep.ID, sc.TenantID)
			}
		}
	})

	s.run("Episodes/DeleteRecordsHistory", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		ep := addEpisode(t, st, sc, "delete me", 0)
		keep := addEpisode(t, st, sc, "keep me", 1)
		must(t, "DeleteEpisode", st.DeleteEpisode(ctx, sc, ep.ID, "api"))
		got, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
		must(t, "FindEpisodes", err)
		sameList(t, "remaining", episodeIDs(got), []string{keep.ID})
		wantCode(t, "second DeleteEpisode", st.DeleteEpisode(ctx, sc, ep.ID, "api"), lore.ENOTFOUND)
		hist, err := st.History(ctx, sc, ep.ID)
		must(t, "History", err)
		sameList(t, "events", eventKinds(hist), []string{"ADD", "DELETE"})
		if len(hist) == 2 && (hist[1].Before != "delete me" || hist[1].Actor != "api") {
			t.Errorf("DELETE event=%+v, want before text and actor api", hist[1])
		}
	})

	s.run("Episodes/DeleteKeepsFactSources", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		ep := addEpisode(t, st, sc, "I live in Paris", 0)
		user := mergeEntity(t, st, sc, "Alice", 0)
		f := mergeFact(t, st, sc, user, "lives_in", nil, "Paris", 0, ep.ID)
		must(t, "DeleteEpisode", st.DeleteEpisode(ctx, sc, ep.ID, "api"))
		got, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IDs: []string{f.ID}})
		must(t, "FindFacts", err)
		if len(got) != 1 {
			t.Fatalf("len(facts)=%d after deleting its only source, want 1 (the fact stays)", len(got))
		}
		sameList(t, "sources", got[0].SourceEpisodeIDs, []string{ep.ID})
	})

	s.run("Episodes/UnknownAndForeignIDsNotFound", func(t *testing.T) {
		ctx := ctxFor(t)
		a := userScope()
		b := lore.Scope{TenantID: a.TenantID, UserID: "bob"}
		cleanupStore(t, st, a, b)
		ep := addEpisode(t, st, a, "alice's secret", 0)
		_, err := st.UpdateEpisode(ctx, b, ep.ID, lore.EpisodeUpdate{Content: ptr("hijacked")})
		wantCode(t, "UpdateEpisode from another user", err, lore.ENOTFOUND)
		wantCode(t, "DeleteEpisode from another user", st.DeleteEpisode(ctx, b, ep.ID, "api"), lore.ENOTFOUND)
		_, err = st.UpdateEpisode(ctx, a, "no-such-id", lore.EpisodeUpdate{Content: ptr("x")})
		wantCode(t, "UpdateEpisode of an unknown id", err, lore.ENOTFOUND)
		_, err = st.History(ctx, b, ep.ID)
		wantCode(t, "History from another user", err, lore.ENOTFOUND)
		got, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: a, IDs: []string{ep.ID}})
		must(t, "FindEpisodes", err)
		if len(got) != 1 || got[0].Content != "alice's secret" {
			t.Errorf("episode after foreign update=%+v, want it unchanged", got)
		}
	})

	s.run("Episodes/InvalidScope", func(t *testing.T) {
		ctx := ctxFor(t)
		tenant := newTenant()
		err := st.AddEpisodes(ctx, []*lore.Episode{{Scope: lore.Scope{TenantID: tenant}, Role: "user", Content: "x", OccurredAt: at(0)}})
		wantCode(t, "AddEpisodes without user or agent", err, lore.EINVALID)
		_, err = st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: lore.Scope{TenantID: tenant}})
		wantCode(t, "FindEpisodes without user or agent", err, lore.EINVALID)
	})
}
