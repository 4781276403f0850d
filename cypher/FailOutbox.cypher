CYPHER replan=skip
// Records why an outbox entry failed and when to try it again.
MATCH (o:OutboxEntry {seq: $seq})
SET o.next_at = $next, o.last_error = $msg
