// RecordVerdict, third statement when the verdict names a query: the
// answers-that-worked row of (namespace, query hash, memory).
MERGE (s:Success {tenant_id: $tenant_id, user_id: $user_id, agent_id: $agent_id, query_hash: $query_hash, memory_id: $memory_id})
ON CREATE SET s.helpful = 0, s.unhelpful = 0
SET s.helpful = s.helpful + $help, s.unhelpful = s.unhelpful + $unhelp
