CREATE RANGE INDEX history_user IF NOT EXISTS FOR (h:History) ON (h.tenant_id, h.user_id)
