// Deletes one batch of the erasures of finished erases recorded before
// $before (lore.ErasureHorizon); one still in progress stays, since it
// fences the writes of its scope until an erase of that scope finishes it.
// The fence node keeps the tenant's sequence (EraseSeq), so no later erase
// numbers below a fence read before it. The store repeats it until a batch
// comes back short.
MATCH (e:Erasure)
WHERE e.erased_at < $before AND e.done = true
WITH e LIMIT $batch
DELETE e
RETURN count(*) AS deleted
