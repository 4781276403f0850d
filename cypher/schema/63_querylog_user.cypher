CREATE INDEX query_log_user IF NOT EXISTS FOR (q:QueryLog) ON (q.tenant_id, q.user_id, q.created_at)
