MATCH (e:Entity)
WHERE {{ns "e" .}}
{{- if .IDs}} AND e.id IN $ids{{end}}
{{- if .Names}} AND (e.normalized_name IN $names OR any(a IN e.aliases WHERE a IN $names)){{end}}
RETURN e
ORDER BY e.mentions DESC, e.name, e.id
SKIP $offset LIMIT $limit
