MATCH (j:Job {id: $id})
WHERE j.tenant_id = $tenant_id
RETURN j
