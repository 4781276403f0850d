package storetest

import (
	"testing"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
)

// QueryLogBackend is a store that also keeps query logs and profiles.
type QueryLogBackend interface {
	lore.Store
	lore.ProfileStore
	lore.QueryLogStore
	lore.TenantProfiles
}

// RunQueryLog runs the conformance suite for lore.QueryLogStore and
// lore.TenantProfiles against one backend: order, the pending filter,
// expiry on read and by purge, scopes, erasure and bad input. open is
// called once and registers its own cleanup.
func RunQueryLog(t *testing.T, backend string, open func(testing.TB) QueryLogBackend) {
	t.Helper()
	st := open(t)
	s := suite{t: t, backend: backend}

	// far is an expiry no purge of another subtest reaches.
	far := at(24 * 365 * 100)
	entry := func(q string, h int) lore.QueryLogEntry {
		return lore.QueryLogEntry{ID: uuid.NewString(), Query: q, CreatedAt: at(h), ExpiresAt: far}
	}
	appendAll := func(t *testing.T, sc lore.Scope, es ...lore.QueryLogEntry) {
		t.Helper()
		for _, e := range es {
			must(t, "AppendQueryLog", st.AppendQueryLog(ctxFor(t), sc, e))
		}
	}
	queries := func(t *testing.T, sc lore.Scope, f lore.QueryLogFilter) []string {
		t.Helper()
		if f.Now.IsZero() {
			f.Now = at(10)
		}
		got, err := st.QueryLog(ctxFor(t), sc, f)
		must(t, "QueryLog", err)
		out := make([]string, len(got))
		for i, e := range got {
			out[i] = e.Query
		}
		return out
	}

	s.run("QueryLog/OrderPendingAndHash", func(t *testing.T) {
		sc := userScope()
		cleanupStore(t, st, sc)
		a, b, c := entry("vegan recipes with lentils", 3), entry("beginner climbing gyms", 1), entry("cheap flights to Lisbon", 2)
		appendAll(t, sc, a, b, c)
		sameList(t, "log", queries(t, sc, lore.QueryLogFilter{}), []string{"beginner climbing gyms", "cheap flights to Lisbon", "vegan recipes with lentils"})
		sameList(t, "limit 2", queries(t, sc, lore.QueryLogFilter{Limit: 2}), []string{"beginner climbing gyms", "cheap flights to Lisbon"})
		got, err := st.QueryLog(ctxFor(t), sc, lore.QueryLogFilter{Now: at(10)})
		must(t, "QueryLog", err)
		if len(got) == 3 {
			if got[0].Hash != lore.QueryEvidence("beginner climbing gyms") {
				t.Errorf("Hash=%q, want the query's QueryEvidence", got[0].Hash)
			}
			sameTime(t, "CreatedAt", got[0].CreatedAt, at(1))
			sameTime(t, "ExpiresAt", got[0].ExpiresAt, far)
			if got[0].InferredAt != nil {
				t.Errorf("InferredAt=%v before any mark, want nil", got[0].InferredAt)
			}
		}
		must(t, "MarkQueryLogInferred", st.MarkQueryLogInferred(ctxFor(t), sc, []string{a.ID, b.ID, "no-such-id"}, at(5)))
		sameList(t, "pending", queries(t, sc, lore.QueryLogFilter{Pending: true}), []string{"cheap flights to Lisbon"})
		got, err = st.QueryLog(ctxFor(t), sc, lore.QueryLogFilter{Now: at(10)})
		must(t, "QueryLog", err)
		if len(got) == 3 && (got[0].InferredAt == nil || !got[0].InferredAt.Equal(at(5))) {
			t.Errorf("InferredAt=%v, want %v", got[0].InferredAt, at(5))
		}
	})

	s.run("QueryLog/ExpiryAndPurge", func(t *testing.T) {
		sc := userScope()
		cleanupStore(t, st, sc)
		old := entry("old query", 1)
		old.ExpiresAt = at(4)
		recent := entry("recent query", 6)
		keep := entry("kept query", 8)
		appendAll(t, sc, old, recent, keep)
		// An expired entry is never read, swept or not.
		sameList(t, "at 5", queries(t, sc, lore.QueryLogFilter{Now: at(5)}), []string{"recent query", "kept query"})
		sameList(t, "at 3", queries(t, sc, lore.QueryLogFilter{Now: at(3)}), []string{"old query", "recent query", "kept query"})
		n, err := st.PurgeQueryLog(ctxFor(t), at(5), "", at(0))
		must(t, "PurgeQueryLog", err)
		if n < 1 {
			t.Errorf("PurgeQueryLog=%d, want at least the expired entry", n)
		}
		sameList(t, "after purge, at 3", queries(t, sc, lore.QueryLogFilter{Now: at(3)}), []string{"recent query", "kept query"})
		// A shortened policy: the tenant's entries created before a time go.
		other := lore.Scope{TenantID: newTenant(), UserID: "alice"}
		cleanupStore(t, st, other)
		appendAll(t, other, entry("other tenant's query", 6))
		_, err = st.PurgeQueryLog(ctxFor(t), at(5), sc.TenantID, at(7))
		must(t, "PurgeQueryLog(tenant)", err)
		sameList(t, "after tenant purge", queries(t, sc, lore.QueryLogFilter{}), []string{"kept query"})
		sameList(t, "other tenant", queries(t, other, lore.QueryLogFilter{}), []string{"other tenant's query"})
	})

	s.run("QueryLog/ScopesAndErase", func(t *testing.T) {
		sc := userScope()
		bob := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		cleanupStore(t, st, sc, bob)
		appendAll(t, sc, entry("alice asks", 1))
		appendAll(t, bob, entry("bob asks", 1))
		sameList(t, "alice", queries(t, sc, lore.QueryLogFilter{}), []string{"alice asks"})
		sameList(t, "bob", queries(t, bob, lore.QueryLogFilter{}), []string{"bob asks"})
		// An erase of one agent of the user leaves the log; the user's takes it.
		_, err := st.DeleteScope(ctxFor(t), lore.Scope{TenantID: sc.TenantID, UserID: sc.UserID, AgentID: "bot"})
		must(t, "DeleteScope(user+agent)", err)
		sameList(t, "alice after agent erase", queries(t, sc, lore.QueryLogFilter{}), []string{"alice asks"})
		_, err = st.DeleteScope(ctxFor(t), sc)
		must(t, "DeleteScope(user)", err)
		sameList(t, "alice after erase", queries(t, sc, lore.QueryLogFilter{}), []string{})
		sameList(t, "bob after alice's erase", queries(t, bob, lore.QueryLogFilter{}), []string{"bob asks"})
		_, err = st.DeleteScope(ctxFor(t), lore.Scope{TenantID: sc.TenantID})
		must(t, "DeleteScope(tenant)", err)
		sameList(t, "bob after tenant erase", queries(t, bob, lore.QueryLogFilter{}), []string{})
	})

	s.run("QueryLog/RejectsInvalid", func(t *testing.T) {
		sc := userScope()
		cleanupStore(t, st, sc)
		ctx := ctxFor(t)
		bad := entry("", 1)
		wantCode(t, "empty query", st.AppendQueryLog(ctx, sc, bad), lore.EINVALID)
		bad = entry("q", 2)
		bad.ExpiresAt = at(1)
		wantCode(t, "expires before created", st.AppendQueryLog(ctx, sc, bad), lore.EINVALID)
		wantCode(t, "no user", st.AppendQueryLog(ctx, lore.Scope{TenantID: sc.TenantID, AgentID: "bot"}, entry("q", 1)), lore.EINVALID)
		_, err := st.QueryLog(ctx, lore.Scope{TenantID: sc.TenantID, AgentID: "bot"}, lore.QueryLogFilter{})
		wantCode(t, "QueryLog(agent only)", err, lore.EINVALID)
		sameList(t, "log", queries(t, sc, lore.QueryLogFilter{}), []string{})
	})

	s.run("TenantProfiles/ByUser", func(t *testing.T) {
		alice := userScope()
		bob := lore.Scope{TenantID: alice.TenantID, UserID: "bob"}
		other := lore.Scope{TenantID: newTenant(), UserID: "carol"}
		cleanupStore(t, st, alice, bob, other)
		for _, w := range []struct {
			sc lore.Scope
			e  lore.ProfileEntry
		}{
			{alice, lore.ProfileEntry{Key: "occupation", Value: "nurse"}},
			{alice, lore.ProfileEntry{Key: "level_climbing", Value: "beginner", Source: lore.ProfileInferred, Confidence: 0.7}},
			{bob, lore.ProfileEntry{Key: "location", Value: "Lisbon"}},
			{other, lore.ProfileEntry{Key: "occupation", Value: "pilot"}},
		} {
			_, err := st.PutProfileEntry(ctxFor(t), w.sc, w.e)
			must(t, "PutProfileEntry", err)
		}
		got, err := st.TenantProfileEntries(ctxFor(t), alice.TenantID)
		must(t, "TenantProfileEntries", err)
		render := func(es []lore.ProfileEntry) []string {
			out := []string{}
			for _, e := range es {
				out = append(out, e.Key+"="+e.Value+"/"+string(e.Source))
			}
			return out
		}
		if len(got) != 2 {
			t.Errorf("users=%d, want 2 (alice, bob)", len(got))
		}
		sameList(t, "alice", render(got["alice"]), []string{"level_climbing=beginner/inferred", "occupation=nurse/explicit"})
		sameList(t, "bob", render(got["bob"]), []string{"location=Lisbon/explicit"})
	})
}
