// The entities of the graph a scope reads, for RewriteNames.
MATCH (e:Entity)
WHERE {{ns "e" .}}
RETURN e.id AS id, e.name AS name, coalesce(e.aliases, []) AS aliases
