// Keeps whom a pseudonym stands for until that user or agent is erased
// (DeleteScopeAuditPseudonyms). No run: a run's erase leaves it.
CYPHER replan=skip
MERGE (p:AuditPseudonym {tenant_id: $tenant_id, pseudonym: $pseudonym})
ON CREATE SET p.user_id = $user_id, p.agent_id = $agent_id
