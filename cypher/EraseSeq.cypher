// The sequence number of the tenant's latest erase, 0 when there was none.
OPTIONAL MATCH (f:EraseFence {tenant_id: $tenant_id})
RETURN coalesce(f.seq, 0) AS seq
