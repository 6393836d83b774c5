-- Takebacks: the player who asked to take back their last turn, while the opponent has not
-- answered. Direct messages: whether a player wants their turns and reminders by DM.
-- Continued games: how many of the first moves came from an imported record (never taken back).
ALTER TABLE games ADD COLUMN takeback_by INTEGER REFERENCES players(id);
ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN dm INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN from_moves TEXT;

-- Notices of takebacks: the kinds' check is widened (SQLite rebuilds the table for that).
CREATE TABLE notices_new (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games(id),
    kind         TEXT NOT NULL CHECK (kind IN ('started', 'moved', 'turn_ended', 'resigned',
                 'aborted', 'draw_offered', 'draw_agreed', 'draw_declined', 'reminder', 'timeout',
                 'update', 'takeback_asked', 'takeback_accepted', 'takeback_declined')),
    actor        INTEGER REFERENCES players(id),
    detail       TEXT,
    created_at   INTEGER NOT NULL,
    delivered_at INTEGER,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_try_at  INTEGER NOT NULL DEFAULT 0,
    given_up_at  INTEGER
);
INSERT INTO notices_new (id, game_id, kind, actor, detail, created_at, delivered_at, attempts,
                         next_try_at, given_up_at)
    SELECT id, game_id, kind, actor, detail, created_at, delivered_at, attempts, next_try_at,
           given_up_at FROM notices;
DROP TABLE notices;
ALTER TABLE notices_new RENAME TO notices;
CREATE INDEX notices_pending ON notices (delivered_at, given_up_at, next_try_at);
