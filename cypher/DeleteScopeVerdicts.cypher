// Deletes one batch of the scope's Verdict nodes (erase, and for verdicts and
// success rows ResetFeedback); the store repeats it until a batch comes back
// short. Signals are kept per namespace, so an erase naming a run skips it.
MATCH (n:Verdict)
WHERE {{ns "n" .}}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
