CYPHER replan=skip
// Removes an episode and records a DELETE event; facts keep its id as a source.
// Its speaker's count goes down by one (see AddSpeakers).
MATCH (e:Episode {id: $id}) USING INDEX e:Episode(id)
WHERE {{scope "e" .}}
// Bumping the history counter takes the write lock before anything is read,
// so concurrent changes of one memory are numbered in commit order.
SET e.history_seq = coalesce(e.history_seq, 0) + 1
CREATE (h:History)
SET h = $history, h.seq = e.history_seq,
    h.tenant_id = e.tenant_id, h.user_id = e.user_id, h.agent_id = e.agent_id, h.run_id = e.run_id,
    h.before = e.content
WITH e, {tenant_id: e.tenant_id, user_id: e.user_id, agent_id: e.agent_id, run_id: e.run_id, name: e.speaker} AS key
DETACH DELETE e
WITH key
// No node for an episode without a speaker. The count is read under the
// node's write lock, as in AddSpeakers.
OPTIONAL MATCH (s:Speaker {tenant_id: key.tenant_id, user_id: key.user_id, agent_id: key.agent_id, run_id: key.run_id, name: key.name})
SET s.episodes = s.episodes - 1
RETURN count(*) AS deleted
