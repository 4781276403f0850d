// Renames a speaker's Speaker nodes in the graph a scope reads
// (RewriteNames); a node of the new name in the same episode scope takes
// the old one's count.
MATCH (s:Speaker)
WHERE {{ns "s" .}} AND s.name = $old
WITH s, s.tenant_id AS t, s.user_id AS u, s.agent_id AS a, s.run_id AS r, coalesce(s.episodes, 0) AS n
DETACH DELETE s
WITH t, u, a, r, n
MERGE (x:Speaker {tenant_id: t, user_id: u, agent_id: a, run_id: r, name: $new})
SET x.episodes = coalesce(x.episodes, 0) + n
