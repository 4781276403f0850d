package retention

import (
	"context"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/ingest"
)

// TestSweeperWithInjectedClock: memories added with an expiry are read
// until it passes, never after (before any sweep), and the sweep run at a
// later injected time deletes them from the store and the index; a
// tenant's raw-text policy clears its conversation text after N days of
// the injected clock and keeps the facts; each pass is audited.
func TestSweeperWithInjectedClock(t *testing.T) {
	ctx := context.Background()
	st, idx := sqlitetest.Open(t)
	svc := &ingest.Service{Store: st, Index: idx, Extractor: rules.New(), Config: ingest.DefaultConfig()}
	alog := &audit.Log{Store: st, Key: []byte("retention test audit key, 32 bytes+")}
	now := time.Now().UTC()
	sw := &Sweeper{Store: st, Meta: st, Index: idx, Audit: alog, Now: func() time.Time { return now }}

	alice := lore.Scope{TenantID: "acme", UserID: "alice"}
	soon := now.Add(time.Hour)
	tmp, err := svc.Add(ctx, ingest.AddRequest{Scope: alice, Infer: true, Sync: true, ExpiresAt: &soon,
		Messages: []ingest.Message{{Role: "user", Content: "I live in Zanzibar."}}})
	if err != nil {
		t.Fatalf("Add(expiring): %v", err)
	}
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: alice, Infer: true, Sync: true,
		Messages: []ingest.Message{{Role: "user", Content: "My sister Emma works at Quasarcorp."}}}); err != nil {
		t.Fatalf("Add: %v", err)
	}
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: alice, Infer: false,
		Messages: []ingest.Message{{Role: "user", Content: "Note: allergic to walnuts."}}}); err != nil {
		t.Fatalf("Add(verbatim): %v", err)
	}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: alice})
	if err != nil {
		t.Fatal(err)
	}
	var zanzibar *lore.Fact
	for _, f := range facts {
		if f.Object == "Zanzibar" {
			zanzibar = f
		}
	}
	if zanzibar == nil {
		t.Fatalf("no fact drawn from the expiring message among %d facts", len(facts))
	}
	hits := func(q string) int {
		t.Helper()
		h, err := idx.SearchText(ctx, lore.IndexQuery{Scope: alice, Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return len(h)
	}
	if hits("Zanzibar") == 0 {
		t.Fatalf("the expiring memory is not indexed")
	}

	// The injected clock passes the expiry: the sweep deletes the message
	// and the fact drawn only from it, from the store and the index.
	now = soon.Add(time.Minute)
	rep, err := sw.Sweep(ctx)
	if err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	c := rep.Tenants["acme"]
	if c == nil || c.Episodes != 1 || c.Facts < 1 || c.RawText != 0 {
		t.Fatalf("Sweep=%+v, want 1 episode and its facts", c)
	}
	if n := hits("Zanzibar"); n != 0 {
		t.Errorf("index still finds the swept memory (%d hits)", n)
	}
	if got, _ := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: alice, IDs: tmp.EpisodeIDs}); len(got) != 0 {
		t.Errorf("the swept episode is still read")
	}
	if hits("Quasarcorp") == 0 {
		t.Errorf("a memory without an expiry was swept")
	}

	// Raw text: 30 days for acme. Nothing is that old yet.
	if err := SetPolicy(ctx, st, "acme", lore.RetentionPolicy{RawTextDays: 30}); err != nil {
		t.Fatal(err)
	}
	if err := SetPolicy(ctx, st, "acme", lore.RetentionPolicy{RawTextDays: -1}); lore.ErrorCode(err) != lore.EINVALID {
		t.Errorf("SetPolicy(-1): err=%v, want invalid", err)
	}
	if rep, err := sw.Sweep(ctx); err != nil || len(rep.Tenants) != 0 {
		t.Fatalf("Sweep before 30 days=%+v, %v; want nothing done", rep, err)
	}
	now = now.Add(31 * 24 * time.Hour)
	rep, err = sw.Sweep(ctx)
	if err != nil {
		t.Fatalf("Sweep after 31 days: %v", err)
	}
	if c := rep.Tenants["acme"]; c == nil || c.RawText != 1 {
		t.Fatalf("Sweep after 31 days=%+v, want the one conversation episode's text dropped", rep.Tenants["acme"])
	}
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: alice})
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range eps {
		if ep.Verbatim && ep.Content == "" {
			t.Errorf("the verbatim memory lost its text")
		}
		if !ep.Verbatim && ep.Content != "" {
			t.Errorf("conversation text %q kept past the policy", ep.Content)
		}
	}
	if facts, _ := st.FindFacts(ctx, lore.FactFilter{Scope: alice}); len(facts) == 0 {
		t.Errorf("the facts went with the raw text")
	}
	if hits("walnuts") == 0 {
		t.Errorf("the verbatim memory was unindexed")
	}

	recs, err := st.ListAudit(ctx, lore.AuditFilter{TenantID: "acme", Action: lore.AuditRetention})
	if err != nil || len(recs) != 2 || recs[0].Actor != "system" || recs[0].Detail["episodes"] != "1" || recs[1].Detail["raw_text"] != "1" {
		t.Errorf("retention audit records=%+v (%v), want the two passes that changed something", recs, err)
	}
	if v, err := alog.Verify(ctx); err != nil || !v.OK() {
		t.Errorf("Verify=%+v, %v", v, err)
	}
}

// TestSweeperPurgesQueryLog moves an injected clock: a logged query goes at
// its own expiry, a shortened policy takes the tenant's older ones, and a
// policy turned to 0 (with raw text still kept) takes all of them.
func TestSweeperPurgesQueryLog(t *testing.T) {
	ctx := context.Background()
	st, idx := sqlitetest.Open(t)
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	sw := &Sweeper{Store: st, Meta: st, Index: idx, QueryLog: st, Now: func() time.Time { return now }}
	sc := lore.Scope{TenantID: "acme", UserID: "alice"}
	log := func(id string, created time.Time, days int) {
		t.Helper()
		if err := st.AppendQueryLog(ctx, sc, lore.QueryLogEntry{ID: id, Query: "query " + id, CreatedAt: created, ExpiresAt: created.Add(time.Duration(days) * 24 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	left := func() int {
		t.Helper()
		l, err := st.QueryLog(ctx, sc, lore.QueryLogFilter{Now: now.Add(-1000 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return len(l)
	}
	if err := SetPolicy(ctx, st, "acme", lore.RetentionPolicy{RawTextDays: 90, QueryLogDays: 30}); err != nil {
		t.Fatal(err)
	}
	log("a", now.Add(-40*24*time.Hour), 30) // expired 10 days ago
	log("b", now.Add(-20*24*time.Hour), 30)
	log("c", now.Add(-2*24*time.Hour), 30)
	rep, err := sw.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.QueryLogExpired != 1 || left() != 2 {
		t.Fatalf("first pass: %d expired, %d left; want 1 and 2", rep.QueryLogExpired, left())
	}
	// Shortened to 7 days: b (20 days old) goes, c stays.
	if err := SetPolicy(ctx, st, "acme", lore.RetentionPolicy{RawTextDays: 90, QueryLogDays: 7}); err != nil {
		t.Fatal(err)
	}
	if rep, err = sw.Sweep(ctx); err != nil || rep.Tenants["acme"] == nil || rep.Tenants["acme"].QueryLog != 1 || left() != 1 {
		t.Fatalf("after shortening: %+v, %v, %d left; want 1 purged, 1 left", rep, err, left())
	}
	// Turned off: nothing kept.
	if err := SetPolicy(ctx, st, "acme", lore.RetentionPolicy{RawTextDays: 90}); err != nil {
		t.Fatal(err)
	}
	if _, err := sw.Sweep(ctx); err != nil || left() != 0 {
		t.Fatalf("after turning the log off: %v, %d left; want none", err, left())
	}
	if err := SetPolicy(ctx, st, "acme", lore.RetentionPolicy{QueryLogDays: 400}); lore.ErrorCode(err) != lore.EINVALID {
		t.Errorf("SetPolicy(400 days)=%v, want EINVALID", err)
	}
}
