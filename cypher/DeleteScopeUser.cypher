// Removes the user's node once the whole user is deleted.
MATCH (u:User {tenant_id: $tenant_id, user_id: $user_id})
DETACH DELETE u
