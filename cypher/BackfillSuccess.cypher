// Rebuilds the answers-that-worked rows from the verdicts and counts the
// rows it added or changed, so that a second run reports 0.
MATCH (v:Verdict)
WHERE v.query_hash <> ''
WITH v.tenant_id AS t, v.user_id AS u, v.agent_id AS a, v.query_hash AS q, v.memory_id AS mid,
     sum(CASE WHEN v.helpful THEN 1 ELSE 0 END) AS h, sum(CASE WHEN v.helpful THEN 0 ELSE 1 END) AS uh
MERGE (s:Success {tenant_id: t, user_id: u, agent_id: a, query_hash: q, memory_id: mid})
ON CREATE SET s.helpful = -1, s.unhelpful = -1
WITH s, h, uh, s.helpful <> h OR s.unhelpful <> uh AS changed
SET s.helpful = h, s.unhelpful = uh
RETURN sum(CASE WHEN changed THEN 1 ELSE 0 END) AS changed
