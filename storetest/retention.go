package storetest

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// RunRetention runs the conformance suite for lore.RetentionStore: expired
// memories are never read back, the sweep deletes them with their history,
// and dropping raw text clears conversation episodes but keeps verbatim
// ones and facts. Sweeps act on the whole store, so the subtests run one
// after another and check only their own tenants.
func RunRetention(t *testing.T, backend string, open func(testing.TB) lore.Store) {
	t.Helper()
	st := open(t)
	rs, ok := st.(lore.RetentionStore)
	if !ok {
		t.Fatalf("%s: the store is not a lore.RetentionStore", backend)
	}
	s := suite{t: t, backend: backend}
	s.serial("Retention", func(run func(name string, fn func(t *testing.T))) {
		run("ExpiredIsNeverRead", func(t *testing.T) {
			ctx := ctxFor(t)
			sc := userScope()
			cleanupStore(t, st, sc)
			now := time.Now().UTC().Truncate(time.Second)
			past, future := now.Add(-time.Minute), now.Add(time.Hour)
			gone := &lore.Episode{Scope: sc, Role: "user", Content: "the code is 4711", OccurredAt: at(0), ExpiresAt: &past}
			kept := &lore.Episode{Scope: sc, Role: "user", Content: "I live in Paris", OccurredAt: at(1), ExpiresAt: &future}
			plain := &lore.Episode{Scope: sc, Role: "user", Content: "I like tea", OccurredAt: at(2)}
			must(t, "AddEpisodes", st.AddEpisodes(ctx, []*lore.Episode{gone, kept, plain}))
			eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
			must(t, "FindEpisodes", err)
			if len(eps) != 2 || eps[0].ID != kept.ID || eps[1].ID != plain.ID {
				t.Fatalf("FindEpisodes=%v, want the two unexpired episodes", episodeIDs(eps))
			}
			if eps[0].ExpiresAt == nil || !eps[0].ExpiresAt.Equal(future) || eps[1].ExpiresAt != nil {
				t.Errorf("ExpiresAt read back=%v and %v, want %v and none", eps[0].ExpiresAt, eps[1].ExpiresAt, future)
			}
			byID, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc, IDs: []string{gone.ID}})
			must(t, "FindEpisodes(id)", err)
			if len(byID) != 0 {
				t.Errorf("FindEpisodes by the expired episode's id returned it")
			}

			user := mergeEntity(t, st, sc, "alice", 0)
			code, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: user.ID, Subject: "alice", Predicate: "has_code", Object: "4711",
				Text: "alice's code is 4711", Confidence: 0.9, FirstSeen: at(0), LastSeen: at(0), SourceEpisodeIDs: []string{gone.ID}, ExpiresAt: &past}, "test")
			must(t, "MergeFact(expired)", err)
			home, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: user.ID, Subject: "alice", Predicate: "lives_in", Object: "Paris",
				Text: "alice lives in Paris", Confidence: 0.9, FirstSeen: at(1), LastSeen: at(1), ExpiresAt: &future}, "test")
			must(t, "MergeFact", err)
			facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IncludeInvalidated: true})
			must(t, "FindFacts", err)
			if len(facts) != 1 || facts[0].ID != home.ID {
				t.Fatalf("FindFacts=%d facts, want only the unexpired one", len(facts))
			}
			if facts[0].ExpiresAt == nil || !facts[0].ExpiresAt.Equal(future) {
				t.Errorf("fact ExpiresAt read back=%v, want %v", facts[0].ExpiresAt, future)
			}
			byID2, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IDs: []string{code.ID}, IncludeInvalidated: true})
			must(t, "FindFacts(id)", err)
			if len(byID2) != 0 {
				t.Errorf("FindFacts by the expired fact's id returned it")
			}
			hits, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: sc, SeedIDs: []string{user.ID}, MaxHops: 2, Limit: 50, IncludeInvalidated: true})
			must(t, "Neighborhood", err)
			for _, h := range hits {
				if h.Fact != nil && h.Fact.ID == code.ID {
					t.Errorf("Neighborhood returned the expired fact")
				}
			}

			// Stated again without an expiry, the fact is permanent.
			again, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: user.ID, Subject: "alice", Predicate: "lives_in", Object: "Paris",
				Text: "alice lives in Paris", Confidence: 0.9, FirstSeen: at(2), LastSeen: at(2)}, "test")
			must(t, "MergeFact(again)", err)
			if again.ID != home.ID {
				t.Fatalf("restatement made fact %s, want a merge into %s", again.ID, home.ID)
			}
			// A swept memory's ranking signals go with it (lore.FeedbackStore).
			fs, _ := st.(lore.FeedbackStore)
			h := lore.QueryHash("what is the code")
			if fs != nil {
				for _, id := range []string{code.ID, gone.ID, plain.ID} {
					_, err := fs.RecordVerdict(ctx, &lore.Verdict{Scope: sc, MemoryID: id, Helpful: true, QueryHash: h}, lore.DefaultFeedbackRule())
					must(t, "RecordVerdict", err)
				}
			}
			swept, err := rs.SweepExpired(ctx, future.Add(time.Minute), 10000)
			must(t, "SweepExpired", err)
			if fs != nil {
				vs, err := fs.Verdicts(ctx, sc)
				must(t, "Verdicts", err)
				rows, err := fs.Successes(ctx, sc)
				must(t, "Successes", err)
				sig, err := fs.MemorySignals(ctx, sc, []string{code.ID, gone.ID, plain.ID}, h)
				must(t, "MemorySignals", err)
				if len(vs) != 1 || vs[0].MemoryID != plain.ID || len(rows) != 1 || len(sig) != 1 || sig[plain.ID].Helpful != 1 {
					t.Errorf("after the sweep: %d verdicts, %d success rows, signals %v; want the plain episode's one of each", len(vs), len(rows), sig)
				}
			}
			if !sweptHas(swept, gone.ID) || !sweptHas(swept, kept.ID) || !sweptHas(swept, code.ID) || sweptHas(swept, home.ID) || sweptHas(swept, plain.ID) {
				t.Errorf("SweepExpired at +1h took episodes %v and facts %v; want the two expiring episodes and the expired fact, not the restated fact or the plain episode",
					episodeIDs(swept.Episodes), factIDs(swept.Facts))
			}
			hist, err := st.History(ctx, sc, gone.ID)
			if lore.ErrorCode(err) != lore.ENOTFOUND {
				must(t, "History", err)
			}
			if len(hist) != 0 {
				t.Errorf("History of a swept episode=%d events, want none (they hold its text)", len(hist))
			}
			eps, err = st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
			must(t, "FindEpisodes after the sweep", err)
			if len(eps) != 1 || eps[0].ID != plain.ID {
				t.Errorf("FindEpisodes after the sweep=%v, want the plain one", episodeIDs(eps))
			}
			again2, err := rs.SweepExpired(ctx, future.Add(time.Minute), 10000)
			must(t, "SweepExpired again", err)
			if sweptHas(again2, gone.ID) || sweptHas(again2, code.ID) {
				t.Errorf("a second sweep took the same memories again")
			}
		})

		run("DropRawTextKeepsFactsAndVerbatim", func(t *testing.T) {
			ctx := ctxFor(t)
			sc := userScope()
			other := lore.Scope{TenantID: newTenant(), UserID: "alice"}
			cleanupStore(t, st, sc, other)
			talk := &lore.Episode{Scope: sc, Role: "user", Content: "my sister Emma moved to Rome", OccurredAt: at(0)}
			note := &lore.Episode{Scope: sc, Role: "user", Content: "remember: allergic to nuts", OccurredAt: at(1), Verbatim: true}
			elsewhere := &lore.Episode{Scope: other, Role: "user", Content: "another tenant's words", OccurredAt: at(0)}
			must(t, "AddEpisodes", st.AddEpisodes(ctx, []*lore.Episode{talk, note}))
			must(t, "AddEpisodes(other tenant)", st.AddEpisodes(ctx, []*lore.Episode{elsewhere}))
			emma := mergeEntity(t, st, sc, "Emma", 0)
			fact, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: emma.ID, Subject: "Emma", Predicate: "lives_in", Object: "Rome",
				Text: "Emma lives in Rome", Confidence: 0.9, FirstSeen: at(0), LastSeen: at(0), SourceEpisodeIDs: []string{talk.ID}}, "test")
			must(t, "MergeFact", err)

			none, err := rs.DropRawText(ctx, sc.TenantID, time.Now().Add(-time.Hour), 100)
			must(t, "DropRawText(an hour ago)", err)
			if len(none.Episodes) != 0 {
				t.Errorf("DropRawText before the episodes were stored took %v", episodeIDs(none.Episodes))
			}
			dropped, err := rs.DropRawText(ctx, sc.TenantID, time.Now().Add(time.Hour), 100)
			must(t, "DropRawText", err)
			if len(dropped.Episodes) != 1 || dropped.Episodes[0].ID != talk.ID || dropped.Episodes[0].Content != talk.Content {
				t.Errorf("DropRawText=%v, want the conversation episode as it was", episodeIDs(dropped.Episodes))
			}
			eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
			must(t, "FindEpisodes", err)
			for _, ep := range eps {
				switch ep.ID {
				case talk.ID:
					if ep.Content != "" {
						t.Errorf("conversation episode content=%q after DropRawText, want empty", ep.Content)
					}
				case note.ID:
					if ep.Content != note.Content {
						t.Errorf("verbatim memory content=%q, want it kept", ep.Content)
					}
				}
			}
			hist, err := st.History(ctx, sc, talk.ID)
			must(t, "History", err)
			for _, h := range hist {
				if h.Before != "" || h.After != "" {
					t.Errorf("history of a dropped episode still holds %q / %q", h.Before, h.After)
				}
			}
			facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IDs: []string{fact.ID}})
			must(t, "FindFacts", err)
			if len(facts) != 1 || facts[0].Text != "Emma lives in Rome" {
				t.Errorf("the fact after DropRawText=%v, want it kept", factIDs(facts))
			}
			kept, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: other})
			must(t, "FindEpisodes(other tenant)", err)
			if len(kept) != 1 || kept[0].Content != elsewhere.Content {
				t.Errorf("another tenant's episode was touched by DropRawText")
			}
		})
	})
}

func sweptHas(s lore.Swept, id string) bool {
	for _, ep := range s.Episodes {
		if ep.ID == id {
			return true
		}
	}
	for _, f := range s.Facts {
		if f.ID == id {
			return true
		}
	}
	return false
}
