// The success rows a scope contains (export).
MATCH (s:Success)
WHERE {{ns "s" .}}
RETURN s
ORDER BY s.query_hash, s.memory_id
