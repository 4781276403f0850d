// Counts the speakers of episodes stored before Speaker nodes existed, in
// transactions of 1,000 nodes so that a large store needs no huge one. A
// node AddEpisodes made meanwhile is left as it is (ON CREATE), so running
// it again after an interruption fills in only what is missing.
MATCH (e:Episode)
WHERE e.speaker <> ''
WITH e.tenant_id AS tenant_id, e.user_id AS user_id, e.agent_id AS agent_id, e.run_id AS run_id,
     e.speaker AS name, count(*) AS episodes
CALL (tenant_id, user_id, agent_id, run_id, name, episodes) {
  MERGE (s:Speaker {tenant_id: tenant_id, user_id: user_id, agent_id: agent_id, run_id: run_id, name: name})
  ON CREATE SET s.episodes = episodes
} IN TRANSACTIONS OF 1000 ROWS
