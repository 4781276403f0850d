// Deletes one batch of the scope's History nodes; the store repeats it until a
// batch comes back short, so no transaction grows with the scope.
MATCH (n:History)
WHERE {{scope "n" .}}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
