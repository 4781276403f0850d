// Removes a deleted memory's verdicts in every namespace of its tenant
// (DeleteFact, DeleteEpisode; index verdict_memory).
MATCH (v:Verdict {tenant_id: $tenant_id, memory_id: $id})
DETACH DELETE v
RETURN count(*) AS deleted
