// The speaker names of the episodes a scope reads, for RewriteNames.
MATCH (ep:Episode)
WHERE {{ns "ep" .}} AND coalesce(ep.speaker, '') <> ''
RETURN DISTINCT ep.speaker AS speaker
