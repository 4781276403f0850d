// The success rows of the candidate memories for the query asked.
MATCH (s:Success)
WHERE s.tenant_id = $tenant_id AND s.user_id = $user_id AND s.agent_id = $agent_id AND s.query_hash = $query_hash
  AND s.memory_id IN $ids
RETURN s
