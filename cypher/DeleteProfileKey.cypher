CYPHER replan=skip
// Removes one key's current entries from a user's profile; returns how many
// went. DeleteProfileKeyHistory runs beside it.
MATCH (p:ProfileEntry {tenant_id: $tenant_id, user_id: $user_id, key: $key})
DETACH DELETE p
RETURN count(*) AS deleted
