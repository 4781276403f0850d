// Speakers of a user: a handful of nodes per user, found without scanning
// every user's.
CREATE RANGE INDEX speaker_user IF NOT EXISTS FOR (s:Speaker) ON (s.tenant_id, s.user_id)
