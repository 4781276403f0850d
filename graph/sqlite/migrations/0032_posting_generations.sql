-- A partition's generation changes with every write to its postings or
-- statistics, to a value it never had before, so that a posting list read
-- at one generation can be kept in memory and served again while the
-- generation stands (postingcache.go). Values come from one counter that
-- only grows: a partition deleted and created again starts above every
-- value it had.
ALTER TABLE part_stats ADD COLUMN gen INTEGER NOT NULL DEFAULT 0;
CREATE TABLE index_gen (n INTEGER NOT NULL);
INSERT INTO index_gen (n) VALUES (0);
