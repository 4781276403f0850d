// Stores an entity's rewritten name, normalized name and aliases
// (RewriteNames). The entity_name constraint refuses a name another
// entity of the namespace holds.
MATCH (e:Entity {id: $id}) USING INDEX e:Entity(id)
SET e.name = $name, e.normalized_name = $normalized_name, e.aliases = $aliases
