-- Ranking signals (issue 14, lore.FeedbackStore): verdicts are durable
-- per-user events; memory_signals holds per namespace and memory the
-- relevance adjustment the verdicts gave and the usage counts; success is the
-- "answers that worked" table (normalised query hash, memory, verdicts),
-- derived from the verdicts (BackfillSuccess rebuilds it). None of them holds
-- text: queries are kept as hashes.
CREATE TABLE IF NOT EXISTS verdicts (
	id         TEXT PRIMARY KEY,
	tenant_id  TEXT NOT NULL,
	user_id    TEXT NOT NULL DEFAULT '',
	agent_id   TEXT NOT NULL DEFAULT '',
	memory_id  TEXT NOT NULL,
	helpful    INTEGER NOT NULL,
	query_hash TEXT NOT NULL DEFAULT '',
	delta      REAL NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS verdicts_scope ON verdicts (tenant_id, user_id, agent_id, created_at);

CREATE TABLE IF NOT EXISTS memory_signals (
	tenant_id  TEXT NOT NULL,
	user_id    TEXT NOT NULL DEFAULT '',
	agent_id   TEXT NOT NULL DEFAULT '',
	memory_id  TEXT NOT NULL,
	adjustment REAL NOT NULL DEFAULT 0,
	helpful    INTEGER NOT NULL DEFAULT 0,
	unhelpful  INTEGER NOT NULL DEFAULT 0,
	returned   INTEGER NOT NULL DEFAULT 0,
	cited      INTEGER NOT NULL DEFAULT 0,
	last_used  INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tenant_id, user_id, agent_id, memory_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS success (
	tenant_id  TEXT NOT NULL,
	user_id    TEXT NOT NULL DEFAULT '',
	agent_id   TEXT NOT NULL DEFAULT '',
	query_hash TEXT NOT NULL,
	memory_id  TEXT NOT NULL,
	helpful    INTEGER NOT NULL DEFAULT 0,
	unhelpful  INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tenant_id, user_id, agent_id, query_hash, memory_id)
) WITHOUT ROWID;
