// Deletes up to $limit expired episodes with their history (which holds
// their text) and returns them as they were.
MATCH (e:Episode)
WHERE e.expires_at <= $now
WITH e ORDER BY e.expires_at LIMIT $limit
WITH e, properties(e) AS p
CALL {
  WITH e
  MATCH (h:History {memory_id: e.id})
  DELETE h
}
DETACH DELETE e
RETURN p
