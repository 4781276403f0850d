// One page of the verdicts a scope contains, newest first (GET
// /v1/users/{id}/feedback): older than the cursor ($before_at, $before_id)
// when $before_at is set.
MATCH (v:Verdict)
WHERE {{ns "v" .}}
  AND ($before_at IS NULL OR v.created_at < $before_at OR (v.created_at = $before_at AND v.id < $before_id))
RETURN v
ORDER BY v.created_at DESC, v.id DESC
LIMIT $limit
