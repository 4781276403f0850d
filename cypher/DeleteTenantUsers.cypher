// Removes every user node of a tenant once the whole tenant is deleted.
MATCH (u:User {tenant_id: $tenant_id})
DETACH DELETE u
