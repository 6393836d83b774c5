-- A player's hours: their time zone (an IANA name; UTC when none), quiet hours (from the hour
-- `quiet_from` to `quiet_to`, local), and the hour of a daily digest with the moment it is next
-- due (claimed by moving it on, so that one process sends it).
ALTER TABLE players ADD COLUMN zone TEXT;
ALTER TABLE players ADD COLUMN quiet_from INTEGER;
ALTER TABLE players ADD COLUMN quiet_to INTEGER;
ALTER TABLE players ADD COLUMN digest_hour INTEGER;
ALTER TABLE players ADD COLUMN digest_due INTEGER;

-- What quiet hours held back from a player (a turn, a reminder), said in one message when they
-- end.
CREATE TABLE held (
    id          INTEGER PRIMARY KEY,
    player      INTEGER NOT NULL REFERENCES players(id),
    game_id     INTEGER NOT NULL REFERENCES games(id),
    reminder    INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
);
CREATE INDEX held_of_player ON held (player);
