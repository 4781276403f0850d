// Facts touching the entities one fact away from the seeds. The walk stays in
// scope at every step, and at most $fanout neighbours (the most recently
// seen) are expanded, so a hub such as the user entity cannot blow it up.
// The subqueries make the planner expand from bound nodes at each step.
MATCH (seed:Entity)
WHERE seed.id IN $seed_ids AND {{ns "seed" .}}
CALL {
  WITH seed
  MATCH (seed)-[:SUBJECT_OF|OBJECT]-(f1:Fact)
  WHERE {{scope "f1" .}}{{if .Current}} AND {{current "f1"}}{{end}} AND coalesce(f1.expires_at > $now, true)
  MATCH (f1)-[:SUBJECT_OF|OBJECT]-(n:Entity)
  WHERE n <> seed AND NOT n.id IN $seed_ids AND {{ns "n" .}}
  RETURN n, max(f1.last_seen) AS recent
}
WITH n, min(seed.id) AS seed_id, max(recent) AS recent
ORDER BY recent DESC, n.id
LIMIT $fanout
CALL {
  WITH n
  MATCH (n)-[:SUBJECT_OF|OBJECT]-(f:Fact)
  WHERE NOT f.id IN $exclude AND {{scope "f" .}}{{if .Current}} AND {{current "f"}}{{end}} AND coalesce(f.expires_at > $now, true)
  RETURN f
}
WITH f, min(seed_id) AS seed_id
RETURN f, seed_id
ORDER BY f.last_seen DESC, f.id
LIMIT $limit
