// Runs first in EraseSeq's transaction: it takes the write lock of the
// tenant's fence node, which RecordErasure holds until its commit is
// applied, so the statements after it see an erase's new number and its
// erasure together or neither. SET then REMOVE takes the lock and leaves
// nothing to commit (as ClaimJob's claim lock), so the read costs no log
// write; only a tenant's first read creates the node.
MERGE (f:EraseFence {tenant_id: $fence_tenant_id})
SET f.read_lock = true
REMOVE f.read_lock
