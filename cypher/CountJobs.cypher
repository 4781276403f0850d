// Unfinished jobs by state, for the queue-depth gauge; job_status index.
MATCH (j:Job)
WHERE j.status IN ['queued', 'running', 'retrying'] AND ($tenant_id = '' OR j.tenant_id = $tenant_id)
RETURN j.status AS status, count(*) AS n
