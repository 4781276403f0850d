CYPHER replan=skip
// The user's replaced profile entries, of one key or all ($key = ''),
// oldest replacement first.
MATCH (h:ProfileHistory {tenant_id: $tenant_id, user_id: $user_id})
WHERE $key = '' OR h.key = $key
RETURN h
ORDER BY h.replaced_at, h.seq
