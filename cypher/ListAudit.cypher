// $tenant_id and $action '' match any; records come in seq order.
MATCH (a:AuditRecord)
WHERE a.seq > $after
  AND ($tenant_id = '' OR a.tenant_id = $tenant_id)
  AND ($action = '' OR a.action = $action)
RETURN a
ORDER BY a.seq
LIMIT $limit
