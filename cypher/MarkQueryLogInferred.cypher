CYPHER replan=skip
// Records that batch inference read the user's logged searches $ids.
MATCH (q:QueryLog {tenant_id: $tenant_id, user_id: $user_id})
WHERE q.id IN $ids
SET q.inferred_at = $at
