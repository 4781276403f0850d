// The sequence number a writer starting now fences itself with: the
// tenant's latest erase, or, while erases are in progress, the one before
// the oldest of them, so that a job that loads records an erase has yet to
// delete is refused even after that erase is done. Runs after LockFence in
// the same transaction: without the lock a read could see RecordErasure's
// new number on the fence node before the erasure node it creates.
OPTIONAL MATCH (f:EraseFence {tenant_id: $tenant_id})
OPTIONAL MATCH (e:Erasure {tenant_id: $tenant_id})
WHERE e.done = false
WITH f, min(e.seq) AS pending
RETURN coalesce(pending - 1, f.seq, 0) AS seq
