// Removes a tenant's claim lock node once the whole tenant is deleted.
MATCH (t:JobTenant {tenant_id: $tenant_id})
DELETE t
