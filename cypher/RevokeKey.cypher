// A revoked key keeps its first revocation time.
CYPHER replan=skip
MATCH (k:APIKey {id: $id}) USING INDEX k:APIKey(id)
WHERE $tenant_id = '' OR k.tenant_id = $tenant_id
SET k.revoked_at = coalesce(k.revoked_at, $at)
RETURN k
