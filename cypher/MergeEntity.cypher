CYPHER replan=skip
// Upserts an entity by (namespace, normalized name). The constraint
// entity_name makes concurrent MERGEs of one name wait for each other
// instead of creating twins.
MERGE (e:Entity {tenant_id: $tenant_id, user_id: $user_id, agent_id: $agent_id, normalized_name: $normalized_name})
ON CREATE SET e.id = $id, e.run_id = '', e.name = $name, e.type = $type, e.aliases = [],
              e.mentions = 0, e.first_seen = $first_seen, e.last_seen = $last_seen
SET e.mentions = e.mentions + $mentions,
    e.first_seen = CASE WHEN $first_seen < e.first_seen THEN $first_seen ELSE e.first_seen END,
    e.last_seen = CASE WHEN $last_seen > e.last_seen THEN $last_seen ELSE e.last_seen END,
    e.type = CASE WHEN coalesce(e.type, '') = '' THEN $type ELSE e.type END,
    e.aliases = e.aliases + [a IN $aliases WHERE a <> e.normalized_name AND NOT a IN e.aliases]
// What Neo4j Browser shows of a user: (:User)-[:RELATES {kind: 'mentions'}]->(:Entity).
FOREACH (_ IN CASE WHEN $user_id <> '' THEN [1] ELSE [] END |
  MERGE (u:User {tenant_id: $tenant_id, user_id: $user_id})
  MERGE (u)-[r:RELATES {kind: 'mentions'}]->(e)
  ON CREATE SET r.count = 0, r.first_seen = $first_seen, r.last_seen = $last_seen
  SET r.count = r.count + $mentions,
      r.first_seen = CASE WHEN $first_seen < r.first_seen THEN $first_seen ELSE r.first_seen END,
      r.last_seen = CASE WHEN $last_seen > r.last_seen THEN $last_seen ELSE r.last_seen END
)
RETURN e
