// An erase finds the pseudonym mappings of its user or agent.
CREATE RANGE INDEX auditpseudonym_user IF NOT EXISTS FOR (p:AuditPseudonym) ON (p.tenant_id, p.user_id)
