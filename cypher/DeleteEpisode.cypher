CYPHER replan=skip
// Removes an episode and records a DELETE event; facts keep its id as a source.
MATCH (e:Episode {id: $id}) USING INDEX e:Episode(id)
WHERE {{scope "e" .}}
// Bumping the history counter takes the write lock before anything is read,
// so concurrent changes of one memory are numbered in commit order.
SET e.history_seq = coalesce(e.history_seq, 0) + 1
CREATE (h:History)
SET h = $history, h.seq = e.history_seq,
    h.tenant_id = e.tenant_id, h.user_id = e.user_id, h.agent_id = e.agent_id, h.run_id = e.run_id,
    h.before = e.content
DETACH DELETE e
RETURN count(*) AS deleted
