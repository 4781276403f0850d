// Deletes one batch of the erased scope's pseudonym mappings, never audit
// records. Mappings carry no run, so erasing a run matches none.
MATCH (p:AuditPseudonym)
WHERE {{scope "p" .}}
WITH p LIMIT $batch
DELETE p
RETURN count(*) AS deleted
