// Marks the erasures of one scope up to $seq done once every batch of its
// erase is deleted; an erase that stopped half-way is finished by the next
// erase of the same scope.
MATCH (e:Erasure {tenant_id: $tenant_id})
WHERE e.done = false AND e.seq <= $seq
  AND e.user_id = $user_id AND e.agent_id = $agent_id AND e.run_id = $run_id
SET e.done = true
