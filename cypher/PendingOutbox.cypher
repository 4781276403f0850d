CYPHER replan=skip
// Counts the outbox entries of a tenant, or of all for ''.
MATCH (o:OutboxEntry)
WHERE $tenant_id = '' OR o.tenant_id = $tenant_id
RETURN count(o) AS n
