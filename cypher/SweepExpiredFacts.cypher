// Deletes up to $limit expired facts with their history and returns them
// as they were.
MATCH (f:Fact)
WHERE f.expires_at <= $now
WITH f ORDER BY f.expires_at LIMIT $limit
WITH f, properties(f) AS p
CALL {
  WITH f
  MATCH (h:History {memory_id: f.id})
  DELETE h
}
DETACH DELETE f
RETURN p
