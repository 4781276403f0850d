CREATE RANGE INDEX fact_user IF NOT EXISTS FOR (f:Fact) ON (f.tenant_id, f.user_id)
