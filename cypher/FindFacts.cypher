// When nothing narrower anchors the query, the existence test on last_seen
// and the constant tenant and user columns leading the ORDER BY let the
// planner read fact_user_seen backwards in order and stop at the limit
// (a PartialTop), instead of sorting every fact of the user.
{{- $ordered := and .User (not .IDs) (not .Subject) (not .Object) (not .Entity)}}
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
  AND coalesce(f.expires_at > $now, true)
{{- if $ordered}} AND f.last_seen IS NOT NULL{{end}}
RETURN f
ORDER BY {{if $ordered}}f.tenant_id DESC, f.user_id DESC, {{end}}f.last_seen DESC, f.id
SKIP $offset LIMIT $limit
