// A user's graph: their entities and the current facts between them, as
// nodes and relationships Browser draws. A fact is a node between its
// subject (SUBJECT_OF) and its object (OBJECT); facts whose object is a
// literal value (a food, a job title) have no OBJECT and show in
// CurrentAndSuperseded instead.
MATCH (s:Entity)-[so:SUBJECT_OF]->(f:Fact)-[ob:OBJECT]->(o:Entity)
WHERE f.tenant_id = $tenant AND f.user_id = $user
  AND coalesce(f.invalid_at > datetime(), true) AND coalesce(f.expired_at > datetime(), true)
RETURN s, so, f, ob, o
LIMIT $limit
