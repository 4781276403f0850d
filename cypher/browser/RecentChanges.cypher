// What changed in a user's memory in the last $days days, newest first.
MATCH (h:History)
WHERE h.tenant_id = $tenant AND h.user_id = $user AND h.at >= datetime() - duration({days: $days})
RETURN h.at AS at, h.event AS event, h.memory_id AS memory_id, coalesce(h.after, h.before) AS memory,
       h.actor AS actor, h.reason AS reason
ORDER BY h.at DESC
LIMIT $limit
