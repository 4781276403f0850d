// Takes the oldest due job. The SET/REMOVE pair takes the job's write lock
// before its state is read again, so of two workers that picked the same
// job only the first sees it due; the other gets claimed = false and retries.
MATCH (j:Job)
WHERE j.status IN ['queued', 'retrying', 'running'] AND NOT j.tenant_id IN $skip_tenants
  AND ((j.status <> 'running' AND j.next_run_at <= $now) OR (j.status = 'running' AND j.lease_until <= $now))
WITH j
ORDER BY j.created_at, j.id
LIMIT 1
SET j.claim_lock = true
REMOVE j.claim_lock
WITH j, ((j.status IN ['queued', 'retrying'] AND j.next_run_at <= $now)
         OR (j.status = 'running' AND j.lease_until <= $now)) AS due
FOREACH (_ IN CASE WHEN due THEN [1] ELSE [] END |
  SET j.status = 'running', j.attempts = j.attempts + 1, j.lease_until = $lease_until, j.updated_at = $now,
      j.owner = $owner
)
RETURN j, due AS claimed
