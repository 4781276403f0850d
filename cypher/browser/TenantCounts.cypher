// Per-tenant counts: users, episodes, entities, facts and current facts.
// It reads every Episode, Entity and Fact node: an operator's query for a
// quiet moment, not for a hot path.
CALL {
  MATCH (n:Episode) RETURN DISTINCT n.tenant_id AS tenant
  UNION
  MATCH (n:Fact) RETURN DISTINCT n.tenant_id AS tenant
  UNION
  MATCH (n:Entity) RETURN DISTINCT n.tenant_id AS tenant
}
CALL {
  WITH tenant
  MATCH (ep:Episode) WHERE ep.tenant_id = tenant
  RETURN count(ep) AS episodes, count(DISTINCT CASE WHEN ep.user_id <> '' THEN ep.user_id END) AS users_with_episodes
}
CALL {
  WITH tenant
  MATCH (e:Entity) WHERE e.tenant_id = tenant
  RETURN count(e) AS entities
}
CALL {
  WITH tenant
  MATCH (f:Fact) WHERE f.tenant_id = tenant
  RETURN count(f) AS facts,
         count(CASE WHEN coalesce(f.invalid_at > datetime(), true) AND coalesce(f.expired_at > datetime(), true) THEN 1 END) AS current_facts,
         count(DISTINCT CASE WHEN f.user_id <> '' THEN f.user_id END) AS users_with_facts
}
RETURN tenant, users_with_episodes, users_with_facts, episodes, entities, facts, current_facts
ORDER BY facts DESC, tenant
