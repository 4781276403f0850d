CYPHER replan=skip
// Adds one logged search to the user's query log (lore.QueryLogStore):
// (:User)-[:LOGGED]->(:QueryLog). The text is a property, never a label.
MERGE (u:User {tenant_id: $tenant_id, user_id: $user_id})
CREATE (q:QueryLog {id: $id, tenant_id: $tenant_id, user_id: $user_id, query: $query, hash: $hash,
  created_at: $created_at, expires_at: $expires_at, inferred_at: $inferred_at})
CREATE (u)-[:LOGGED]->(q)
