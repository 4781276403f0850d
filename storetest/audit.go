package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// auditKey signs the records the suite appends.
var auditKey = []byte("storetest audit key: 32 bytes or more")

// RunAudit runs the conformance suite for lore.AuditStore against one
// backend, whose store must also be a lore.Store (an erase removes
// pseudonym mappings). The log is one chain for the whole store, shared by
// every tenant and by whatever else writes to the server, so the suite
// checks the chain around its own records rather than the whole log.
func RunAudit(t *testing.T, backend string, open func(testing.TB) lore.Store) {
	t.Helper()
	st := open(t)
	as, ok := st.(lore.AuditStore)
	if !ok {
		t.Fatalf("%s: the store is not a lore.AuditStore", backend)
	}
	s := suite{t: t, backend: backend}

	appendRec := func(t *testing.T, rec *lore.AuditRecord) *lore.AuditRecord {
		t.Helper()
		if rec.Time.IsZero() {
			rec.Time = time.Now()
		}
		must(t, "AppendAudit", as.AppendAudit(ctxFor(t), rec, func(prev *lore.AuditRecord) { lore.SealAudit(auditKey, prev, rec) }))
		return rec
	}
	// chained fails unless every record's predecessor in the store is the
	// one its PrevHash names, and its hash matches its content.
	chained := func(t *testing.T, recs []*lore.AuditRecord) {
		t.Helper()
		for _, r := range recs {
			if r.Hash != r.Digest() {
				t.Errorf("record %d: hash does not match its content as stored", r.Seq)
			}
			if r.Seq == 1 {
				if r.PrevHash != lore.AuditGenesis {
					t.Errorf("record 1: prev_hash=%s, want the genesis hash", r.PrevHash)
				}
				continue
			}
			prev, err := as.ListAudit(ctxFor(t), lore.AuditFilter{AfterSeq: r.Seq - 2, Limit: 1})
			must(t, "ListAudit(predecessor)", err)
			if len(prev) != 1 || prev[0].Seq != r.Seq-1 || prev[0].Hash != r.PrevHash {
				t.Errorf("record %d: its predecessor is %+v, want seq %d with hash %s", r.Seq, prev, r.Seq-1, r.PrevHash)
			}
		}
	}

	s.run("Audit/AppendAndList", func(t *testing.T) {
		ctx := ctxFor(t)
		tenant := newTenant()
		at := baseTime.Add(123456 * time.Microsecond)
		want := []*lore.AuditRecord{
			appendRec(t, &lore.AuditRecord{Time: at, TenantID: tenant, Action: lore.AuditKeyCreate, Actor: "cli", Target: "k1", Outcome: lore.AuditOK}),
			appendRec(t, &lore.AuditRecord{Time: at, TenantID: tenant, Action: lore.AuditErase, Actor: "k1",
				Subject: lore.AuditPseudonym(auditKey, tenant, "user", "alice"), Outcome: lore.AuditOK,
				Detail: map[string]string{"facts": "3", "episodes": "2"}}),
			appendRec(t, &lore.AuditRecord{Time: at, TenantID: tenant, Action: lore.AuditAuthFailure, Outcome: lore.AuditRefused}),
		}
		got, err := as.ListAudit(ctx, lore.AuditFilter{TenantID: tenant})
		must(t, "ListAudit", err)
		if len(got) != len(want) {
			t.Fatalf("ListAudit=%d records, want %d", len(got), len(want))
		}
		for i, g := range got {
			w := want[i]
			if g.Seq != w.Seq || g.Action != w.Action || g.Actor != w.Actor || g.Subject != w.Subject || g.Target != w.Target ||
				g.Outcome != w.Outcome || g.Hash != w.Hash || g.Sig != w.Sig || g.PrevHash != w.PrevHash || len(g.Detail) != len(w.Detail) {
				t.Errorf("record %d=%+v, want %+v", i, g, w)
			}
			sameTime(t, "Time", g.Time, w.Time)
			if i > 0 && g.Seq <= got[i-1].Seq {
				t.Errorf("records out of seq order: %d after %d", g.Seq, got[i-1].Seq)
			}
		}
		if got[1].Detail["facts"] != "3" {
			t.Errorf("Detail=%v, want facts=3", got[1].Detail)
		}
		chained(t, got)
		only, err := as.ListAudit(ctx, lore.AuditFilter{TenantID: tenant, Action: lore.AuditErase})
		must(t, "ListAudit(action)", err)
		if len(only) != 1 || only[0].Seq != want[1].Seq {
			t.Errorf("ListAudit(action erase)=%+v, want record %d", only, want[1].Seq)
		}
		page, err := as.ListAudit(ctx, lore.AuditFilter{TenantID: tenant, AfterSeq: want[0].Seq, Limit: 1})
		must(t, "ListAudit(page)", err)
		if len(page) != 1 || page[0].Seq != want[1].Seq {
			t.Errorf("ListAudit(after %d, limit 1)=%+v, want record %d", want[0].Seq, page, want[1].Seq)
		}
	})

	s.run("Audit/ConcurrentAppendsStayChained", func(t *testing.T) {
		tenant := newTenant()
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec := &lore.AuditRecord{Time: time.Now(), TenantID: tenant, Action: lore.AuditExport, Outcome: lore.AuditOK}
				errs <- as.AppendAudit(context.Background(), rec, func(prev *lore.AuditRecord) { lore.SealAudit(auditKey, prev, rec) })
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			must(t, "AppendAudit", err)
		}
		got, err := as.ListAudit(ctxFor(t), lore.AuditFilter{TenantID: tenant})
		must(t, "ListAudit", err)
		if len(got) != 16 {
			t.Fatalf("ListAudit=%d records, want 16", len(got))
		}
		chained(t, got)
	})

	s.run("Audit/PseudonymMappingGoesWithTheErase", func(t *testing.T) {
		ctx := ctxFor(t)
		tenant := newTenant()
		alice := lore.AuditPseudonym(auditKey, tenant, "user", "alice")
		bot := lore.AuditPseudonym(auditKey, tenant, "agent", "bot")
		appendRec(t, &lore.AuditRecord{TenantID: tenant, Action: lore.AuditExport, Subject: alice, Outcome: lore.AuditOK,
			SubjectRef: &lore.AuditSubject{UserID: "alice"}})
		appendRec(t, &lore.AuditRecord{TenantID: tenant, Action: lore.AuditExport, Subject: bot, Outcome: lore.AuditOK,
			SubjectRef: &lore.AuditSubject{AgentID: "bot"}})
		got, err := as.AuditSubject(ctx, tenant, alice)
		must(t, "AuditSubject(alice)", err)
		if got.UserID != "alice" || got.AgentID != "" {
			t.Errorf("AuditSubject(alice)=%+v, want user alice", got)
		}
		_, err = as.AuditSubject(ctx, newTenant(), alice)
		wantCode(t, "AuditSubject(other tenant)", err, lore.ENOTFOUND)

		// Erasing a user's memories with one agent is not erasing the user.
		_, err = st.DeleteScope(ctx, lore.Scope{TenantID: tenant, UserID: "alice", AgentID: "bot"})
		must(t, "DeleteScope(alice, bot)", err)
		_, err = as.AuditSubject(ctx, tenant, alice)
		must(t, "AuditSubject(alice) after erasing alice's memories with bot", err)

		_, err = st.DeleteScope(ctx, lore.Scope{TenantID: tenant, UserID: "alice"})
		must(t, "DeleteScope(alice)", err)
		_, err = as.AuditSubject(ctx, tenant, alice)
		wantCode(t, "AuditSubject(alice) after the erase", err, lore.ENOTFOUND)
		_, err = as.AuditSubject(ctx, tenant, bot)
		must(t, "AuditSubject(bot) after alice's erase", err)
		_, err = st.DeleteScope(ctx, lore.Scope{TenantID: tenant, AgentID: "bot"})
		must(t, "DeleteScope(bot)", err)
		_, err = as.AuditSubject(ctx, tenant, bot)
		wantCode(t, "AuditSubject(bot) after the erase", err, lore.ENOTFOUND)

		recs, err := as.ListAudit(ctx, lore.AuditFilter{TenantID: tenant})
		must(t, "ListAudit", err)
		if len(recs) != 2 || recs[0].Subject != alice {
			t.Errorf("records after the erases=%+v, want both, alice's pseudonym kept", recs)
		}
	})

	s.run("Audit/PutAuditSubject", func(t *testing.T) {
		w, ok := st.(lore.AuditSubjectWriter)
		if !ok {
			t.Fatalf("%T does not keep audit subjects apart from records (lore.AuditSubjectWriter)", st)
		}
		ctx := ctxFor(t)
		tenant := newTenant()
		alice := lore.AuditPseudonym(auditKey, tenant, "user", "alice")
		must(t, "PutAuditSubject", w.PutAuditSubject(ctx, tenant, alice, lore.AuditSubject{UserID: "alice"}))
		// A kept mapping stays as it is.
		must(t, "PutAuditSubject again", w.PutAuditSubject(ctx, tenant, alice, lore.AuditSubject{UserID: "mallory"}))
		got, err := as.AuditSubject(ctx, tenant, alice)
		must(t, "AuditSubject(alice)", err)
		if got.UserID != "alice" || got.AgentID != "" {
			t.Errorf("AuditSubject(alice)=%+v, want user alice", got)
		}
		for _, bad := range []struct {
			pseudonym string
			sub       lore.AuditSubject
		}{
			{"alice", lore.AuditSubject{UserID: "alice"}},
			{alice, lore.AuditSubject{}},
			{alice, lore.AuditSubject{UserID: "alice", AgentID: "bot"}},
		} {
			wantCode(t, "PutAuditSubject(bad)", w.PutAuditSubject(ctx, tenant, bad.pseudonym, bad.sub), lore.EINVALID)
		}
		if recs, err := as.ListAudit(ctx, lore.AuditFilter{TenantID: tenant}); err != nil || len(recs) != 0 {
			t.Errorf("ListAudit=%d, %v; want no record from a mapping alone", len(recs), err)
		}
		_, err = st.DeleteScope(ctx, lore.Scope{TenantID: tenant, UserID: "alice"})
		must(t, "DeleteScope(alice)", err)
		_, err = as.AuditSubject(ctx, tenant, alice)
		wantCode(t, "AuditSubject(alice) after the erase", err, lore.ENOTFOUND)
	})

	s.run("Audit/TenantEraseDropsMappings", func(t *testing.T) {
		ctx := ctxFor(t)
		tenant := newTenant()
		p := lore.AuditPseudonym(auditKey, tenant, "user", "u")
		appendRec(t, &lore.AuditRecord{TenantID: tenant, Action: lore.AuditExport, Subject: p, Outcome: lore.AuditOK,
			SubjectRef: &lore.AuditSubject{UserID: "u"}})
		_, err := st.DeleteScope(ctx, lore.Scope{TenantID: tenant})
		must(t, "DeleteScope(tenant)", err)
		_, err = as.AuditSubject(ctx, tenant, p)
		wantCode(t, "AuditSubject after the tenant's erase", err, lore.ENOTFOUND)
		recs, err := as.ListAudit(ctx, lore.AuditFilter{TenantID: tenant})
		must(t, "ListAudit", err)
		if len(recs) != 1 {
			t.Errorf("records after the tenant's erase=%d, want 1", len(recs))
		}
	})
}
