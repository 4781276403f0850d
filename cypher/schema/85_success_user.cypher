CREATE RANGE INDEX success_user IF NOT EXISTS FOR (s:Success) ON (s.tenant_id, s.user_id)
