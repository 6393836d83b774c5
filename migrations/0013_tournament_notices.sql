-- A tournament's news (a result with the crosstable, a round paired, the winner) is kept as a
-- notice of the game whose end brought it, of the kind 'tournament', with the tournament's id as
-- its detail: delivered once, in the tournament's thread, by whichever process claims it. The
-- kinds' check is widened (SQLite rebuilds the table for that).
CREATE TABLE notices_new (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games(id),
    kind          TEXT NOT NULL CHECK (kind IN ('started', 'moved', 'turn_ended', 'resigned',
                  'aborted', 'draw_offered', 'draw_agreed', 'draw_declined', 'reminder', 'timeout',
                  'update', 'takeback_asked', 'takeback_accepted', 'takeback_declined',
                  'tournament')),
    actor         INTEGER REFERENCES players(id),
    detail        TEXT,
    created_at    INTEGER NOT NULL,
    delivered_at  INTEGER,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_try_at   INTEGER NOT NULL DEFAULT 0,
    given_up_at   INTEGER,
    claimed_until INTEGER
);
INSERT INTO notices_new (id, game_id, kind, actor, detail, created_at, delivered_at, attempts,
                         next_try_at, given_up_at, claimed_until)
    SELECT id, game_id, kind, actor, detail, created_at, delivered_at, attempts, next_try_at,
           given_up_at, claimed_until FROM notices;
DROP TABLE notices;
ALTER TABLE notices_new RENAME TO notices;
CREATE INDEX notices_pending ON notices (delivered_at, given_up_at, next_try_at);
