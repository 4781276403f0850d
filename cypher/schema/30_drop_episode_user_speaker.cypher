// Speakers reads Speaker nodes now (27–29); the episode index it used is dropped.
DROP INDEX episode_user_speaker IF EXISTS
