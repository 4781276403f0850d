CYPHER replan=skip
// Changes a fact and records one history event in the same transaction. A
// fact that gets closed leaves deduplication, so a later statement of the
// same triple starts a new fact.
MATCH (f:Fact {id: $id}) USING INDEX f:Fact(id)
WHERE {{scope "f" .}}
// Bumping the history counter takes the write lock before anything is read,
// so concurrent changes of one memory are numbered in commit order.
SET f.history_seq = coalesce(f.history_seq, 0) + 1
WITH f, f.text AS before
SET f.text = coalesce($text, f.text),
    f.confidence = coalesce($confidence, f.confidence),
    f.invalid_at = coalesce($invalid_at, f.invalid_at),
    f.expired_at = coalesce($expired_at, f.expired_at),
    f.metadata = coalesce($metadata, f.metadata),
    f.source_episode_ids = coalesce(f.source_episode_ids, []) + [ep IN $add_sources WHERE NOT ep IN coalesce(f.source_episode_ids, [])],
    f.updated_at = $now
SET f.dedup_key = CASE WHEN f.invalid_at IS NULL AND f.expired_at IS NULL THEN f.dedup_key ELSE null END
CREATE (h:History)
SET h = $history, h.seq = f.history_seq,
    h.tenant_id = f.tenant_id, h.user_id = f.user_id, h.agent_id = f.agent_id, h.run_id = f.run_id,
    h.before = before, h.after = f.text
RETURN f
