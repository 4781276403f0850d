// A tenant's verdicts per user and memory feature (lore.MemoryFeature):
// "fact:<predicate>" or "episode:<role>"; verdicts on memories deleted
// since are left out.
MATCH (v:Verdict)
WHERE v.tenant_id = $tenant_id
OPTIONAL MATCH (f:Fact {id: v.memory_id})
OPTIONAL MATCH (e:Episode {id: v.memory_id})
WITH v, f, e
WHERE (f IS NOT NULL AND f.tenant_id = v.tenant_id) OR (e IS NOT NULL AND e.tenant_id = v.tenant_id)
WITH v.user_id AS user_id, CASE WHEN f IS NOT NULL THEN 'fact:' + f.predicate ELSE 'episode:' + e.role END AS feature,
     sum(CASE WHEN v.helpful THEN 1 ELSE 0 END) AS helpful, sum(CASE WHEN v.helpful THEN 0 ELSE 1 END) AS unhelpful
RETURN user_id, feature, helpful, unhelpful
ORDER BY user_id, feature
