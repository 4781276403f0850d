MATCH (e:Episode)
WHERE {{scope "e" .}}
{{- if .IDs}} AND e.id IN $ids{{end}}
{{- if .SourceIDs}} AND e.source_id IN $source_ids{{end}}
{{- if .Since}} AND e.occurred_at >= $since{{end}}
{{- if .Until}} AND e.occurred_at < $until{{end}}
  AND coalesce(e.expires_at > $now, true)
RETURN e
ORDER BY e.occurred_at, e.created_at, e.id
SKIP $offset LIMIT $limit
