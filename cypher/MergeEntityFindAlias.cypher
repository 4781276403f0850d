CYPHER replan=skip
// Finds the entity a new name resolves to through an alias, when no entity
// of the namespace carries the name itself (MERGE handles that case).
OPTIONAL MATCH (x:Entity {tenant_id: $tenant_id, user_id: $user_id, agent_id: $agent_id, normalized_name: $normalized_name})
USING INDEX x:Entity(tenant_id, user_id, agent_id, normalized_name)
WITH x
WHERE x IS NULL
MATCH (a:Entity) USING INDEX a:Entity(tenant_id, user_id, agent_id, normalized_name)
WHERE a.tenant_id = $tenant_id AND a.user_id = $user_id AND a.agent_id = $agent_id
  AND a.normalized_name IS NOT NULL
  AND ($normalized_name IN a.aliases OR a.normalized_name IN $aliases)
RETURN a.id AS id
ORDER BY a.mentions DESC, a.id
LIMIT 1
