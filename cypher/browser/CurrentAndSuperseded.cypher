// Every fact of a user with its status: current, ended (its invalid_at, the
// world time it stopped being true, has passed) or superseded (its
// expired_at, the system time a newer fact replaced it, is set), current
// first, then the most recently seen.
MATCH (f:Fact)
WHERE f.tenant_id = $tenant AND f.user_id = $user
WITH f, CASE
    WHEN f.expired_at IS NOT NULL AND f.expired_at <= datetime() THEN 'superseded'
    WHEN f.invalid_at IS NOT NULL AND f.invalid_at <= datetime() THEN 'ended'
    ELSE 'current' END AS status
RETURN status, f.text AS fact, f.subject AS subject, f.predicate AS predicate, f.object AS object,
       f.valid_at AS valid_at, f.invalid_at AS invalid_at, f.expired_at AS expired_at,
       f.count AS said, f.last_seen AS last_seen, f.id AS id
ORDER BY CASE status WHEN 'current' THEN 0 WHEN 'ended' THEN 1 ELSE 2 END, f.last_seen DESC
LIMIT $limit
