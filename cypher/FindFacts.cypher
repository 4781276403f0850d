// When nothing narrower anchors the query, the last_seen existence test lets
// the planner use fact_user_seen, whose order matches the ORDER BY.
MATCH (f:Fact)
WHERE {{scope "f" .}}
{{- if .IDs}} AND f.id IN $ids{{end}}
{{- if .Subject}} AND f.subject_id = $subject_id{{end}}
{{- if .Object}} AND f.object_id = $object_id{{end}}
{{- if .Entity}} AND (f.subject_id = $entity_id OR f.object_id = $entity_id){{end}}
{{- if .Predicate}} AND f.predicate = $predicate{{end}}
{{- if .Since}} AND f.last_seen >= $since{{end}}
{{- if .Until}} AND f.first_seen < $until{{end}}
{{- if .Current}} AND {{current "f"}}{{end}}
{{- if and .User (not .IDs) (not .Subject) (not .Object) (not .Entity)}} AND f.last_seen IS NOT NULL{{end}}
RETURN f
ORDER BY f.last_seen DESC, f.id
SKIP $offset LIMIT $limit
