MATCH (j:Job {tenant_id: $tenant_id})
WHERE j.status IN ['queued', 'retrying', 'running']
RETURN count(j) AS pending
