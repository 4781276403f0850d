-- Each term's document frequency per partition, kept by triggers so that
-- it always equals the term's number of postings there (see migration 4):
-- a search reads one row instead of counting a common term's postings.
CREATE TABLE term_stats (
	part INTEGER NOT NULL,
	term TEXT NOT NULL,
	df   INTEGER NOT NULL,
	PRIMARY KEY (part, term)
) WITHOUT ROWID;
INSERT INTO term_stats (part, term, df) SELECT part, term, count(*) FROM doc_terms GROUP BY part, term;
CREATE TRIGGER doc_terms_ai AFTER INSERT ON doc_terms BEGIN
	INSERT INTO term_stats (part, term, df) VALUES (new.part, new.term, 1)
	ON CONFLICT (part, term) DO UPDATE SET df = df + 1;
END;
CREATE TRIGGER doc_terms_ad AFTER DELETE ON doc_terms BEGIN
	UPDATE term_stats SET df = df - 1 WHERE part = old.part AND term = old.term;
	DELETE FROM term_stats WHERE part = old.part AND term = old.term AND df = 0;
END;
