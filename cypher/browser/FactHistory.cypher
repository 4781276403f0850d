// A fact's history, oldest first: every ADD, MERGE (a repeat), UPDATE,
// INVALIDATE and DELETE with who made it and the text before and after.
// History outlives a deleted fact.
MATCH (h:History {memory_id: $fact})
WHERE h.tenant_id = $tenant AND h.user_id = $user
RETURN h.seq AS seq, h.event AS event, h.before AS before, h.after AS after, h.actor AS actor,
       h.reason AS reason, h.at AS at
ORDER BY h.seq, h.at
