// Removes an episode and records a DELETE event; facts keep its id as a source.
MATCH (e:Episode {id: $id})
WHERE {{scope "e" .}}
CREATE (h:History)
SET h = $history,
    h.tenant_id = e.tenant_id, h.user_id = e.user_id, h.agent_id = e.agent_id, h.run_id = e.run_id,
    h.before = e.content
DETACH DELETE e
RETURN count(*) AS deleted
