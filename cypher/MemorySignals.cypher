// The namespace's signal nodes of the candidate memories of one search.
MATCH (m:MemorySignal)
WHERE m.tenant_id = $tenant_id AND m.user_id = $user_id AND m.agent_id = $agent_id AND m.memory_id IN $ids
RETURN m
