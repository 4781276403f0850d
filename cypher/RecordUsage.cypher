// Adds usage counts, keeping the later last use.
UNWIND $rows AS r
MERGE (m:MemorySignal {tenant_id: $tenant_id, user_id: $user_id, agent_id: $agent_id, memory_id: r.memory_id})
ON CREATE SET m.adjustment = 0.0, m.helpful = 0, m.unhelpful = 0, m.returned = 0, m.cited = 0
SET m.returned = m.returned + r.returned, m.cited = m.cited + r.cited,
    m.last_used = CASE WHEN m.last_used IS NULL OR m.last_used < r.last_used THEN r.last_used ELSE m.last_used END
