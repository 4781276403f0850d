// Runs first in every write made under a fence (lore.WithFence), before
// CheckFence, in the same transaction: it takes the write lock of the
// tenant's fence node, which RecordErasure takes too, so an erase and a
// fenced write never interleave. The counter changes on every call, so the
// write (and its lock) can never be skipped as a no-op.
MERGE (f:EraseFence {tenant_id: $fence_tenant_id})
SET f.writes = coalesce(f.writes, 0) + 1
