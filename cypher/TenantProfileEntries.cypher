CYPHER replan=skip
// The current profile entries of every user of a tenant (cohort attributes).
MATCH (p:ProfileEntry {tenant_id: $tenant_id})
RETURN p
ORDER BY p.user_id, p.key, p.value_norm
