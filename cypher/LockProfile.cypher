CYPHER replan=skip
// Takes the user's node write lock before a profile write reads the stored
// entries, so two concurrent writes of one user's profile run one after the
// other and the precedence rules (lore.PlanProfileWrite) hold.
MERGE (u:User {tenant_id: $tenant_id, user_id: $user_id})
SET u.profile_writes = coalesce(u.profile_writes, 0) + 1
