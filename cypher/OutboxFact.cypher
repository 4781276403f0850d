CYPHER replan=skip
// A fact about to go, for its outbox entries: its scope and its source
// episodes, whose index documents quote its sentence.
MATCH (f:Fact {id: $id}) USING INDEX f:Fact(id)
WHERE {{scope "f" .}}
RETURN f.tenant_id AS tenant_id, f.user_id AS user_id, f.agent_id AS agent_id, f.run_id AS run_id,
       f.source_episode_ids AS sources
