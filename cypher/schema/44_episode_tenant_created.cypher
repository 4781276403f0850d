// The raw-text retention pass finds a tenant's oldest stored episodes.
CREATE RANGE INDEX episode_tenant_created IF NOT EXISTS FOR (e:Episode) ON (e.tenant_id, e.created_at)
