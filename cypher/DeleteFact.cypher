CYPHER replan=skip
// Removes a fact and records a DELETE event; the fact's history stays.
MATCH (f:Fact {id: $id}) USING INDEX f:Fact(id)
WHERE {{scope "f" .}}
// Bumping the history counter takes the write lock before anything is read,
// so concurrent changes of one memory are numbered in commit order.
SET f.history_seq = coalesce(f.history_seq, 0) + 1
CREATE (h:History)
SET h = $history, h.seq = f.history_seq,
    h.tenant_id = f.tenant_id, h.user_id = f.user_id, h.agent_id = f.agent_id, h.run_id = f.run_id,
    h.before = f.text
DETACH DELETE f
RETURN count(*) AS deleted
