CYPHER replan=skip
// Takes the oldest due outbox entries (of one tenant, or any for '') and
// moves them out of other workers' way until $next. Two workers that take
// the same entry apply it twice, which is harmless.
MATCH (o:OutboxEntry)
WHERE o.next_at <= $now AND ($tenant_id = '' OR o.tenant_id = $tenant_id)
WITH o ORDER BY o.created_at, o.seq LIMIT $limit
SET o.attempts = o.attempts + 1, o.next_at = $next
RETURN o {.*} AS o
