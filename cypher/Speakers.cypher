// The distinct speakers of the scope's episodes, from the Speaker nodes that
// count them per name and episode scope, not from the episodes themselves.
// The hint keeps the index seek on a young database whose statistics would
// favour a label scan, which grows with every user's speakers.
MATCH (s:Speaker)
{{if .User}}USING INDEX s:Speaker(tenant_id, user_id){{else}}USING INDEX s:Speaker(tenant_id, agent_id){{end}}
WHERE {{scope "s" .}} AND s.episodes > 0
RETURN DISTINCT s.name AS speaker
ORDER BY speaker
