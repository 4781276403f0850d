// Removes a deleted memory's signal nodes (relevance, usage) in every
// namespace of its tenant (index memorysignal_memory).
MATCH (m:MemorySignal {tenant_id: $tenant_id, memory_id: $id})
DETACH DELETE m
RETURN count(*) AS deleted
