// A user's verdicts (export, reset, erase).
CREATE RANGE INDEX verdict_user IF NOT EXISTS FOR (v:Verdict) ON (v.tenant_id, v.user_id)
