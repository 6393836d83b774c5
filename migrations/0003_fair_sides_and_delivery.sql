-- The side of a random challenge is drawn when the challenge is made (from the operating system's
-- randomness) and kept, so that nobody can choose it by the moment they accept. NULL for
-- challenges made before this column existed.
ALTER TABLE challenges ADD COLUMN challenger_attacks INTEGER;
CREATE INDEX challenges_by_challenger ON challenges (challenger, status);

-- Delivery of notices: tries so far, when the next may be made, and when delivery was given up
-- (Discord refused for good: the bot was removed, the channel is gone).
ALTER TABLE notices ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notices ADD COLUMN next_try_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notices ADD COLUMN given_up_at INTEGER;
DROP INDEX notices_pending;
CREATE INDEX notices_pending ON notices (delivered_at, given_up_at, next_try_at);
