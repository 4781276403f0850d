CYPHER replan=skip
// The tenants that hold episodes or facts (lore doctor --all).
CALL {
  MATCH (e:Episode) RETURN DISTINCT e.tenant_id AS tenant_id
  UNION
  MATCH (f:Fact) RETURN DISTINCT f.tenant_id AS tenant_id
}
RETURN tenant_id ORDER BY tenant_id
