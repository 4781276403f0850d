// Deletes one batch of the profile entries an erase covers (the user's,
// or the tenant's); the store repeats it until a batch comes back short.
MATCH (p:ProfileEntry)
WHERE p.tenant_id = $tenant_id{{if .User}} AND p.user_id = $user_id{{end}}
WITH p LIMIT $batch
DETACH DELETE p
RETURN count(*) AS deleted
