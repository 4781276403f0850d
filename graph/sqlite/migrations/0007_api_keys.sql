-- API keys: only a keyed hash of each key is stored (see lore.APIKey).
-- Keys are revoked, never deleted, so "a key was ever created" stays true.
CREATE TABLE api_keys (
	id         TEXT PRIMARY KEY,
	hash       TEXT NOT NULL UNIQUE,
	tenant_id  TEXT NOT NULL,
	role       TEXT NOT NULL DEFAULT '',
	user_id    TEXT NOT NULL DEFAULT '',
	agent_id   TEXT NOT NULL DEFAULT '',
	admin      INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL,
	expires_at INTEGER,
	revoked_at INTEGER
) WITHOUT ROWID;
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);
