// The facts of the graph a scope reads, for RewriteNames.
MATCH (f:Fact)
WHERE {{ns "f" .}}
RETURN f.id AS id, f.tenant_id AS tenant_id, f.user_id AS user_id, f.agent_id AS agent_id,
       f.subject_id AS subject_id, f.predicate AS predicate, f.subject AS subject,
       coalesce(f.object_id, '') AS object_id, f.object AS object
