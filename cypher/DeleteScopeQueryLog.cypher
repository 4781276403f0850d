// Deletes one batch of the query logs an erase covers (the user's, or the
// tenant's); the store repeats it until a batch comes back short.
MATCH (q:QueryLog)
WHERE q.tenant_id = $tenant_id{{if .User}} AND q.user_id = $user_id{{end}}
WITH q LIMIT $batch
DETACH DELETE q
RETURN count(*) AS deleted
