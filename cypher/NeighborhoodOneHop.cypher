// Facts touching the seed entities. Seeds are looked up by id (unique index)
// and must belong to the reading scope's namespace; the subquery makes the
// planner expand from each seed rather than scan the user's facts.
MATCH (seed:Entity)
WHERE seed.id IN $seed_ids AND {{ns "seed" .}}
CALL {
  WITH seed
  MATCH (seed)-[:SUBJECT_OF|OBJECT]-(f:Fact)
  WHERE {{scope "f" .}}{{if .Current}} AND {{current "f"}}{{end}} AND coalesce(f.expires_at > $now, true)
  RETURN f
}
WITH f, min(seed.id) AS seed_id
RETURN f, seed_id
ORDER BY f.last_seen DESC, f.id
LIMIT $limit
