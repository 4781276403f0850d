// $tenant_id "" lists every tenant's keys (the CLI's view).
MATCH (k:APIKey)
WHERE $tenant_id = '' OR k.tenant_id = $tenant_id
RETURN k
ORDER BY k.created_at, k.id
