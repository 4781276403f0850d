// Deletes one batch of the settings whose key starts with $prefix (caches
// keyed by scope); the store repeats it until a batch comes back short.
MATCH (m:Meta)
WHERE m.key STARTS WITH $prefix
WITH m LIMIT $batch
DELETE m
RETURN count(*) AS deleted
