CYPHER replan=skip
// Moves a replaced profile entry to history:
// (:User)-[:HAD_PROFILE]->(:ProfileHistory).
MATCH (p:ProfileEntry {tenant_id: $tenant_id, user_id: $user_id, key: $key, value_norm: $value_norm})
MERGE (u:User {tenant_id: $tenant_id, user_id: $user_id})
CREATE (u)-[:HAD_PROFILE]->(h:ProfileHistory)
SET h = $history
DETACH DELETE p
