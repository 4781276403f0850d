// Deletes one batch of logged searches that expired at $now, or of the
// tenant $tenant_id created before $before (a shortened policy; '' names no
// tenant); the store repeats it until a batch comes back short.
MATCH (q:QueryLog)
WHERE q.expires_at <= $now OR (q.tenant_id = $tenant_id AND q.created_at < $before)
WITH q LIMIT $batch
DETACH DELETE q
RETURN count(*) AS deleted
