CYPHER replan=skip
// The user's current profile entries, by key then value.
MATCH (p:ProfileEntry {tenant_id: $tenant_id, user_id: $user_id})
RETURN p
ORDER BY p.key, p.value_norm
