-- The correspondence player's tools.
--
-- `forecasts`: a player's lines of moves in a game, each beginning with the opponent's move at
-- ply `ply` (the game's move count when it is played) and alternating from there; `moves` are
-- canonical, separated by spaces. When the opponent plays a line's first move, its second is
-- played at once in the player's name and the line goes on two plies later; any other move ends
-- the line.
CREATE TABLE forecasts (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    player      INTEGER NOT NULL REFERENCES players(id),
    ply         INTEGER NOT NULL,
    moves       TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX forecasts_of_game ON forecasts (game_id, player);

-- `notes`: a player's private note on a game, kept after it ends.
CREATE TABLE notes (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    player      INTEGER NOT NULL REFERENCES players(id),
    text        TEXT NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, player)
);

-- More time given on a move: the move count when it was given (once a turn).
ALTER TABLE games ADD COLUMN more_time_at INTEGER;
-- Whether any forecast is kept in the game: a move in a game without one looks no further.
ALTER TABLE games ADD COLUMN forecasting INTEGER NOT NULL DEFAULT 0;

-- Notices of a reply played from a forecast and of more time given: the kinds' check is widened
-- (SQLite rebuilds the table for that).
CREATE TABLE notices_new (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games(id),
    kind          TEXT NOT NULL CHECK (kind IN ('started', 'moved', 'turn_ended', 'resigned',
                  'aborted', 'draw_offered', 'draw_agreed', 'draw_declined', 'reminder', 'timeout',
                  'update', 'takeback_asked', 'takeback_accepted', 'takeback_declined',
                  'tournament', 'forecast', 'more_time')),
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
