CYPHER replan=skip
// Counts a batch's episodes per speaker name and episode scope, in the
// transaction that stores them. The count is read after the node's write
// lock is taken (the right-hand side reads the property being set), so
// concurrent AddEpisodes and DeleteEpisode never lose an update.
UNWIND $speakers AS sp
MERGE (s:Speaker {tenant_id: sp.tenant_id, user_id: sp.user_id, agent_id: sp.agent_id, run_id: sp.run_id, name: sp.name})
SET s.episodes = coalesce(s.episodes, 0) + sp.episodes
