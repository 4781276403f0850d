CREATE INDEX profile_history_user IF NOT EXISTS FOR (h:ProfileHistory) ON (h.tenant_id, h.user_id, h.key)
