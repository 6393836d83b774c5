-- Claims with a lease on kept notices and on the bot's turns: see the SQLite migration 0011.
ALTER TABLE notices ADD COLUMN claimed_until BIGINT;
ALTER TABLE games ADD COLUMN bot_claimed_until BIGINT;
