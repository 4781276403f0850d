CREATE RANGE INDEX episode_user IF NOT EXISTS FOR (e:Episode) ON (e.tenant_id, e.user_id)
