CYPHER replan=skip
// Stores a profile entry (new, or merged into the stored one of the same
// value) and links it to its user: (:User)-[:HAS_PROFILE]->(:ProfileEntry).
MERGE (u:User {tenant_id: $tenant_id, user_id: $user_id})
MERGE (p:ProfileEntry {tenant_id: $tenant_id, user_id: $user_id, key: $key, value_norm: $value_norm})
SET p += $entry
MERGE (u)-[:HAS_PROFILE]->(p)
