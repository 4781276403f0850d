package storetest

import (
	"fmt"
	"testing"

	"github.com/lore-memory/lore"
)

// DirectoryStore is a store that also answers tenant-wide directory
// questions.
type DirectoryStore interface {
	lore.Store
	lore.Directory
	lore.QueueCounter
}

// RunDirectory runs the conformance suite for lore.Directory and
// lore.QueueCounter against one backend. open is called once and registers its own cleanup.
func RunDirectory(t *testing.T, backend string, open func(testing.TB) DirectoryStore) {
	t.Helper()
	st := open(t)
	s := suite{t: t, backend: backend}

	s.run("Directory/ScopeOf", func(t *testing.T) {
		ctx := ctxFor(t)
		alice := userScope()
		bot := lore.Scope{TenantID: alice.TenantID, AgentID: "bot", RunID: "r1"}
		other := lore.Scope{TenantID: newTenant(), UserID: "alice"}
		cleanupStore(t, st, alice, bot, other)
		ep := addEpisode(t, st, bot, "hello from the bot", 1)
		f := mergeFact(t, st, alice, mergeEntity(t, st, alice, "Alice", 0), "lives_in", nil, "Paris", 2)
		gone := addEpisode(t, st, alice, "delete me", 3)
		must(t, "DeleteEpisode", st.DeleteEpisode(ctx, alice, gone.ID, "test"))

		for _, c := range []struct {
			name, id string
			want     lore.Scope
		}{{"fact", f.ID, alice}, {"episode", ep.ID, bot}, {"deleted episode", gone.ID, alice}} {
			got, err := st.ScopeOf(ctx, alice.TenantID, c.id)
			must(t, "ScopeOf "+c.name, err)
			if got != c.want {
				t.Errorf("ScopeOf(%s)=%+v, want %+v", c.name, got, c.want)
			}
		}
		// Another tenant never learns whose an id is.
		_, err := st.ScopeOf(ctx, other.TenantID, f.ID)
		wantCode(t, "ScopeOf(other tenant)", err, lore.ENOTFOUND)
		_, err = st.ScopeOf(ctx, alice.TenantID, "no-such-id")
		wantCode(t, "ScopeOf(unknown)", err, lore.ENOTFOUND)
	})

	s.run("Directory/Scopes", func(t *testing.T) {
		ctx := ctxFor(t)
		alice := userScope()
		aliceRun := lore.Scope{TenantID: alice.TenantID, UserID: "alice", RunID: "r1"}
		bob := lore.Scope{TenantID: alice.TenantID, UserID: "bob"}
		bot := lore.Scope{TenantID: alice.TenantID, AgentID: "bot"}
		other := lore.Scope{TenantID: newTenant(), UserID: "carol"}
		cleanupStore(t, st, alice, bob, bot, other)
		addEpisode(t, st, alice, "one", 1)
		addEpisode(t, st, alice, "two", 2)
		mergeFact(t, st, alice, mergeEntity(t, st, alice, "Alice", 0), "likes", nil, "tea", 3)
		addEpisode(t, st, aliceRun, "in a run", 4)
		addEpisode(t, st, bob, "bob", 5)
		addEpisode(t, st, bot, "bot", 6)
		addEpisode(t, st, other, "elsewhere", 7)

		got, err := st.Scopes(ctx, alice.TenantID, 100)
		must(t, "Scopes", err)
		var desc []string
		for _, g := range got {
			desc = append(desc, fmt.Sprintf("%s/%s/%s:%d", g.Scope.UserID, g.Scope.AgentID, g.Scope.RunID, g.Memories))
			if g.Scope.TenantID != alice.TenantID || g.FirstAt.IsZero() || g.LastAt.Before(g.FirstAt) {
				t.Errorf("summary %+v: want the tenant and FirstAt <= LastAt", g)
			}
		}
		// Ordered by user, agent, run: the agent-only scope (no user) first.
		want := "[/bot/:1 alice//:3 alice//r1:1 bob//:1]"
		if fmt.Sprint(desc) != want {
			t.Errorf("Scopes=%v, want %v", desc, want)
		}
		limited, err := st.Scopes(ctx, alice.TenantID, 2)
		must(t, "Scopes(limit 2)", err)
		if len(limited) != 2 {
			t.Errorf("len(Scopes(limit 2))=%d, want 2", len(limited))
		}
		_, err = st.Scopes(ctx, "", 10)
		wantCode(t, "Scopes(no tenant)", err, lore.EINVALID)
	})

	s.run("Directory/CountJobs", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		statuses := []lore.JobStatus{lore.JobQueued, lore.JobQueued, lore.JobRetrying, lore.JobDone, lore.JobFailed}
		for _, status := range statuses {
			job := &lore.Job{Scope: sc, Kind: "extract", EpisodeIDs: []string{"e"}, Status: lore.JobQueued, MaxAttempts: 3, NextRunAt: baseTime, CreatedAt: baseTime}
			must(t, "EnqueueJob", st.EnqueueJob(ctx, job))
			if status != lore.JobQueued {
				job.Status = status
				must(t, "SaveJob", st.SaveJob(ctx, job))
			}
		}
		got, err := st.CountJobs(ctx, sc.TenantID)
		must(t, "CountJobs", err)
		if fmt.Sprint(got) != fmt.Sprint(map[lore.JobStatus]int{lore.JobQueued: 2, lore.JobRetrying: 1}) {
			t.Errorf("CountJobs=%v, want 2 queued and 1 retrying", got)
		}
		all, err := st.CountJobs(ctx, "")
		must(t, "CountJobs(all tenants)", err)
		if all[lore.JobQueued] < 2 {
			t.Errorf("CountJobs(all)=%v, want at least this tenant's 2 queued", all)
		}
	})

	s.run("Jobs/KeepRequestID", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupStore(t, st, sc)
		job := &lore.Job{Scope: sc, Kind: "extract", EpisodeIDs: []string{"e"}, Status: lore.JobQueued, MaxAttempts: 3,
			NextRunAt: baseTime, CreatedAt: baseTime, RequestID: "req-42"}
		must(t, "EnqueueJob", st.EnqueueJob(ctx, job))
		job.Status = lore.JobDone
		must(t, "SaveJob", st.SaveJob(ctx, job))
		got, err := st.GetJob(ctx, sc.TenantID, job.ID)
		must(t, "GetJob", err)
		if got.RequestID != "req-42" {
			t.Errorf("RequestID=%q after enqueue and save, want req-42", got.RequestID)
		}
	})
}
