-- The analyzer now folds Traditional Chinese characters to Simplified before
-- it makes bigrams (index/terms/cjk.go, table index/terms/data/t2s.txt), so
-- 「哪裡」 and 「哪里」 give the same term. The documents that hold any Han
-- character are posted again, as migration 14 did: their postings and their
-- share of the partition statistics are removed here, and Open's backfill
-- re-posts the documents whose tokens are NULL. Every other document
-- analyzes exactly as before and keeps its postings. The ranges are the CJK
-- radicals, ideographs (with the extensions and compatibility forms), where
-- every character of the fold table lies (TestMigration31RangesCoverFold).
CREATE TEMP TABLE m31_posted AS
	SELECT DISTINCT t.part, t.seq, t.len FROM doc_terms t
	WHERE t.seq IN (
		SELECT seq FROM docs
		WHERE text GLOB '*[⺀-⿟㐀-鿿豈-﫿]*' OR text GLOB '*[𠀀-𲎯]*'
	);
UPDATE part_stats SET
	docs = docs - (SELECT count(*) FROM m31_posted m WHERE m.part = part_stats.part),
	tokens = tokens - (SELECT coalesce(sum(m.len), 0) FROM m31_posted m WHERE m.part = part_stats.part)
WHERE part IN (SELECT part FROM m31_posted);
DELETE FROM part_stats WHERE docs <= 0;
DELETE FROM doc_terms WHERE seq IN (SELECT seq FROM m31_posted);
UPDATE docs SET tokens = NULL WHERE seq IN (SELECT seq FROM m31_posted);
DROP TABLE m31_posted;
