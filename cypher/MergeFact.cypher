CYPHER replan=skip
// Adds a fact or merges it into the current fact with the same namespace,
// subject, predicate and object. dedup_key carries a uniqueness constraint,
// so concurrent merges of one statement serialize on its index lock.
MERGE (f:Fact {dedup_key: $dedup_key})
ON CREATE SET f = $fact, f.dedup_key = $dedup_key, f.count = 0, f.source_episode_ids = []
WITH f, f.id = $fact.id AS created
// The history counter numbers this fact's events in commit order.
SET f.history_seq = coalesce(f.history_seq, 0) + 1,
    f.count = f.count + $count,
    f.first_seen = CASE WHEN $fact.first_seen < f.first_seen THEN $fact.first_seen ELSE f.first_seen END,
    f.last_seen = CASE WHEN $fact.last_seen > f.last_seen THEN $fact.last_seen ELSE f.last_seen END,
    f.confidence = CASE WHEN $fact.confidence > f.confidence THEN $fact.confidence ELSE f.confidence END,
    f.source_episode_ids = f.source_episode_ids + [x IN $fact.source_episode_ids WHERE NOT x IN f.source_episode_ids],
    f.updated_at = $fact.updated_at,
    // Expiry: a new fact takes its own; a restatement keeps the later of
    // the two, and none (never) when either has none.
    f.expires_at = CASE WHEN created THEN f.expires_at
                        WHEN f.expires_at IS NULL OR $fact.expires_at IS NULL THEN null
                        WHEN $fact.expires_at > f.expires_at THEN $fact.expires_at
                        ELSE f.expires_at END
// A fact stored already closed never takes part in deduplication.
SET f.dedup_key = CASE WHEN f.invalid_at IS NULL AND f.expired_at IS NULL THEN f.dedup_key ELSE null END
WITH f, created
MATCH (s:Entity {id: f.subject_id}) USING INDEX s:Entity(id)
MERGE (s)-[:SUBJECT_OF]->(f)
WITH f, created, s
OPTIONAL MATCH (o:Entity {id: f.object_id}) USING INDEX o:Entity(id)
FOREACH (x IN CASE WHEN o IS NULL THEN [] ELSE [o] END | MERGE (f)-[:OBJECT]->(x))
// The episodes a fact came from mention its entities.
WITH f, created, s, o
CALL {
  WITH f, s, o
  UNWIND $fact.source_episode_ids AS source_id
  MATCH (ep:Episode {id: source_id}) USING INDEX ep:Episode(id)
  WHERE ep.tenant_id = f.tenant_id
  MERGE (ep)-[:MENTIONS]->(s)
  FOREACH (x IN CASE WHEN o IS NULL THEN [] ELSE [o] END | MERGE (ep)-[:MENTIONS]->(x))
}
// A user's own statements about an entity show as (:User)-[:RELATES {kind: predicate}]->(:Entity).
FOREACH (x IN CASE WHEN o IS NOT NULL AND s.type = 'user' AND f.user_id <> '' THEN [o] ELSE [] END |
  MERGE (u:User {tenant_id: f.tenant_id, user_id: f.user_id})
  MERGE (u)-[r:RELATES {kind: f.predicate}]->(x)
  ON CREATE SET r.count = 0, r.first_seen = $fact.first_seen, r.last_seen = $fact.last_seen
  SET r.count = r.count + $count,
      r.first_seen = CASE WHEN $fact.first_seen < r.first_seen THEN $fact.first_seen ELSE r.first_seen END,
      r.last_seen = CASE WHEN $fact.last_seen > r.last_seen THEN $fact.last_seen ELSE r.last_seen END
)
CREATE (h:History)
SET h = $history, h.seq = f.history_seq,
    h.memory_id = f.id,
    h.tenant_id = f.tenant_id, h.user_id = f.user_id, h.agent_id = f.agent_id, h.run_id = f.run_id,
    h.event = CASE WHEN created THEN 'ADD' ELSE 'MERGE' END,
    h.after = f.text
RETURN f, created
