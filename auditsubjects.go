package lore

import "context"

// AuditSubjectWriter keeps whom a pseudonym stands for without appending a
// record: an import restores the mapping a user's export carried, so the
// records written about the user before an erase name them again once
// their memories are back. Implementations: graph/sqlite and graph/neo4j;
// storetest's Audit/PutAuditSubject covers both.
type AuditSubjectWriter interface {
	// PutAuditSubject records that pseudonym stands for sub (one of a user
	// or an agent) in the tenant. A mapping already kept stays as it is.
	PutAuditSubject(ctx context.Context, tenantID, pseudonym string, sub AuditSubject) error
}

// ValidateAuditSubject reports EINVALID unless pseudonym has the form
// AuditPseudonym gives and sub names exactly one user or agent.
func ValidateAuditSubject(tenantID, pseudonym string, sub AuditSubject) error {
	if err := ValidateID("tenant_id", tenantID); err != nil || tenantID == "" {
		return Errorf(EINVALID, "an audit pseudonym needs a valid tenant_id")
	}
	if len(pseudonym) != 34 || pseudonym[:2] != "p_" {
		return Errorf(EINVALID, "audit pseudonym %q is not p_ and 32 hex digits", pseudonym)
	}
	for _, c := range pseudonym[2:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return Errorf(EINVALID, "audit pseudonym %q is not p_ and 32 hex digits", pseudonym)
		}
	}
	if (sub.UserID == "") == (sub.AgentID == "") {
		return Errorf(EINVALID, "an audit pseudonym stands for one user or one agent")
	}
	if err := ValidateID("user_id", sub.UserID); err != nil {
		return err
	}
	return ValidateID("agent_id", sub.AgentID)
}
