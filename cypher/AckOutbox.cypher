CYPHER replan=skip
// Deletes the outbox entries a write recorded under its tag for memories
// whose index documents it has written itself.
MATCH (o:OutboxEntry {tag: $tag})
WHERE o.memory_id IN $ids
DELETE o
