// PruneErasures finds old erasures by time.
CREATE INDEX erasure_erased_at IF NOT EXISTS FOR (e:Erasure) ON (e.erased_at)
