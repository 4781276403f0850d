// The neighbourhood of an entity (by normalized name or alias): current
// facts up to two hops away. Two relationships make one hop (entity, fact,
// entity), so *1..4 is two fact hops; facts only link entities of one
// namespace, so the walk stays in the user's memory.
MATCH (e:Entity)
WHERE e.tenant_id = $tenant AND e.user_id = $user AND (e.normalized_name = $name OR $name IN e.aliases)
MATCH p = (e)-[:SUBJECT_OF|OBJECT*1..4]-(:Entity)
WHERE all(f IN [x IN nodes(p) WHERE x:Fact]
          WHERE coalesce(f.invalid_at > datetime(), true) AND coalesce(f.expired_at > datetime(), true))
RETURN p
LIMIT $limit
