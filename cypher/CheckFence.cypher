// Runs after LockFence in a fenced write's transaction, so it reads the
// erasures committed before the lock was granted: either the write commits
// before the erasure is recorded (and the erase's deletes find it), or it
// sees the erasure here and is refused. An erasure covers the written scope
// when its scope Contains it (lore.Erasure.Covers).
OPTIONAL MATCH (e:Erasure {tenant_id: $fence_tenant_id})
WHERE (e.seq > $fence_seq OR e.done = false)
  AND (e.user_id = $fence_user_id OR (e.user_id = '' AND e.agent_id = ''))
  AND (e.agent_id = '' OR e.agent_id = $fence_agent_id)
  AND (e.run_id = '' OR e.run_id = $fence_run_id)
RETURN count(e) AS erased
