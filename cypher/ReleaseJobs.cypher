// Hands back the running jobs nobody works on (their process restarted, or
// lost the reply to a claim or save), but those in $keep: due now, with the
// attempt their claim spent given back.
MATCH (j:Job {owner: $owner})
WHERE j.status = 'running' AND NOT j.id IN $keep
SET j.status = 'queued',
    j.attempts = CASE WHEN j.attempts > 0 THEN j.attempts - 1 ELSE 0 END,
    j.lease_until = null,
    j.next_run_at = $now,
    j.updated_at = $now,
    j.owner = ''
RETURN count(j) AS released
