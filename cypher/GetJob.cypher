CYPHER replan=skip
MATCH (j:Job {id: $id}) USING INDEX j:Job(id)
WHERE j.tenant_id = $tenant_id
RETURN j
