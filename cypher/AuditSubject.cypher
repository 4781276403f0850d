MATCH (p:AuditPseudonym {tenant_id: $tenant_id, pseudonym: $pseudonym})
RETURN p.user_id AS user_id, p.agent_id AS agent_id
