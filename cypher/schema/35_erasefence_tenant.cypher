CREATE CONSTRAINT erasefence_tenant IF NOT EXISTS FOR (f:EraseFence) REQUIRE f.tenant_id IS UNIQUE
