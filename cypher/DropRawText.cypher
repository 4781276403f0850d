// Clears the content of up to $limit of a tenant's conversation episodes
// (not verbatim memories) stored before $before, and the text their history
// events hold; returns them as they were.
MATCH (e:Episode)
WHERE e.tenant_id = $tenant_id AND e.created_at < $before AND NOT coalesce(e.verbatim, false) AND e.content <> ''
WITH e ORDER BY e.created_at LIMIT $limit
WITH e, properties(e) AS p
SET e.content = ''
WITH e, p
CALL {
  WITH e
  MATCH (h:History {memory_id: e.id})
  SET h.before = '', h.after = ''
}
RETURN p
