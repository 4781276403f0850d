// The retention sweeper finds expired episodes.
CREATE RANGE INDEX episode_expires IF NOT EXISTS FOR (e:Episode) ON (e.expires_at)
