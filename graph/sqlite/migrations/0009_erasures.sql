-- Erasures: one row per DeleteScope, written in the same transaction as the
-- deletes. A fenced write (lore.WithFence) checks it in its own transaction
-- and is refused when an erase covering its scope came after its fence, so a
-- job that was running during an erase writes nothing afterwards. The rows
-- hold ids, never content.
CREATE TABLE IF NOT EXISTS erasures (
	seq       INTEGER PRIMARY KEY AUTOINCREMENT,
	tenant_id TEXT NOT NULL,
	user_id   TEXT NOT NULL DEFAULT '',
	agent_id  TEXT NOT NULL DEFAULT '',
	run_id    TEXT NOT NULL DEFAULT '',
	erased_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS erasures_tenant ON erasures (tenant_id, seq);
