-- Lore's own BM25 replaces FTS5's. FTS5 kept one set of statistics
-- (document count, average length, document frequencies) for the whole
-- file, so one user's ranking moved with what other tenants and users
-- stored. Statistics are now kept per partition: a user's documents
-- (tenant, user) and an agent's (tenant, agent). A document is posted under
-- each partition it has; a partition key is a 64-bit hash of its kind,
-- tenant and id (see vecKey.part).

-- The document's length in terms; NULL until it is posted. Open backfills
-- the documents of an older file, a batch per transaction, and finds the
-- rest through docs_unposted after a crash.
ALTER TABLE docs ADD COLUMN tokens INTEGER;
CREATE INDEX docs_unposted ON docs (seq) WHERE tokens IS NULL;

-- One row per partition, term and document. The document's length is
-- repeated in each row, so that scoring a term reads one range of this
-- table and nothing else. A term's document frequency in a partition is its
-- number of rows there.
CREATE TABLE doc_terms (
	part INTEGER NOT NULL,
	term TEXT NOT NULL,
	seq  INTEGER NOT NULL REFERENCES docs (seq) ON DELETE CASCADE,
	tf   INTEGER NOT NULL,
	len  INTEGER NOT NULL,
	PRIMARY KEY (part, term, seq)
) WITHOUT ROWID;
-- Serves the cascade when a document is deleted, and an update's removal
-- of its old postings.
CREATE INDEX doc_terms_seq ON doc_terms (seq);

-- Documents and their total length in terms, per partition.
CREATE TABLE part_stats (
	part   INTEGER PRIMARY KEY,
	docs   INTEGER NOT NULL,
	tokens INTEGER NOT NULL
);

-- docs.scope_tokens stays (SQLite would rebuild the table to drop it); new
-- documents store '' there.
DROP TRIGGER docs_ai;
DROP TRIGGER docs_ad;
DROP TRIGGER docs_au;
DROP TABLE docs_fts;
