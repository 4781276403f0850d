CYPHER replan=skip
// Resolves a fact's subject and object entities inside the fact's namespace,
// so that no fact ever links entities of two users.
OPTIONAL MATCH (s:Entity {id: $subject_id}) USING INDEX s:Entity(id)
WHERE s.tenant_id = $tenant_id AND s.user_id = $user_id AND s.agent_id = $agent_id
OPTIONAL MATCH (o:Entity {id: $object_id}) USING INDEX o:Entity(id)
WHERE o.tenant_id = $tenant_id AND o.user_id = $user_id AND o.agent_id = $agent_id
RETURN s.name AS subject, s.type AS subject_type, o.id AS object_id, o.name AS object
