package storetest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// FeedbackBackend is a primary store that keeps the ranking signals.
type FeedbackBackend interface {
	lore.Store
	lore.FeedbackStore
	lore.VerdictLister
}

// RunFeedback runs the conformance suite for lore.FeedbackStore against one
// backend: verdicts and the relevance they give, reset, usage counts, the
// success table and its backfill, and erase.
func RunFeedback(t *testing.T, backend string, open func(testing.TB) FeedbackBackend) {
	t.Helper()
	st := open(t)
	s := suite{t: t, backend: backend}
	rule := lore.DefaultFeedbackRule()
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

	verdict := func(t *testing.T, sc lore.Scope, mem string, helpful bool, hash string) (lore.Verdict, lore.MemorySignal) {
		t.Helper()
		v := lore.Verdict{Scope: sc, MemoryID: mem, Helpful: helpful, QueryHash: hash}
		m, err := st.RecordVerdict(ctxFor(t), &v, rule)
		must(t, "RecordVerdict", err)
		if v.ID == "" || v.CreatedAt.IsZero() {
			t.Fatalf("RecordVerdict left ID=%q CreatedAt=%v, want both set", v.ID, v.CreatedAt)
		}
		return v, m
	}

	s.run("Feedback/RelevanceStepsAndCaps", func(t *testing.T) {
		sc := userScope()
		cleanupStore(t, st, sc)
		wantAdj := []float64{0.15, 0.30, 0.45, 0.60, 0.60}
		for i, want := range wantAdj {
			v, m := verdict(t, sc, "m1", true, "")
			if !near(m.Adjustment, want) || !near(m.Relevance(), 1+want) {
				t.Fatalf("helpful #%d: adjustment=%v, want %v", i+1, m.Adjustment, want)
			}
			wantDelta := 0.15
			if i == 4 {
				wantDelta = 0
			}
			if !near(v.Delta, wantDelta) {
				t.Fatalf("helpful #%d: delta=%v, want %v (cap +0.60)", i+1, v.Delta, wantDelta)
			}
		}
		v, m := verdict(t, sc, "m1", false, "")
		if !near(v.Delta, -0.10) || !near(m.Adjustment, 0.50) || m.Helpful != 5 || m.Unhelpful != 1 || m.Cited != 5 {
			t.Fatalf("after unhelpful: delta=%v signal=%+v, want -0.10, adjustment 0.50, 5 helpful, 1 unhelpful, 5 cited", v.Delta, m)
		}
		for range 12 {
			verdict(t, sc, "m2", false, "")
		}
		got, err := st.MemorySignals(ctxFor(t), sc, []string{"m1", "m2", "m3"}, "")
		must(t, "MemorySignals", err)
		if !near(got["m2"].Adjustment, rule.MaxPenalty) || !near(got["m1"].Adjustment, 0.5) {
			t.Fatalf("signals=%+v, want m1 0.5 and m2 at the floor %v", got, rule.MaxPenalty)
		}
		if _, ok := got["m3"]; ok {
			t.Fatalf("signals hold m3, which has none")
		}
		vs, err := st.Verdicts(ctxFor(t), sc)
		must(t, "Verdicts", err)
		if len(vs) != 18 || vs[0].MemoryID != "m1" || !vs[0].Helpful || vs[17].MemoryID != "m2" || vs[17].Helpful {
			t.Fatalf("Verdicts: %d, want 18 oldest first", len(vs))
		}
		for i := 1; i < len(vs); i++ {
			if vs[i].CreatedAt.Before(vs[i-1].CreatedAt) {
				t.Fatalf("Verdicts not oldest first at %d", i)
			}
		}
	})

	s.run("Feedback/ScopedPerUser", func(t *testing.T) {
		sc := userScope()
		bob := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		other := lore.Scope{TenantID: newTenant(), UserID: sc.UserID}
		cleanupStore(t, st, sc, bob, other)
		verdict(t, sc, "m1", true, lore.QueryHash("where is it"))
		for _, o := range []lore.Scope{bob, other} {
			got, err := st.MemorySignals(ctxFor(t), o, []string{"m1"}, lore.QueryHash("where is it"))
			must(t, "MemorySignals", err)
			if len(got) != 0 {
				t.Fatalf("%+v sees %+v, want nothing", o, got)
			}
			vs, err := st.Verdicts(ctxFor(t), o)
			must(t, "Verdicts", err)
			if len(vs) != 0 {
				t.Fatalf("%+v sees %d verdicts, want 0", o, len(vs))
			}
		}
		_, err := st.RecordVerdict(ctxFor(t), &lore.Verdict{Scope: lore.Scope{TenantID: sc.TenantID}, MemoryID: "m1", Helpful: true}, rule)
		wantCode(t, "RecordVerdict(no user)", err, lore.EINVALID)
		_, err = st.RecordVerdict(ctxFor(t), &lore.Verdict{Scope: sc, Helpful: true}, rule)
		wantCode(t, "RecordVerdict(no memory)", err, lore.EINVALID)
	})

	// Alone: BackfillSuccess rebuilds every tenant's table, and verdicts
	// the parallel subtests write meanwhile (read committed on Neo4j) would
	// count as changes.
	s.alone("Feedback/UsageAndSuccess", func(t *testing.T) {
		sc := userScope()
		cleanupStore(t, st, sc)
		ctx := ctxFor(t)
		t1 := baseTime.Add(time.Hour)
		t2 := baseTime.Add(2 * time.Hour)
		must(t, "RecordUsage", st.RecordUsage(ctx, []lore.UsageRecord{
			{Scope: sc, MemoryID: "m1", Returned: 2, LastUsed: t2},
			{Scope: sc, MemoryID: "m2", Returned: 1, Cited: 1, LastUsed: t1},
		}))
		must(t, "RecordUsage", st.RecordUsage(ctx, []lore.UsageRecord{{Scope: sc, MemoryID: "m1", Returned: 1, Cited: 1, LastUsed: t1}}))
		got, err := st.MemorySignals(ctx, sc, []string{"m1", "m2"}, "")
		must(t, "MemorySignals", err)
		if m := got["m1"]; m.Returned != 3 || m.Cited != 1 {
			t.Fatalf("m1=%+v, want returned 3 cited 1", m)
		}
		sameTime(t, "m1 LastUsed (the later)", got["m1"].LastUsed, t2)
		us, err := st.Usage(ctx, sc)
		must(t, "Usage", err)
		if len(us) != 2 || us[0].MemoryID != "m1" || us[1].Cited != 1 {
			t.Fatalf("Usage=%+v, want m1 and m2", us)
		}
		wantCode(t, "RecordUsage(negative)", st.RecordUsage(ctx, []lore.UsageRecord{{Scope: sc, MemoryID: "m1", Returned: -1}}), lore.EINVALID)

		h := lore.QueryHash("Where does Emma live?")
		if h != lore.QueryHash("where does emma live") {
			t.Fatalf("QueryHash differs for the same normalised query")
		}
		verdict(t, sc, "m1", true, h)
		verdict(t, sc, "m1", true, h)
		verdict(t, sc, "m1", false, h)
		verdict(t, sc, "m2", true, lore.QueryHash("another question"))
		got, err = st.MemorySignals(ctx, sc, []string{"m1", "m2"}, h)
		must(t, "MemorySignals", err)
		if m := got["m1"]; m.SuccessHelpful != 2 || m.SuccessUnhelpful != 1 {
			t.Fatalf("m1 success=%d/%d, want 2/1", m.SuccessHelpful, m.SuccessUnhelpful)
		}
		if m := got["m2"]; m.SuccessHelpful != 0 || m.SuccessUnhelpful != 0 {
			t.Fatalf("m2 success for another query=%d/%d, want 0/0", m.SuccessHelpful, m.SuccessUnhelpful)
		}
		// Only the memories asked for come back, even when another has a
		// record for the same query.
		verdict(t, sc, "m3", true, h)
		got, err = st.MemorySignals(ctx, sc, []string{"m1"}, h)
		must(t, "MemorySignals(m1)", err)
		if _, ok := got["m3"]; ok || len(got) != 1 {
			t.Fatalf("MemorySignals([m1])=%+v, want m1 only", got)
		}
		rows, err := st.Successes(ctx, sc)
		must(t, "Successes", err)
		if len(rows) != 3 {
			t.Fatalf("Successes=%+v, want 3 rows", rows)
		}
		// The table is kept in step with the verdicts, so a rebuild
		// changes nothing, and a second one neither.
		for i := range 2 {
			n, err := st.BackfillSuccess(ctx)
			must(t, "BackfillSuccess", err)
			if n != 0 {
				t.Fatalf("BackfillSuccess run %d changed %d rows, want 0", i+1, n)
			}
		}
	})

	s.run("Feedback/ResetKeepsUsageAndOthers", func(t *testing.T) {
		sc := userScope()
		bob := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		cleanupStore(t, st, sc, bob)
		ctx := ctxFor(t)
		h := lore.QueryHash("q")
		verdict(t, sc, "m1", true, h)
		verdict(t, sc, "m2", false, h)
		verdict(t, bob, "m1", true, h)
		must(t, "RecordUsage", st.RecordUsage(ctx, []lore.UsageRecord{{Scope: sc, MemoryID: "m1", Returned: 4}}))
		n, err := st.ResetFeedback(ctx, sc, false)
		must(t, "ResetFeedback", err)
		if n != 2 {
			t.Fatalf("ResetFeedback removed %d verdicts, want 2", n)
		}
		got, err := st.MemorySignals(ctx, sc, []string{"m1", "m2"}, h)
		must(t, "MemorySignals", err)
		if m := got["m1"]; m.Adjustment != 0 || m.Helpful != 0 || m.SuccessHelpful != 0 || m.Returned != 4 {
			t.Fatalf("m1 after reset=%+v, want no feedback and returned 4", m)
		}
		if m, ok := got["m2"]; ok && (m.Adjustment != 0 || m.Unhelpful != 0) {
			t.Fatalf("m2 after reset=%+v, want no feedback", m)
		}
		vs, err := st.Verdicts(ctx, sc)
		must(t, "Verdicts", err)
		rows, err := st.Successes(ctx, sc)
		must(t, "Successes", err)
		if len(vs) != 0 || len(rows) != 0 {
			t.Fatalf("after reset: %d verdicts, %d success rows, want 0 and 0", len(vs), len(rows))
		}
		// With usage, the usage counts go too.
		if _, err := st.ResetFeedback(ctx, sc, true); err != nil {
			t.Fatal(err)
		}
		if us, err := st.Usage(ctx, sc); err != nil || len(us) != 0 {
			t.Fatalf("after reset with usage: %+v, %v; want no usage", us, err)
		}
		bobs, err := st.MemorySignals(ctx, bob, []string{"m1"}, h)
		must(t, "MemorySignals", err)
		if m := bobs["m1"]; !near(m.Adjustment, 0.15) || m.SuccessHelpful != 1 {
			t.Fatalf("bob's m1 after alice's reset=%+v, want untouched", m)
		}
	})

	s.run("Feedback/EraseRemovesEverything", func(t *testing.T) {
		sc := userScope()
		bob := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		cleanupStore(t, st, bob)
		ctx := ctxFor(t)
		h := lore.QueryHash("q")
		verdict(t, sc, "m1", true, h)
		verdict(t, bob, "m1", true, h)
		must(t, "RecordUsage", st.RecordUsage(ctx, []lore.UsageRecord{{Scope: sc, MemoryID: "m1", Returned: 1}}))
		_, err := st.DeleteScope(ctx, sc)
		must(t, "DeleteScope", err)
		vs, err := st.Verdicts(ctx, sc)
		must(t, "Verdicts", err)
		us, err := st.Usage(ctx, sc)
		must(t, "Usage", err)
		rows, err := st.Successes(ctx, sc)
		must(t, "Successes", err)
		sig, err := st.MemorySignals(ctx, sc, []string{"m1"}, h)
		must(t, "MemorySignals", err)
		if len(vs)+len(us)+len(rows)+len(sig) != 0 {
			t.Fatalf("after erase: verdicts %d, usage %d, success %d, signals %d, want none", len(vs), len(us), len(rows), len(sig))
		}
		bobs, err := st.Verdicts(ctx, bob)
		must(t, "Verdicts", err)
		if len(bobs) != 1 {
			t.Fatalf("bob's verdicts after alice's erase=%d, want 1", len(bobs))
		}
	})

	s.run("Feedback/ListNewestFirstPaged", func(t *testing.T) {
		sc := userScope()
		withAgent := lore.Scope{TenantID: sc.TenantID, UserID: sc.UserID, AgentID: "helper"}
		bob := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		cleanupStore(t, st, sc, bob)
		ctx := ctxFor(t)
		var want []lore.Verdict
		for i := range 5 {
			ns := sc
			if i == 2 {
				ns = withAgent // the user's scope contains her agents' namespaces
			}
			v, _ := verdict(t, ns, fmt.Sprintf("m%d", i), i%2 == 0, lore.QueryHash("q"))
			want = append(want, v)
		}
		verdict(t, bob, "m0", true, "")
		// Newest first; verdicts in the same microsecond by id, descending.
		slices.SortFunc(want, func(a, b lore.Verdict) int {
			if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
				return c
			}
			return strings.Compare(b.ID, a.ID)
		})
		var got []lore.Verdict
		cursor := ""
		for page := 0; ; page++ {
			vs, err := st.ListVerdicts(ctx, sc, lore.VerdictPage{Limit: 2, Before: cursor})
			must(t, "ListVerdicts", err)
			if len(vs) > 2 || page > 4 {
				t.Fatalf("page %d: %d verdicts, want at most 2 and 3 pages", page, len(vs))
			}
			if len(vs) == 0 {
				break
			}
			got = append(got, vs...)
			cursor = lore.VerdictCursor(vs[len(vs)-1])
		}
		if len(got) != len(want) {
			t.Fatalf("listed %d verdicts, want %d (bob's left out)", len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.ID != w.ID || g.MemoryID != w.MemoryID || g.Helpful != w.Helpful || g.QueryHash != w.QueryHash ||
				g.Scope != w.Scope || !g.CreatedAt.Equal(w.CreatedAt) || !near(g.Delta, w.Delta) {
				t.Fatalf("verdict %d = %+v, want %+v", i, g, w)
			}
		}
		if _, err := st.ListVerdicts(ctx, sc, lore.VerdictPage{Limit: 2, Before: "yesterday"}); lore.ErrorCode(err) != lore.EINVALID {
			t.Fatalf("ListVerdicts with a bad cursor: err=%v, want EINVALID", err)
		}
	})

	s.run("Feedback/DeleteMemoryRemovesSignals", func(t *testing.T) {
		sc := userScope()
		withAgent := lore.Scope{TenantID: sc.TenantID, UserID: sc.UserID, AgentID: "helper"}
		cleanupStore(t, st, sc)
		ctx := ctxFor(t)
		ep := addEpisode(t, st, sc, "I moved to Lisbon", 1)
		alice := mergeEntity(t, st, sc, "Alice", 1)
		f := mergeFact(t, st, sc, alice, "lives_in", nil, "Lisbon", 1, ep.ID)
		h := lore.QueryHash("where does alice live")
		for _, ns := range []lore.Scope{sc, withAgent} {
			for _, id := range []string{f.ID, ep.ID} {
				verdict(t, ns, id, true, h)
				verdict(t, ns, id, false, h)
				must(t, "RecordUsage", st.RecordUsage(ctx, []lore.UsageRecord{{Scope: ns, MemoryID: id, Returned: 2}}))
			}
		}
		left := func(id string) (n int) {
			t.Helper()
			vs, err := st.Verdicts(ctx, sc)
			must(t, "Verdicts", err)
			us, err := st.Usage(ctx, sc)
			must(t, "Usage", err)
			rows, err := st.Successes(ctx, sc)
			must(t, "Successes", err)
			for _, v := range vs {
				if v.MemoryID == id {
					n++
				}
			}
			for _, u := range us {
				if u.MemoryID == id {
					n++
				}
			}
			for _, r := range rows {
				if r.MemoryID == id {
					n++
				}
			}
			for _, ns := range []lore.Scope{sc, withAgent} {
				sig, err := st.MemorySignals(ctx, ns, []string{id}, h)
				must(t, "MemorySignals", err)
				n += len(sig)
			}
			return n
		}
		// 4 verdicts, 2 usage rows, 2 success rows and 2 signals each.
		if a, b := left(f.ID), left(ep.ID); a != 10 || b != 10 {
			t.Fatalf("before deleting: %d and %d signal rows, want 10 each", a, b)
		}
		must(t, "DeleteFact", st.DeleteFact(ctx, sc, f.ID, "test"))
		if n := left(f.ID); n != 0 {
			t.Fatalf("after DeleteFact: %d signal rows of the fact left, want 0", n)
		}
		if n := left(ep.ID); n != 10 {
			t.Fatalf("after DeleteFact: the episode's signal rows=%d, want 10 untouched", n)
		}
		must(t, "DeleteEpisode", st.DeleteEpisode(ctx, sc, ep.ID, "test"))
		if n := left(ep.ID); n != 0 {
			t.Fatalf("after DeleteEpisode: %d signal rows of the episode left, want 0", n)
		}
	})

	s.run("Feedback/FeatureVerdicts", func(t *testing.T) {
		sc := userScope()
		bob := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		cleanupStore(t, st, sc, bob)
		ep := addEpisode(t, st, sc, "I moved to Lisbon.", 1)
		bobEp := addEpisode(t, st, bob, "Hello there.", 1)
		fact := mergeFact(t, st, sc, mergeEntity(t, st, sc, "Ana", 1), "lives_in", nil, "Lisbon", 1, ep.ID)
		verdict(t, sc, fact.ID, true, "")
		verdict(t, sc, fact.ID, true, "")
		verdict(t, sc, ep.ID, false, "")
		verdict(t, sc, "deleted-since", true, "")
		verdict(t, bob, bobEp.ID, true, "")
		got, err := st.FeatureVerdicts(ctxFor(t), sc.TenantID)
		must(t, "FeatureVerdicts", err)
		want := []lore.FeatureVerdict{
			{UserID: "alice", Feature: "episode:user", Unhelpful: 1},
			{UserID: "alice", Feature: "fact:lives_in", Helpful: 2},
			{UserID: "bob", Feature: "episode:user", Helpful: 1},
		}
		if len(got) != len(want) {
			t.Fatalf("FeatureVerdicts=%+v, want %+v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("FeatureVerdicts[%d]=%+v, want %+v", i, got[i], want[i])
			}
		}
		other, err := st.FeatureVerdicts(ctxFor(t), newTenant())
		must(t, "FeatureVerdicts(other tenant)", err)
		if len(other) != 0 {
			t.Fatalf("another tenant sees %+v", other)
		}
	})
}
