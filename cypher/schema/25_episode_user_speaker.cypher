// Speakers runs on every search with the speaker signal: the distinct
// speakers of a user's episodes come from the index's values, not from
// reading every episode.
CREATE RANGE INDEX episode_user_speaker IF NOT EXISTS FOR (e:Episode) ON (e.tenant_id, e.user_id, e.speaker)
