CYPHER replan=skip
// The user's current profile entries of one key.
MATCH (p:ProfileEntry {tenant_id: $tenant_id, user_id: $user_id, key: $key})
RETURN p
ORDER BY p.value_norm
