// One answers-that-worked row per namespace, query hash and memory.
CREATE CONSTRAINT success_key IF NOT EXISTS
FOR (s:Success) REQUIRE (s.tenant_id, s.user_id, s.agent_id, s.query_hash, s.memory_id) IS UNIQUE
