// The tenant's scopes that hold episodes or facts, with counts and times,
// for the mem0-compatible entity listing.
CALL {
  MATCH (e:Episode) WHERE e.tenant_id = $tenant_id
  RETURN e.user_id AS user_id, e.agent_id AS agent_id, e.run_id AS run_id, e.created_at AS first, e.updated_at AS last
  UNION ALL
  MATCH (f:Fact) WHERE f.tenant_id = $tenant_id
  RETURN f.user_id AS user_id, f.agent_id AS agent_id, f.run_id AS run_id, f.created_at AS first, f.updated_at AS last
}
RETURN user_id, agent_id, run_id, count(*) AS n, min(first) AS first, max(last) AS last
ORDER BY user_id, agent_id, run_id
LIMIT $limit
