-- Users' query logs (lore.QueryLogStore, issue 13): the searches a tenant's
-- retention policy keeps (query_log_days; none by default) for the LLM's
-- batch profile inference. Every read leaves out expired rows; the
-- retention sweeper deletes them (PurgeQueryLog), and they go with the user
-- (DeleteScope).
CREATE TABLE IF NOT EXISTS query_log (
	id          TEXT PRIMARY KEY,
	tenant_id   TEXT NOT NULL,
	user_id     TEXT NOT NULL,
	query       TEXT NOT NULL,
	hash        TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	expires_at  INTEGER NOT NULL,
	inferred_at INTEGER
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS query_log_user ON query_log (tenant_id, user_id, created_at);
CREATE INDEX IF NOT EXISTS query_log_due ON query_log (expires_at);
