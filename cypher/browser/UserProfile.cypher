// A user's profile (issue 13): the current entries linked to the user
// node, then the entries newer ones replaced, oldest first.
MATCH (u:User {tenant_id: $tenant, user_id: $user})-[:HAS_PROFILE|HAD_PROFILE]->(p)
RETURN p.key AS key, p.value AS value, p.source AS source, p.confidence AS confidence,
       p.updated_at AS updated_at, p.replaced_at AS replaced_at, p:ProfileEntry AS current
ORDER BY current DESC, coalesce(p.replaced_at, p.updated_at), key
LIMIT $limit
