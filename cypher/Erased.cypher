// Counts the erasures after $seq, or still in progress, that cover a scope
// (see CheckFence), without taking the fence's lock.
MATCH (e:Erasure {tenant_id: $tenant_id})
WHERE (e.seq > $seq OR e.done = false)
  AND (e.user_id = $user_id OR (e.user_id = '' AND e.agent_id = ''))
  AND (e.agent_id = '' OR e.agent_id = $agent_id)
  AND (e.run_id = '' OR e.run_id = $run_id)
RETURN count(e) AS erased
