CYPHER replan=skip
// Removes one key's history from a user's profile.
MATCH (h:ProfileHistory {tenant_id: $tenant_id, user_id: $user_id, key: $key})
DETACH DELETE h
RETURN count(*) AS deleted
