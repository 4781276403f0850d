-- Pending index changes, written in the same transaction as the store
-- change they follow (lore.Outbox). A worker applies and deletes them; the
-- write that recorded them deletes them itself once it has updated the
-- index (tag).
CREATE TABLE outbox (
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	tenant_id  TEXT NOT NULL,
	user_id    TEXT NOT NULL DEFAULT '',
	agent_id   TEXT NOT NULL DEFAULT '',
	run_id     TEXT NOT NULL DEFAULT '',
	kind       TEXT NOT NULL,
	memory_id  TEXT NOT NULL DEFAULT '',
	doc_ids    TEXT NOT NULL DEFAULT '',
	tag        TEXT NOT NULL DEFAULT '',
	attempts   INTEGER NOT NULL DEFAULT 0,
	next_at    INTEGER NOT NULL,
	last_error TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
CREATE INDEX outbox_next ON outbox (next_at);
CREATE INDEX outbox_tag ON outbox (tag, memory_id);
CREATE INDEX outbox_tenant ON outbox (tenant_id);
