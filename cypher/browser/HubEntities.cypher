// A user's hub entities: those with the most current facts, as subject or
// object, with how often they were mentioned.
MATCH (e:Entity)-[:SUBJECT_OF|OBJECT]-(f:Fact)
WHERE e.tenant_id = $tenant AND e.user_id = $user
  AND coalesce(f.invalid_at > datetime(), true) AND coalesce(f.expired_at > datetime(), true)
RETURN e.name AS entity, e.type AS type, count(DISTINCT f) AS facts, e.mentions AS mentions
ORDER BY facts DESC, mentions DESC, entity
LIMIT $limit
