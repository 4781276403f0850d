// The verdicts a scope contains, oldest first (export, backfill).
MATCH (v:Verdict)
WHERE {{ns "v" .}}
RETURN v
ORDER BY v.created_at, v.id
