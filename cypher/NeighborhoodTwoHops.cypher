// Facts touching the entities one fact away from the seeds. The walk stays in
// scope at every step, and at most $fanout neighbours (the most recently
// seen) are expanded, so a hub such as the user entity cannot blow it up.
MATCH (seed:Entity)
WHERE seed.id IN $seed_ids AND {{ns "seed" .}}
MATCH (seed)-[:SUBJECT_OF|OBJECT]-(f1:Fact)-[:SUBJECT_OF|OBJECT]-(n:Entity)
WHERE NOT n.id IN $seed_ids AND {{ns "n" .}}
  AND {{scope "f1" .}}{{if .Current}} AND {{current "f1"}}{{end}}
WITH seed, n, max(f1.last_seen) AS recent
ORDER BY recent DESC, n.id
LIMIT $fanout
MATCH (n)-[:SUBJECT_OF|OBJECT]-(f:Fact)
WHERE NOT f.id IN $exclude AND {{scope "f" .}}{{if .Current}} AND {{current "f"}}{{end}}
RETURN f, seed.id AS seed_id
ORDER BY f.last_seen DESC, f.id
LIMIT $limit
