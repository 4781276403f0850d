package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
)

// eraseStore returns st's lore.EraseStore; every backend implements it.
func eraseStore(t *testing.T, st lore.Store) lore.EraseStore {
	t.Helper()
	es, ok := st.(lore.EraseStore)
	if !ok {
		t.Fatalf("%T does not implement lore.EraseStore, want every backend to", st)
	}
	return es
}

// fenced returns ctx fenced for sc at the tenant's current erase sequence.
func fenced(t *testing.T, ctx context.Context, es lore.EraseStore, sc lore.Scope) context.Context {
	t.Helper()
	seq, err := es.EraseSeq(ctx, sc.TenantID)
	must(t, "EraseSeq", err)
	return lore.WithFence(ctx, lore.Fence{Scope: sc, Seq: seq})
}

// wantErased fails unless err is lore.ErrScopeErased.
func wantErased(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, lore.ErrScopeErased) {
		t.Errorf("%s after the erase: err=%v, want lore.ErrScopeErased", what, err)
	}
}

// countScope returns how many episodes, entities and facts sc reads.
func countScope(t *testing.T, st lore.Store, sc lore.Scope) (eps, ents, facts int) {
	t.Helper()
	ctx := ctxFor(t)
	e, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
	must(t, "FindEpisodes", err)
	n, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc})
	must(t, "FindEntities", err)
	f, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, IncludeInvalidated: true})
	must(t, "FindFacts", err)
	return len(e), len(n), len(f)
}

func runErase(s suite, st lore.Store) {
	s.run("Erase/FencedWritesAfterEraseWriteNothing", func(t *testing.T) {
		ctx := ctxFor(t)
		es := eraseStore(t, st)
		sc := userScope()
		cleanupStore(t, st, sc)
		fctx := fenced(t, ctx, es, sc)
		// Before the erase, fenced writes go through.
		must(t, "AddEpisodes before the erase", st.AddEpisodes(fctx, []*lore.Episode{{Scope: sc, Role: "user", Content: "I live in Paris", OccurredAt: at(0)}}))
		user, err := st.MergeEntity(fctx, &lore.Entity{Scope: sc, Name: "alice", Type: "person"})
		must(t, "MergeEntity before the erase", err)

		if _, err := st.DeleteScope(ctx, sc); err != nil {
			t.Fatalf("DeleteScope: %v", err)
		}
		wantErased(t, "AddEpisodes", st.AddEpisodes(fctx, []*lore.Episode{{Scope: sc, Role: "user", Content: "I work at Acme", OccurredAt: at(1)}}))
		_, err = st.MergeEntity(fctx, &lore.Entity{Scope: sc, Name: "Acme", Type: "organization"})
		wantErased(t, "MergeEntity", err)
		_, _, err = st.MergeFact(fctx, &lore.Fact{Scope: sc, SubjectID: user.ID, Subject: "alice", Predicate: "works_at", Object: "Acme",
			Text: "alice works at Acme", Confidence: 0.8, FirstSeen: at(1), LastSeen: at(1)}, "test")
		wantErased(t, "MergeFact", err)
		now := time.Now().UTC()
		wantErased(t, "EnqueueJob", st.EnqueueJob(fctx, &lore.Job{ID: uuid.NewString(), Scope: sc, Kind: "extract", Status: lore.JobQueued,
			MaxAttempts: 3, NextRunAt: now, CreatedAt: now, UpdatedAt: now}))
		wantErased(t, "SetMeta", st.SetMeta(fctx, "storetest.erase."+uuid.NewString(), "x"))
		if e, n, f := countScope(t, st, sc); e+n+f != 0 {
			t.Errorf("after the erase: %d episodes, %d entities, %d facts, want none", e, n, f)
		}

		// The user may come back: unfenced writes, and writes fenced after
		// the erase, go through.
		must(t, "AddEpisodes unfenced", st.AddEpisodes(ctx, []*lore.Episode{{Scope: sc, Role: "user", Content: "Hello again", OccurredAt: at(2)}}))
		_, err = st.MergeEntity(fenced(t, ctx, es, sc), &lore.Entity{Scope: sc, Name: "alice", Type: "person"})
		must(t, "MergeEntity under a fresh fence", err)
		if e, n, _ := countScope(t, st, sc); e != 1 || n != 1 {
			t.Errorf("after coming back: %d episodes, %d entities, want 1 and 1", e, n)
		}
	})

	s.run("Erase/CoversOnlyTheErasedScope", func(t *testing.T) {
		ctx := ctxFor(t)
		es := eraseStore(t, st)
		tenant := newTenant()
		alice := lore.Scope{TenantID: tenant, UserID: "alice"}
		aliceRun := lore.Scope{TenantID: tenant, UserID: "alice", RunID: "r1"}
		aliceWithBot := lore.Scope{TenantID: tenant, UserID: "alice", AgentID: "bot"}
		bob := lore.Scope{TenantID: tenant, UserID: "bob"}
		bot := lore.Scope{TenantID: tenant, AgentID: "bot"}
		other := lore.Scope{TenantID: newTenant(), UserID: "alice"}
		cleanupStore(t, st, alice, bob, bot, other)
		cases := []struct {
			name   string
			erase  lore.Scope
			fences []lore.Scope // writes an erase of it refuses
			spares []lore.Scope // writes it lets through
		}{
			{"user", alice, []lore.Scope{alice, aliceRun, aliceWithBot}, []lore.Scope{bob, bot, other}},
			{"run", aliceRun, []lore.Scope{aliceRun}, []lore.Scope{alice, aliceWithBot, bob, bot}},
			{"agent only", bot, []lore.Scope{bot}, []lore.Scope{aliceWithBot, alice, bob}},
			{"user with agent", aliceWithBot, []lore.Scope{aliceWithBot}, []lore.Scope{alice, bot, bob}},
			{"tenant", lore.Scope{TenantID: tenant}, []lore.Scope{alice, aliceRun, aliceWithBot, bob, bot}, []lore.Scope{other}},
		}
		for _, c := range cases {
			seq, err := es.EraseSeq(ctx, tenant)
			must(t, "EraseSeq", err)
			if _, err := st.DeleteScope(ctx, c.erase); err != nil {
				t.Fatalf("%s: DeleteScope: %v", c.name, err)
			}
			after, err := es.EraseSeq(ctx, tenant)
			must(t, "EraseSeq after", err)
			if after <= seq {
				t.Errorf("%s: EraseSeq=%d after an erase, want more than %d", c.name, after, seq)
			}
			for _, w := range c.fences {
				gone, err := es.Erased(ctx, w, seq)
				must(t, "Erased", err)
				if !gone {
					t.Errorf("%s: Erased(%s)=false, want true", c.name, describe(w))
				}
				_, err = st.MergeEntity(lore.WithFence(ctx, lore.Fence{Scope: w, Seq: seq}), &lore.Entity{Scope: w.Namespace(), Name: "Paris", Type: "place"})
				wantErased(t, c.name+": MergeEntity in "+describe(w), err)
			}
			for _, w := range c.spares {
				gone, err := es.Erased(ctx, w, seq)
				must(t, "Erased", err)
				if gone {
					t.Errorf("%s: Erased(%s)=true, want false", c.name, describe(w))
				}
				if _, err := st.MergeEntity(lore.WithFence(ctx, lore.Fence{Scope: w, Seq: seq}), &lore.Entity{Scope: w.Namespace(), Name: "Paris", Type: "place"}); err != nil {
					t.Errorf("%s: MergeEntity in %s: %v, want it written", c.name, describe(w), err)
				}
			}
			if gone, err := es.Erased(ctx, c.erase, after); err != nil || gone {
				t.Errorf("%s: Erased(scope, seq after the erase)=%v, %v, want false", c.name, gone, err)
			}
		}
	})

	s.run("Erase/ConcurrentWritersNeverResurrect", func(t *testing.T) {
		ctx := ctxFor(t)
		es := eraseStore(t, st)
		sc := userScope()
		cleanupStore(t, st, sc)
		fctx := fenced(t, ctx, es, sc)
		// Writers keep merging under the fence while the erase runs; every
		// write after the erase must be refused, and nothing written before
		// it may survive.
		var wg sync.WaitGroup
		started := make(chan struct{}, 4)
		stop := make(chan struct{})
		for w := range 4 {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					name := fmt.Sprintf("entity %d-%d", w, i)
					e, err := st.MergeEntity(fctx, &lore.Entity{Scope: sc, Name: name, Type: "thing"})
					if err == nil {
						_, _, err = st.MergeFact(fctx, &lore.Fact{Scope: sc, SubjectID: e.ID, Subject: name, Predicate: "is", Object: "here",
							Text: name + " is here", Confidence: 0.8, FirstSeen: at(0), LastSeen: at(0)}, "test")
					}
					if err == nil {
						err = st.AddEpisodes(fctx, []*lore.Episode{{Scope: sc, Role: "user", Content: name, OccurredAt: at(0)}})
					}
					if i == 0 {
						started <- struct{}{}
					}
					if errors.Is(err, lore.ErrScopeErased) {
						return
					}
					if err != nil {
						t.Errorf("writer %d: %v", w, err)
						return
					}
				}
			})
		}
		for range 4 {
			<-started
		}
		if _, err := st.DeleteScope(ctx, sc); err != nil {
			t.Errorf("DeleteScope: %v", err)
		}
		close(stop)
		wg.Wait()
		if e, n, f := countScope(t, st, sc); e+n+f != 0 {
			t.Errorf("after the erase and its writers: %d episodes, %d entities, %d facts, want none", e, n, f)
		}
	})

	s.run("Erase/WholeTenant", func(t *testing.T) {
		ctx := ctxFor(t)
		tenant := newTenant()
		scopes := []lore.Scope{{TenantID: tenant, UserID: "alice"}, {TenantID: tenant, UserID: "bob", AgentID: "bot", RunID: "r"}, {TenantID: tenant, AgentID: "bot"}}
		kept := lore.Scope{TenantID: newTenant(), UserID: "alice"}
		cleanupStore(t, st, kept)
		for _, sc := range append(scopes, kept) {
			must(t, "AddEpisodes", st.AddEpisodes(ctx, []*lore.Episode{{Scope: sc, Role: "user", Content: "I live in Paris", OccurredAt: at(0)}}))
			mergeFact(t, st, sc, mergeEntity(t, st, sc.Namespace(), "Alice", 0), "lives_in", nil, "Paris", 0)
		}
		_, err := st.DeleteScope(ctx, lore.Scope{})
		wantCode(t, "DeleteScope with no tenant", err, lore.EINVALID)
		_, err = st.DeleteScope(ctx, lore.Scope{TenantID: tenant, RunID: "r"})
		wantCode(t, "DeleteScope of a run with no user or agent", err, lore.EINVALID)
		stats, err := st.DeleteScope(ctx, lore.Scope{TenantID: tenant})
		must(t, "DeleteScope of the tenant", err)
		if stats.Episodes != 3 || stats.Facts != 3 || stats.Entities != 3 {
			t.Errorf("DeleteScope of the tenant=%+v, want 3 episodes, 3 facts, 3 entities", stats)
		}
		for _, sc := range scopes {
			if e, n, f := countScope(t, st, sc); e+n+f != 0 {
				t.Errorf("%s after the tenant's erase: %d episodes, %d entities, %d facts, want none", describe(sc), e, n, f)
			}
		}
		if e, n, f := countScope(t, st, kept); e != 1 || n != 1 || f != 1 {
			t.Errorf("another tenant after the erase: %d episodes, %d entities, %d facts, want 1 each", e, n, f)
		}
	})

	s.run("Meta/DeleteMetaPrefix", func(t *testing.T) {
		ctx := ctxFor(t)
		es := eraseStore(t, st)
		p := "storetest." + uuid.NewString() + ":"
		for _, k := range []string{p + "a", p + "b/c", p[:len(p)-1] + ";", p[:len(p)-1]} {
			must(t, "SetMeta "+k, st.SetMeta(ctx, k, "v"))
		}
		n, err := es.DeleteMetaPrefix(ctx, p)
		must(t, "DeleteMetaPrefix", err)
		if n != 2 {
			t.Errorf("DeleteMetaPrefix=%d, want 2", n)
		}
		for _, k := range []string{p + "a", p + "b/c"} {
			_, err := st.GetMeta(ctx, k)
			wantCode(t, "GetMeta "+k, err, lore.ENOTFOUND)
		}
		for _, k := range []string{p[:len(p)-1] + ";", p[:len(p)-1]} {
			_, err := st.GetMeta(ctx, k)
			must(t, "GetMeta "+k+" (not under the prefix)", err)
		}
		_, err = es.DeleteMetaPrefix(ctx, "")
		wantCode(t, "DeleteMetaPrefix empty", err, lore.EINVALID)
	})
}
