// A tenant's audit records in seq order (GET /v1/audit).
CREATE RANGE INDEX audit_tenant IF NOT EXISTS FOR (a:AuditRecord) ON (a.tenant_id, a.seq)
