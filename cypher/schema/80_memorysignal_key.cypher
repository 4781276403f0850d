// One signal node per namespace and memory (issue 14): concurrent verdicts
// and usage MERGE the same node.
CREATE CONSTRAINT memorysignal_key IF NOT EXISTS
FOR (m:MemorySignal) REQUIRE (m.tenant_id, m.user_id, m.agent_id, m.memory_id) IS UNIQUE
