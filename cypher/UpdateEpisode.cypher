CYPHER replan=skip
// Changes an episode and records an UPDATE event in the same transaction.
MATCH (e:Episode {id: $id}) USING INDEX e:Episode(id)
WHERE {{scope "e" .}}
// Bumping the history counter takes the write lock before anything is read,
// so concurrent changes of one memory are numbered in commit order.
SET e.history_seq = coalesce(e.history_seq, 0) + 1
WITH e, e.content AS before
SET e.content = coalesce($content, e.content),
    e.metadata = coalesce($metadata, e.metadata),
    e.updated_at = $now
CREATE (h:History)
SET h = $history, h.seq = e.history_seq,
    h.tenant_id = e.tenant_id, h.user_id = e.user_id, h.agent_id = e.agent_id, h.run_id = e.run_id,
    h.before = before, h.after = e.content
RETURN e
