-- User profiles (lore.ProfileStore, issue 13): one row per current entry,
-- keyed by user, key and normalised value, so a multi-valued key holds a
-- set and a single-valued one (lore.PlanProfileWrite) one row. Entries that
-- newer ones replaced go to profile_history. Both go with the user
-- (DeleteScope).
CREATE TABLE IF NOT EXISTS profile_entries (
	tenant_id  TEXT NOT NULL,
	user_id    TEXT NOT NULL,
	key        TEXT NOT NULL,
	value_norm TEXT NOT NULL,
	value      TEXT NOT NULL,
	confidence REAL NOT NULL,
	source     TEXT NOT NULL,
	evidence   TEXT NOT NULL,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (tenant_id, user_id, key, value_norm)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS profile_history (
	seq         INTEGER PRIMARY KEY AUTOINCREMENT,
	tenant_id   TEXT NOT NULL,
	user_id     TEXT NOT NULL,
	key         TEXT NOT NULL,
	value       TEXT NOT NULL,
	confidence  REAL NOT NULL,
	source      TEXT NOT NULL,
	evidence    TEXT NOT NULL,
	updated_at  INTEGER NOT NULL,
	replaced_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS profile_history_user ON profile_history (tenant_id, user_id, key, seq);
