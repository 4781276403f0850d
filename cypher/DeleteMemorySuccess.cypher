// Removes a deleted memory's success rows. Every namespace holding one also
// holds the memory's signal node (a verdict creates both), so the rows are
// found through the signal nodes (index memorysignal_memory), before
// DeleteMemorySignals removes those.
MATCH (m:MemorySignal {tenant_id: $tenant_id, memory_id: $id})
MATCH (s:Success {tenant_id: m.tenant_id, user_id: m.user_id, agent_id: m.agent_id, memory_id: $id})
DETACH DELETE s
RETURN count(*) AS deleted
