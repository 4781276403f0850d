CREATE INDEX erasure_tenant IF NOT EXISTS FOR (e:Erasure) ON (e.tenant_id, e.seq)
