package export_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/export"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
)

// TestExportImportAuditPseudonym: an export names the pseudonym the audit
// log names the user by; erasing the user removes the mapping (the records
// keep the pseudonym), and importing the export back restores it, so the
// records name the user again. Moved to another user, the mapping is left
// behind: the pseudonym would name nobody there.
func TestExportImportAuditPseudonym(t *testing.T) {
	ctx := context.Background()
	st, _ := sqlitetest.Open(t)
	sc := lore.Scope{TenantID: "acme", UserID: "alice"}
	key := []byte("export test audit key, 32 bytes or more")
	p := lore.AuditPseudonym(key, sc.TenantID, "user", sc.UserID)
	if err := st.AddEpisodes(ctx, []*lore.Episode{{Scope: sc, Role: "user", Content: "I live in Lisbon.", OccurredAt: now}}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutAuditSubject(ctx, sc.TenantID, p, lore.AuditSubject{UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := export.Write(ctx, &buf, st, sc, now, export.WithAuditPseudonym(p))
	if err != nil || n.AuditSubjects != 1 {
		t.Fatalf("Write=%+v, %v; want one audit pseudonym", n, err)
	}
	if !strings.Contains(buf.String(), `{"type":"audit_subject","audit_subject":{"pseudonym":"`+p+`","user_id":"alice"}}`) {
		t.Fatalf("the export does not name the pseudonym:\n%s", buf.String())
	}
	d, err := export.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.DeleteScope(ctx, sc); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AuditSubject(ctx, sc.TenantID, p); lore.ErrorCode(err) != lore.ENOTFOUND {
		t.Fatalf("AuditSubject after the erase: %v, want not found", err)
	}
	// Moved to bob (in another store): no mapping.
	other, _ := sqlitetest.Open(t)
	toBob := func(s lore.Scope) lore.Scope { s.UserID = "bob"; return s }
	if got, err := export.Import(ctx, other, d, toBob, now); err != nil || got.AuditSubjects != 0 {
		t.Fatalf("Import to bob=%+v, %v; want no audit pseudonym", got, err)
	}
	if _, err := other.AuditSubject(ctx, sc.TenantID, p); lore.ErrorCode(err) != lore.ENOTFOUND {
		t.Errorf("AuditSubject after an import to bob: %v, want not found", err)
	}
	if got, err := export.Import(ctx, st, d, nil, now); err != nil || got.AuditSubjects != 1 {
		t.Fatalf("Import=%+v, %v; want the audit pseudonym", got, err)
	}
	if sub, err := st.AuditSubject(ctx, sc.TenantID, p); err != nil || sub.UserID != "alice" {
		t.Errorf("AuditSubject after the import=%+v, %v; want alice", sub, err)
	}
	// A file whose pseudonym claims someone else is refused.
	bad := strings.Replace(buf.String(), `"user_id":"alice"}}`, `"user_id":"mallory"}}`, 1)
	if _, err := export.Read(strings.NewReader(bad)); lore.ErrorCode(err) != lore.EINVALID {
		t.Errorf("Read of a pseudonym for mallory in alice's export: %v, want invalid", err)
	}
}
