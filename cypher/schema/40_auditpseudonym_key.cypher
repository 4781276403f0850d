CREATE CONSTRAINT auditpseudonym_key IF NOT EXISTS FOR (p:AuditPseudonym) REQUIRE (p.tenant_id, p.pseudonym) IS UNIQUE
