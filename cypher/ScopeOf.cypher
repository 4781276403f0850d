// The scope of a memory within a tenant: a fact, an episode, or (deleted)
// the latest history event recorded for it; each found by its id index.
CALL {
  MATCH (f:Fact {id: $id}) WHERE f.tenant_id = $tenant_id
  RETURN f.tenant_id AS tenant_id, f.user_id AS user_id, f.agent_id AS agent_id, f.run_id AS run_id, 0 AS rank, 0 AS seq
  UNION ALL
  MATCH (e:Episode {id: $id}) WHERE e.tenant_id = $tenant_id
  RETURN e.tenant_id AS tenant_id, e.user_id AS user_id, e.agent_id AS agent_id, e.run_id AS run_id, 1 AS rank, 0 AS seq
  UNION ALL
  MATCH (h:History {memory_id: $id}) USING INDEX h:History(memory_id)
  WHERE h.tenant_id = $tenant_id
  RETURN h.tenant_id AS tenant_id, h.user_id AS user_id, h.agent_id AS agent_id, h.run_id AS run_id, 2 AS rank, -h.seq AS seq
}
RETURN tenant_id, user_id, agent_id, run_id
ORDER BY rank, seq
LIMIT 1
