// Renames a speaker in the episodes a scope reads (RewriteNames) and
// returns how many; RewriteSpeakerNodes renames the nodes that count them.
MATCH (ep:Episode)
WHERE {{ns "ep" .}} AND ep.speaker = $old
SET ep.speaker = $new
RETURN count(ep) AS episodes
