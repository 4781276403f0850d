// One claim lock node per tenant (ClaimJob with a per-tenant limit).
CREATE CONSTRAINT jobtenant_id IF NOT EXISTS FOR (t:JobTenant) REQUIRE t.tenant_id IS UNIQUE
