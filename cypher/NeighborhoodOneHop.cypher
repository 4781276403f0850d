// Facts touching the seed entities. Seeds are looked up by id (unique index)
// and must belong to the reading scope's namespace.
MATCH (seed:Entity)
WHERE seed.id IN $seed_ids AND {{ns "seed" .}}
MATCH (seed)-[:SUBJECT_OF|OBJECT]-(f:Fact)
WHERE {{scope "f" .}}{{if .Current}} AND {{current "f"}}{{end}}
RETURN f, seed.id AS seed_id
ORDER BY f.last_seen DESC, f.id
LIMIT $limit
