CYPHER replan=skip
// The user's logged searches not expired at $now, oldest first; only those
// batch inference has not read when $pending.
MATCH (q:QueryLog {tenant_id: $tenant_id, user_id: $user_id})
WHERE q.expires_at > $now AND (NOT $pending OR q.inferred_at IS NULL)
RETURN q
ORDER BY q.created_at, q.id
LIMIT $limit
