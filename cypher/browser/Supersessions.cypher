// What replaced what: each superseded fact of a user beside the current
// facts of the same subject and predicate (a single-valued predicate such as
// lives_in or works_at holds one current value, so a new one closes the old).
MATCH (s:Entity)-[:SUBJECT_OF]->(old:Fact)
WHERE old.tenant_id = $tenant AND old.user_id = $user AND old.expired_at IS NOT NULL
OPTIONAL MATCH (s)-[:SUBJECT_OF]->(cur:Fact)
WHERE cur.predicate = old.predicate AND cur.tenant_id = old.tenant_id AND cur.user_id = old.user_id
  AND coalesce(cur.invalid_at > datetime(), true) AND coalesce(cur.expired_at > datetime(), true)
RETURN s.name AS subject, old.predicate AS predicate, old.text AS superseded, old.expired_at AS superseded_at,
       collect(cur.text) AS current
ORDER BY superseded_at DESC
LIMIT $limit
