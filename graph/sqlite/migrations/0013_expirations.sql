-- Expiry of episodes and facts (lore.Episode.ExpiresAt, lore.Fact.ExpiresAt):
-- one row per memory that has one. Every read of episodes and facts leaves
-- out those whose row says they expired (see live), so an expired memory is
-- never returned even before the retention sweeper deletes it. A side table
-- rather than a column: reads of the many memories without an expiry pay
-- one lookup in a small table.
CREATE TABLE IF NOT EXISTS expirations (
	id         TEXT PRIMARY KEY,
	kind       TEXT NOT NULL,
	tenant_id  TEXT NOT NULL,
	user_id    TEXT NOT NULL DEFAULT '',
	agent_id   TEXT NOT NULL DEFAULT '',
	run_id     TEXT NOT NULL DEFAULT '',
	expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS expirations_due ON expirations (expires_at);
CREATE INDEX IF NOT EXISTS expirations_user ON expirations (tenant_id, user_id, agent_id);
-- The raw-text retention pass finds a tenant's oldest stored episodes.
CREATE INDEX IF NOT EXISTS episodes_tenant_created ON episodes (tenant_id, created_at);
