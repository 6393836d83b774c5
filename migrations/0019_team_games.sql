-- Team games: a game whose sides are teams, each of its turns a window of votes.
--
-- The games row is the game, as every game is: its players are the teams (players whose key
-- begins `team:`), or a team and taflbot. `vote_window` is the length of a turn in seconds; the
-- game's deadline is then the end of the window open now.
ALTER TABLE games ADD COLUMN vote_window INTEGER;

-- `team_sides`: who votes for a side. The members of `guild`, those holding `role` where it is
-- set. A server against another plays in a thread of each (`channel`, `thread`: the side's own,
-- where the game's own are the other side's). `captain` may close a window early, as the
-- server's managers may. `ping`: whether the role is pinged when a window is about to close.
-- `empty`: the windows in a row that closed without a vote. `count_message` is the post that
-- shows how many voted in the window of ply `count_ply`.
CREATE TABLE team_sides (
    game_id       INTEGER NOT NULL REFERENCES games(id),
    side          TEXT NOT NULL CHECK (side IN ('attackers', 'defenders')),
    guild         TEXT NOT NULL,
    role          TEXT,
    captain       INTEGER REFERENCES players(id),
    ping          INTEGER NOT NULL DEFAULT 0,
    channel       TEXT,
    thread        TEXT,
    empty         INTEGER NOT NULL DEFAULT 0,
    count_message TEXT,
    count_ply     INTEGER,
    PRIMARY KEY (game_id, side)
);
CREATE INDEX team_sides_guild ON team_sides (guild);

-- `team_votes`: a member's vote in the window of ply `ply`: the whole turn, its moves canonical
-- and separated by spaces. One vote per member and window; a changed vote is a new row, so the
-- order of the ids is the order in which the votes stand.
CREATE TABLE team_votes (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games(id),
    ply       INTEGER NOT NULL,
    voter     INTEGER NOT NULL REFERENCES players(id),
    turn      TEXT NOT NULL,
    cast_at   INTEGER NOT NULL,
    UNIQUE (game_id, ply, voter)
);

-- Notices of a window closed (its turn played, with the tally) and of one closed without a vote:
-- the kinds' check is widened (SQLite rebuilds the table for that).
CREATE TABLE notices_new (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games(id),
    kind          TEXT NOT NULL CHECK (kind IN ('started', 'moved', 'turn_ended', 'resigned',
                  'aborted', 'draw_offered', 'draw_agreed', 'draw_declined', 'reminder', 'timeout',
                  'update', 'takeback_asked', 'takeback_accepted', 'takeback_declined',
                  'tournament', 'forecast', 'more_time', 'voted', 'no_votes')),
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
