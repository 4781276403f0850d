CREATE INDEX apikey_tenant IF NOT EXISTS FOR (k:APIKey) ON (k.tenant_id)
