// Removes a fact and records a DELETE event; the fact's history stays.
MATCH (f:Fact {id: $id})
WHERE {{scope "f" .}}
CREATE (h:History)
SET h = $history,
    h.tenant_id = f.tenant_id, h.user_id = f.user_id, h.agent_id = f.agent_id, h.run_id = f.run_id,
    h.before = f.text
DETACH DELETE f
RETURN count(*) AS deleted
