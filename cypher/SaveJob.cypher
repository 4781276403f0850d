CYPHER replan=skip
MATCH (j:Job {id: $id, tenant_id: $tenant_id}) USING INDEX j:Job(id)
SET j.status = $status,
    j.attempts = $attempts,
    j.max_attempts = $max_attempts,
    j.error = $error,
    j.events = $events,
    j.next_run_at = $next_run_at,
    j.lease_until = $lease_until,
    j.updated_at = $updated_at
RETURN j
