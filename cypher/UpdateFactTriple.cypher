CYPHER replan=skip
// Changes what a fact states (its subject, predicate and object) with its
// dedup key and graph edges, and any other field given, and records one
// history event, in one transaction. The caller has checked both ends
// (MergeFactEndpoints) and that no other current fact states the new triple
// (FactTwin); the dedup_key constraint still refuses a racing one.
MATCH (f:Fact {id: $id}) USING INDEX f:Fact(id)
WHERE {{scope "f" .}}
// Bumping the history counter takes the write lock before anything is read,
// so concurrent changes of one memory are numbered in commit order.
SET f.history_seq = coalesce(f.history_seq, 0) + 1
WITH f, f.text AS before
// The old edges go. The user's RELATES edge to the old object loses this
// fact's statements, and goes with the last of them.
OPTIONAL MATCH (old_s:Entity)-[so:SUBJECT_OF]->(f)
OPTIONAL MATCH (f)-[oo:OBJECT]->(old_o:Entity)
OPTIONAL MATCH (:User {tenant_id: f.tenant_id, user_id: f.user_id})-[old_r:RELATES {kind: f.predicate}]->(old_o)
WHERE old_s.type = 'user'
FOREACH (x IN CASE WHEN old_r IS NULL THEN [] ELSE [old_r] END | SET x.count = x.count - f.count)
FOREACH (x IN CASE WHEN old_r IS NOT NULL AND old_r.count <= 0 THEN [old_r] ELSE [] END | DELETE x)
FOREACH (x IN CASE WHEN so IS NULL THEN [] ELSE [so] END | DELETE x)
FOREACH (x IN CASE WHEN oo IS NULL THEN [] ELSE [oo] END | DELETE x)
WITH DISTINCT f, before
MATCH (s:Entity {id: $subject_id}) USING INDEX s:Entity(id)
OPTIONAL MATCH (o:Entity {id: $object_id}) USING INDEX o:Entity(id)
SET f.subject_id = s.id, f.subject = $subject, f.predicate = $predicate,
    f.object_id = o.id, f.object = $object, f.object_key = $object_key,
    f.text = coalesce($text, f.text),
    f.confidence = coalesce($confidence, f.confidence),
    f.invalid_at = coalesce($invalid_at, f.invalid_at),
    f.expired_at = coalesce($expired_at, f.expired_at),
    f.metadata = coalesce($metadata, f.metadata),
    f.updated_at = $now
SET f.dedup_key = CASE WHEN f.invalid_at IS NULL AND f.expired_at IS NULL THEN $dedup_key ELSE null END
MERGE (s)-[:SUBJECT_OF]->(f)
FOREACH (x IN CASE WHEN o IS NULL THEN [] ELSE [o] END | MERGE (f)-[:OBJECT]->(x))
// A user's own statements about an entity show as (:User)-[:RELATES {kind: predicate}]->(:Entity).
FOREACH (x IN CASE WHEN o IS NOT NULL AND s.type = 'user' AND f.user_id <> '' THEN [o] ELSE [] END |
  MERGE (u:User {tenant_id: f.tenant_id, user_id: f.user_id})
  MERGE (u)-[r:RELATES {kind: f.predicate}]->(x)
  ON CREATE SET r.count = 0, r.first_seen = f.first_seen, r.last_seen = f.last_seen
  SET r.count = r.count + f.count,
      r.first_seen = CASE WHEN f.first_seen < r.first_seen THEN f.first_seen ELSE r.first_seen END,
      r.last_seen = CASE WHEN f.last_seen > r.last_seen THEN f.last_seen ELSE r.last_seen END
)
// The episodes the fact came from mention its new ends.
WITH f, s, o, before
CALL {
  WITH f, s, o
  UNWIND f.source_episode_ids AS source_id
  MATCH (ep:Episode {id: source_id}) USING INDEX ep:Episode(id)
  WHERE ep.tenant_id = f.tenant_id
  MERGE (ep)-[:MENTIONS]->(s)
  FOREACH (x IN CASE WHEN o IS NULL THEN [] ELSE [o] END | MERGE (ep)-[:MENTIONS]->(x))
}
CREATE (h:History)
SET h = $history, h.seq = f.history_seq,
    h.tenant_id = f.tenant_id, h.user_id = f.user_id, h.agent_id = f.agent_id, h.run_id = f.run_id,
    h.before = before, h.after = f.text
RETURN f
