// Deletes one batch of the scope's Speaker nodes. A Speaker node's episodes
// share its tenant, user, agent and run, so the scope holds all of them when
// it holds the node: DeleteScope has deleted them all.
MATCH (s:Speaker)
WHERE {{scope "s" .}}
WITH s LIMIT $batch
DELETE s
RETURN count(*) AS deleted
