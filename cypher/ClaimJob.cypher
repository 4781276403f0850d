// Takes the oldest due job. The SET/REMOVE pair takes the job's write lock
// before its state is read again, so of two workers that picked the same
// job only the first sees it due; the other gets claimed = false and retries.
// With $max_per_tenant > 0 the tenant's lock node is locked the same way
// before its running jobs are counted, so claims of one tenant from any
// number of processes are serialised and never exceed the limit; a tenant
// at its limit comes back with room = false, to be skipped.
MATCH (j:Job)
WHERE j.status IN ['queued', 'retrying', 'running'] AND NOT j.tenant_id IN $skip_tenants
  AND ((j.status <> 'running' AND j.next_run_at <= $now) OR (j.status = 'running' AND j.lease_until <= $now))
WITH j
ORDER BY j.created_at, j.id
LIMIT 1
CALL {
  WITH j
  WITH j WHERE $max_per_tenant > 0
  MERGE (t:JobTenant {tenant_id: j.tenant_id})
  SET t.claim_lock = true
  REMOVE t.claim_lock
  RETURN count(t) AS locked
}
SET j.claim_lock = true
REMOVE j.claim_lock
WITH j, ((j.status IN ['queued', 'retrying'] AND j.next_run_at <= $now)
         OR (j.status = 'running' AND j.lease_until <= $now)) AS due
CALL {
  WITH j
  OPTIONAL MATCH (r:Job {tenant_id: j.tenant_id})
  WHERE $max_per_tenant > 0 AND r.status = 'running' AND r.lease_until > $now
  RETURN count(r) AS busy
}
WITH j, due, ($max_per_tenant <= 0 OR busy < $max_per_tenant) AS room
FOREACH (_ IN CASE WHEN due AND room THEN [1] ELSE [] END |
  SET j.status = 'running', j.attempts = j.attempts + 1, j.lease_until = $lease_until, j.updated_at = $now,
      j.owner = $owner
)
RETURN j, due AND room AS claimed, room
