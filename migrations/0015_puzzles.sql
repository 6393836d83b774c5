-- Puzzles: positions where the side to move wins by force, cut from recorded games (the corpus
-- taflbot carries, a file imported, or a server's own finished games). `position` is written as
-- `taflbot replay --position` reads it; `solution` is its turns, solver's first, separated by
-- spaces. A puzzle cut from a game here belongs to that game's server (`guild`) and is seen only
-- there; the others (`guild` NULL) are everyone's. Each puzzle is rated as players are (Glicko-2).
CREATE TABLE puzzles (
    id          INTEGER PRIMARY KEY,
    variant     TEXT NOT NULL,
    position    TEXT NOT NULL,
    solution    TEXT NOT NULL,
    theme       TEXT NOT NULL,
    game_id     INTEGER REFERENCES games(id),
    guild       TEXT,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    tries       INTEGER NOT NULL DEFAULT 0,
    solves      INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    UNIQUE (variant, position)
);
CREATE INDEX puzzles_by_rating ON puzzles (variant, rating);

-- A player's tries: `step` counts the solver's moves found so far; a player has at most one open
-- try. Only a player's first try at a puzzle is rated (`rated`).
CREATE TABLE puzzle_tries (
    player_id  INTEGER NOT NULL REFERENCES players(id),
    puzzle_id  INTEGER NOT NULL REFERENCES puzzles(id),
    step       INTEGER NOT NULL DEFAULT 0,
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'solved', 'failed')),
    rated      INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at   INTEGER,
    PRIMARY KEY (player_id, puzzle_id)
);
CREATE UNIQUE INDEX puzzle_tries_open ON puzzle_tries (player_id) WHERE status = 'open';

-- Each player's puzzle rating (one for all variants), and when it last changed (its deviation
-- grows with time away, as a game rating's does).
CREATE TABLE puzzle_ratings (
    player_id  INTEGER PRIMARY KEY REFERENCES players(id),
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    rated_at   INTEGER NOT NULL,
    tries      INTEGER NOT NULL DEFAULT 0,
    solves     INTEGER NOT NULL DEFAULT 0
);

-- The servers that asked for a daily puzzle, and where (`channel`; NULL once stopped, the row
-- kept so that starting again neither posts a day twice nor begins the puzzles anew).
-- `posted_day` is the latest day (days since 1970, UTC) whose puzzle is out, and `puzzle_id` the
-- latest puzzle posted (or skipped); a post is claimed for a while (`claimed_until`) by the
-- process making it, and `attempts` counts the failed posts of day `tried_day`.
CREATE TABLE daily_puzzles (
    guild         TEXT PRIMARY KEY,
    channel       TEXT,
    posted_day    INTEGER NOT NULL DEFAULT 0,
    puzzle_id     INTEGER REFERENCES puzzles(id),
    claimed_until INTEGER,
    tried_day     INTEGER NOT NULL DEFAULT 0,
    attempts      INTEGER NOT NULL DEFAULT 0
);

-- Long background work done a batch at a time by whichever process claims it: `done_to` is how
-- far it has come (for the corpus's puzzles, the lines read).
CREATE TABLE chores (
    name          TEXT PRIMARY KEY,
    done_to       INTEGER NOT NULL DEFAULT 0,
    claimed_until INTEGER
);

-- Whether a finished game has been looked at for a puzzle.
ALTER TABLE games ADD COLUMN puzzles_cut INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_uncut ON games (status, puzzles_cut);
