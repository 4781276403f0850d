-- Chinese and Japanese text is now analyzed into character bigrams, and
-- full-width letters and digits into ASCII (index/terms/cjk.go), where the
-- analyzer before made a run of such characters one term. The documents
-- that hold any such character are posted again: their postings and their
-- share of the partition statistics are removed here, and Open's backfill
-- re-posts the documents whose tokens are NULL (see migration 4). Every
-- other document analyzes exactly as before and keeps its postings. The
-- ranges are the CJK radicals, kana, CJK ideographs (with the extensions
-- and compatibility forms) and full-width ASCII letters and digits; CJK
-- punctuation (U+3000 to U+303F) is left out, since it makes no term.
CREATE TEMP TABLE m14_posted AS
	SELECT DISTINCT t.part, t.seq, t.len FROM doc_terms t
	WHERE t.seq IN (
		SELECT seq FROM docs
		WHERE text GLOB '*[⺀-⿟぀-ヿ㐀-鿿豈-﫿０-９Ａ-Ｚａ-ｚ]*' OR text GLOB '*[𠀀-𲎯]*'
	);
UPDATE part_stats SET
	docs = docs - (SELECT count(*) FROM m14_posted m WHERE m.part = part_stats.part),
	tokens = tokens - (SELECT coalesce(sum(m.len), 0) FROM m14_posted m WHERE m.part = part_stats.part)
WHERE part IN (SELECT part FROM m14_posted);
DELETE FROM part_stats WHERE docs <= 0;
DELETE FROM doc_terms WHERE seq IN (SELECT seq FROM m14_posted);
UPDATE docs SET tokens = NULL WHERE seq IN (SELECT seq FROM m14_posted);
DROP TABLE m14_posted;
