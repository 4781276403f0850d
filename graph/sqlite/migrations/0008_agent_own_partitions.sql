-- An agent's partition now holds the agent's own documents only (stored
-- with no user): a user's document stays out of it, so agent-only reads
-- neither return users' memories nor rank with their statistics. Every
-- document is posted again under the new partitions: its postings and the
-- statistics are dropped here, and Open's backfill re-posts the documents
-- whose tokens are NULL (see migration 4). The term_stats triggers are
-- dropped around the bulk delete, which would otherwise fire per posting.
DROP TRIGGER doc_terms_ai;
DROP TRIGGER doc_terms_ad;
DELETE FROM doc_terms;
DELETE FROM part_stats;
DELETE FROM term_stats;
UPDATE docs SET tokens = NULL;
CREATE TRIGGER doc_terms_ai AFTER INSERT ON doc_terms BEGIN
	INSERT INTO term_stats (part, term, df) VALUES (new.part, new.term, 1)
	ON CONFLICT (part, term) DO UPDATE SET df = df + 1;
END;
CREATE TRIGGER doc_terms_ad AFTER DELETE ON doc_terms BEGIN
	UPDATE term_stats SET df = df - 1 WHERE part = old.part AND term = old.term;
	DELETE FROM term_stats WHERE part = old.part AND term = old.term AND df = 0;
END;
