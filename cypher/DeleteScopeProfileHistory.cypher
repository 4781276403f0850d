// Deletes one batch of the profile history an erase covers (the user's,
// or the tenant's); the store repeats it until a batch comes back short.
MATCH (h:ProfileHistory)
WHERE h.tenant_id = $tenant_id{{if .User}} AND h.user_id = $user_id{{end}}
WITH h LIMIT $batch
DETACH DELETE h
RETURN count(*) AS deleted
