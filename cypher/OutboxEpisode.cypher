CYPHER replan=skip
// An episode about to change or go, for its outbox entries: its scope, its
// content (its index documents follow from it) and the turns just after it
// in its own scope and in its user's (or agent's) conversation, whose
// documents quote the turn before them.
MATCH (e:Episode {id: $id}) USING INDEX e:Episode(id)
WHERE {{scope "e" .}}
RETURN e.tenant_id AS tenant_id, e.user_id AS user_id, e.agent_id AS agent_id, e.run_id AS run_id,
       e.content AS content,
       COLLECT {
         MATCH (n:Episode)
         WHERE n.tenant_id = e.tenant_id AND n.user_id = e.user_id AND n.agent_id = e.agent_id AND n.run_id = e.run_id
           AND n.id <> e.id AND n.occurred_at >= e.occurred_at
           AND (n.occurred_at > e.occurred_at OR n.created_at > e.created_at OR (n.created_at = e.created_at AND n.id > e.id))
         RETURN n.id ORDER BY n.occurred_at, n.created_at, n.id LIMIT 1
       } + COLLECT {
         MATCH (n:Episode)
         WHERE n.tenant_id = e.tenant_id AND n.user_id = e.user_id AND (e.user_id <> '' OR n.agent_id = e.agent_id)
           AND n.id <> e.id AND n.occurred_at >= e.occurred_at
           AND (n.occurred_at > e.occurred_at OR n.created_at > e.created_at OR (n.created_at = e.created_at AND n.id > e.id))
         RETURN n.id ORDER BY n.occurred_at, n.created_at, n.id LIMIT 1
       } AS next
