// RecordVerdict, first statement: the memory's signal node for the caller's
// namespace, created at zero when absent and write-locked (the SET) before
// its adjustment is read, so concurrent verdicts on one memory serialize and
// none is lost. The uniqueness constraint memorysignal_key makes the MERGE
// race-free.
MERGE (m:MemorySignal {tenant_id: $tenant_id, user_id: $user_id, agent_id: $agent_id, memory_id: $memory_id})
ON CREATE SET m.adjustment = 0.0, m.helpful = 0, m.unhelpful = 0, m.returned = 0, m.cited = 0
SET m.locked_at = $now
RETURN m.adjustment AS adjustment
