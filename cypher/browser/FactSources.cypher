// The sources of a fact: the episodes (turns) it was extracted from, when
// they were said and by whom. An episode deleted later leaves its id in
// source_episode_ids and nulls in its row.
MATCH (f:Fact {id: $fact})
WHERE f.tenant_id = $tenant AND f.user_id = $user
UNWIND f.source_episode_ids AS source_id
OPTIONAL MATCH (ep:Episode {id: source_id})
WHERE ep.tenant_id = f.tenant_id
RETURN f.text AS fact, source_id, ep.occurred_at AS said_at, ep.role AS role, ep.speaker AS speaker,
       ep.source_id AS caller_id, ep.content AS content
ORDER BY said_at
