-- Lore's embedded schema, version 1. Times are INTEGER microseconds since
-- the Unix epoch (UTC). Scope columns hold '' for unset fields, so that
-- equality and unique constraints work without NULL special cases.

CREATE TABLE episodes (
	id          TEXT PRIMARY KEY,
	tenant_id   TEXT NOT NULL,
	user_id     TEXT NOT NULL,
	agent_id    TEXT NOT NULL,
	run_id      TEXT NOT NULL,
	role        TEXT NOT NULL,
	speaker     TEXT NOT NULL,
	content     TEXT NOT NULL,
	occurred_at INTEGER NOT NULL,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL,
	source_id   TEXT NOT NULL,
	metadata    TEXT,
	verbatim    INTEGER NOT NULL
);
-- Every read names a user or an agent: one index for each, ordered as
-- FindEpisodes returns.
CREATE INDEX episodes_user ON episodes (tenant_id, user_id, occurred_at, created_at);
CREATE INDEX episodes_agent ON episodes (tenant_id, agent_id, occurred_at, created_at);
CREATE INDEX episodes_source ON episodes (tenant_id, source_id);

-- Entities belong to a namespace (tenant, user, agent) and outlive runs.
CREATE TABLE entities (
	id              TEXT PRIMARY KEY,
	tenant_id       TEXT NOT NULL,
	user_id         TEXT NOT NULL,
	agent_id        TEXT NOT NULL,
	name            TEXT NOT NULL,
	normalized_name TEXT NOT NULL,
	type            TEXT NOT NULL,
	mentions        INTEGER NOT NULL,
	first_seen      INTEGER NOT NULL,
	last_seen       INTEGER NOT NULL,
	-- The name is unique per namespace, not globally, so homonyms of
	-- different users stay apart; the constraint backs MergeEntity's lookup.
	UNIQUE (tenant_id, user_id, agent_id, normalized_name)
);
CREATE INDEX entities_agent ON entities (tenant_id, agent_id);

CREATE TABLE entity_aliases (
	tenant_id TEXT NOT NULL,
	user_id   TEXT NOT NULL,
	agent_id  TEXT NOT NULL,
	alias     TEXT NOT NULL,
	entity_id TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
	PRIMARY KEY (tenant_id, user_id, agent_id, alias)
);
CREATE INDEX entity_aliases_entity ON entity_aliases (entity_id);

-- Facts are the graph's edges. object_key is Fact.ObjectKey(): the
-- deduplication key of the object.
CREATE TABLE facts (
	id         TEXT PRIMARY KEY,
	tenant_id  TEXT NOT NULL,
	user_id    TEXT NOT NULL,
	agent_id   TEXT NOT NULL,
	run_id     TEXT NOT NULL,
	subject_id TEXT NOT NULL,
	subject    TEXT NOT NULL,
	predicate  TEXT NOT NULL,
	object_id  TEXT NOT NULL,
	object     TEXT NOT NULL,
	object_key TEXT NOT NULL,
	text       TEXT NOT NULL,
	confidence REAL NOT NULL,
	valid_at   INTEGER,
	invalid_at INTEGER,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	expired_at INTEGER,
	count      INTEGER NOT NULL,
	first_seen INTEGER NOT NULL,
	last_seen  INTEGER NOT NULL,
	extractor  TEXT NOT NULL,
	metadata   TEXT
);
-- The neighbourhood walk enters by either end of an edge; MergeFact's
-- duplicate lookup uses the first index's full key.
CREATE INDEX facts_subject ON facts (subject_id, predicate, object_key);
CREATE INDEX facts_object ON facts (object_id);
CREATE INDEX facts_user ON facts (tenant_id, user_id, last_seen);
CREATE INDEX facts_agent ON facts (tenant_id, agent_id, last_seen);

-- Source episodes of a fact, in the order they were first seen (rowid).
CREATE TABLE fact_sources (
	fact_id    TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
	episode_id TEXT NOT NULL,
	UNIQUE (fact_id, episode_id)
);
CREATE INDEX fact_sources_episode ON fact_sources (episode_id);

CREATE TABLE history (
	seq       INTEGER PRIMARY KEY AUTOINCREMENT,
	id        TEXT NOT NULL UNIQUE,
	memory_id TEXT NOT NULL,
	tenant_id TEXT NOT NULL,
	user_id   TEXT NOT NULL,
	agent_id  TEXT NOT NULL,
	run_id    TEXT NOT NULL,
	event     TEXT NOT NULL,
	before    TEXT NOT NULL,
	after     TEXT NOT NULL,
	actor     TEXT NOT NULL,
	reason    TEXT NOT NULL,
	at        INTEGER NOT NULL
);
CREATE INDEX history_memory ON history (memory_id);
CREATE INDEX history_user ON history (tenant_id, user_id);
CREATE INDEX history_agent ON history (tenant_id, agent_id);

CREATE TABLE jobs (
	id           TEXT PRIMARY KEY,
	tenant_id    TEXT NOT NULL,
	user_id      TEXT NOT NULL,
	agent_id     TEXT NOT NULL,
	run_id       TEXT NOT NULL,
	kind         TEXT NOT NULL,
	episode_ids  TEXT NOT NULL,
	status       TEXT NOT NULL,
	attempts     INTEGER NOT NULL,
	max_attempts INTEGER NOT NULL,
	error        TEXT NOT NULL,
	events       TEXT NOT NULL,
	next_run_at  INTEGER NOT NULL,
	lease_until  INTEGER,
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL
);
-- ClaimJob looks only at unfinished jobs; done and failed ones pile up
-- without slowing it.
CREATE INDEX jobs_due ON jobs (status, next_run_at);
CREATE INDEX jobs_lease ON jobs (status, lease_until);
CREATE INDEX jobs_user ON jobs (tenant_id, user_id);
CREATE INDEX jobs_agent ON jobs (tenant_id, agent_id);

CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

-- The search index. scope_tokens holds opaque tokens naming the document's
-- (tenant, user), (tenant, agent), (tenant, run) and kind, so that a text
-- search intersects posting lists with the reader's scope and kinds inside
-- FTS5 instead of filtering every tenant's matches afterwards.
CREATE TABLE docs (
	seq          INTEGER PRIMARY KEY,
	id           TEXT NOT NULL UNIQUE,
	kind         TEXT NOT NULL,
	tenant_id    TEXT NOT NULL,
	user_id      TEXT NOT NULL,
	agent_id     TEXT NOT NULL,
	run_id       TEXT NOT NULL,
	text         TEXT NOT NULL,
	scope_tokens TEXT NOT NULL,
	time         INTEGER NOT NULL
);
CREATE INDEX docs_user ON docs (tenant_id, user_id);
CREATE INDEX docs_agent ON docs (tenant_id, agent_id);

-- Vectors (little-endian float32) apart from docs, so that the rows a text
-- search joins stay small.
CREATE TABLE doc_vectors (
	seq    INTEGER PRIMARY KEY REFERENCES docs (seq) ON DELETE CASCADE,
	vector BLOB NOT NULL
);

-- Porter stemming over unicode61 (diacritics folded): "dinners" finds
-- "dinner". External content: the text is stored once, in docs.
CREATE VIRTUAL TABLE docs_fts USING fts5 (
	text, scope_tokens,
	content = 'docs', content_rowid = 'seq',
	tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER docs_ai AFTER INSERT ON docs BEGIN
	INSERT INTO docs_fts (rowid, text, scope_tokens) VALUES (new.seq, new.text, new.scope_tokens);
END;
CREATE TRIGGER docs_ad AFTER DELETE ON docs BEGIN
	INSERT INTO docs_fts (docs_fts, rowid, text, scope_tokens) VALUES ('delete', old.seq, old.text, old.scope_tokens);
END;
CREATE TRIGGER docs_au AFTER UPDATE ON docs BEGIN
	INSERT INTO docs_fts (docs_fts, rowid, text, scope_tokens) VALUES ('delete', old.seq, old.text, old.scope_tokens);
	INSERT INTO docs_fts (rowid, text, scope_tokens) VALUES (new.seq, new.text, new.scope_tokens);
END;
