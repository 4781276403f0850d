// One entity per normalized name in a namespace: concurrent MERGEs of one
// name serialize on this constraint instead of creating twins.
CREATE CONSTRAINT entity_name IF NOT EXISTS
FOR (e:Entity) REQUIRE (e.tenant_id, e.user_id, e.agent_id, e.normalized_name) IS UNIQUE
