package export

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lore-memory/lore"
)

// TypeAuditSubject is the record naming the pseudonym under which the
// audit log names the user (or agent) exported.
const TypeAuditSubject = "audit_subject"

// AuditSubject is the pseudonym the audit log names an exported user or
// agent by, with whom it stands for.
type AuditSubject struct {
	Pseudonym string `json:"pseudonym"`
	lore.AuditSubject
}

// Option changes what Write writes.
type Option func(*options)

type options struct {
	pseudonym string
}

// WithAuditPseudonym adds the pseudonym the audit log names the exported
// scope's user (or agent) by, as the server's audit key gives it
// (audit.Log.Pseudonym): the records about them carry it, never their id.
func WithAuditPseudonym(pseudonym string) Option {
	return func(o *options) { o.pseudonym = pseudonym }
}

// writeAuditSubject writes the scope's audit pseudonym, when one was
// given, with whom it stands for.
func writeAuditSubject(enc *json.Encoder, o options, scope lore.Scope, n *Counts) error {
	if o.pseudonym == "" {
		return nil
	}
	rec := &AuditSubject{Pseudonym: o.pseudonym, AuditSubject: lore.AuditSubject{UserID: scope.UserID}}
	if scope.UserID == "" {
		rec.AgentID = scope.AgentID
	}
	if err := enc.Encode(Record{Type: TypeAuditSubject, AuditSubject: rec}); err != nil {
		return fmt.Errorf("export: write: %w", err)
	}
	n.AuditSubjects++
	return nil
}

// importAuditSubjects keeps whom each exported pseudonym stands for, in a
// store that keeps such mappings (lore.AuditSubjectWriter), when the
// import leaves the user (or agent) where it was: a pseudonym is a keyed
// hash of the tenant and id, so under another it would name nobody. The
// records already written about the user then name them again, as they
// did before an erase removed the mapping.
func importAuditSubjects(ctx context.Context, st lore.GraphStore, d *Dump, remap func(lore.Scope) lore.Scope, n *Counts) error {
	w, ok := st.(lore.AuditSubjectWriter)
	if !ok || len(d.AuditSubjects) == 0 || remap(d.Scope) != d.Scope {
		return nil
	}
	for _, a := range d.AuditSubjects {
		if err := checkAuditSubject(d.Scope, a); err != nil {
			return err
		}
		if err := w.PutAuditSubject(ctx, d.Scope.TenantID, a.Pseudonym, a.AuditSubject); err != nil {
			return fmt.Errorf("export: import audit pseudonym: %w", err)
		}
		n.AuditSubjects++
	}
	return nil
}

// checkAuditSubject refuses a pseudonym record that does not stand for the
// export's own user (or agent, for an agent-only export).
func checkAuditSubject(scope lore.Scope, a AuditSubject) error {
	want := lore.AuditSubject{UserID: scope.UserID}
	if want.UserID == "" {
		want.AgentID = scope.AgentID
	}
	if a.AuditSubject != want {
		return lore.Errorf(lore.EINVALID, "the audit pseudonym %s stands for someone else than the export's scope", a.Pseudonym)
	}
	return lore.ValidateAuditSubject(scope.TenantID, a.Pseudonym, a.AuditSubject)
}
