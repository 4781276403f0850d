-- The audit log (lore.AuditRecord): append-only and hash-chained. Rows are
-- never updated or deleted; seq is assigned by AppendAudit as the last
-- seq + 1 inside the append's transaction (the single writer serializes
-- appends). Records hold ids, counts and pseudonyms, never content.
CREATE TABLE IF NOT EXISTS audit_log (
	seq       INTEGER PRIMARY KEY,
	at        INTEGER NOT NULL,
	tenant_id TEXT NOT NULL,
	action    TEXT NOT NULL,
	actor     TEXT NOT NULL DEFAULT '',
	subject   TEXT NOT NULL DEFAULT '',
	target    TEXT NOT NULL DEFAULT '',
	outcome   TEXT NOT NULL,
	detail    TEXT NOT NULL DEFAULT '{}',
	prev_hash TEXT NOT NULL,
	hash      TEXT NOT NULL,
	sig       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_log_tenant ON audit_log (tenant_id, seq);
-- Whom a pseudonym stands for, while that user or agent exists: DeleteScope
-- removes a user's (or an agent's) rows here, never the records.
CREATE TABLE IF NOT EXISTS audit_pseudonyms (
	tenant_id TEXT NOT NULL,
	pseudonym TEXT NOT NULL,
	user_id   TEXT NOT NULL DEFAULT '',
	agent_id  TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (tenant_id, pseudonym)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS audit_pseudonyms_user ON audit_pseudonyms (tenant_id, user_id, agent_id);
