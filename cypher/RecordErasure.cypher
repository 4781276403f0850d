// Records an erase before anything is deleted: the tenant's fence node
// (locked by this write until commit) gets the next sequence number, and
// the Erasure, in progress until FinishErasure, fences every covering write
// from here on (CheckFence). It holds ids, never content.
MERGE (f:EraseFence {tenant_id: $tenant_id})
SET f.seq = coalesce(f.seq, 0) + 1
CREATE (e:Erasure {tenant_id: $tenant_id, user_id: $user_id, agent_id: $agent_id, run_id: $run_id,
                   seq: f.seq, erased_at: $now, done: false})
RETURN e.seq AS seq
