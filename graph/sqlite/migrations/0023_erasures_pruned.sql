-- Erasure rows are pruned once older than lore.ErasureHorizon
-- (PruneErasures): an index on their time keeps that a range delete.
CREATE INDEX IF NOT EXISTS erasures_erased_at ON erasures (erased_at);
