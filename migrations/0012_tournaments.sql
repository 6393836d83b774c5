-- Tournaments of two-game matches (round robin, Swiss, knockout), run by the bot. A tournament
-- belongs to a server (guild NULL: the local mode); its entrants are seeded by rating when it
-- starts; each match is a pair of ordinary games with the sides swapped (a bye has no games).
-- `stage` is the round paired last: the next round is paired once, by the one write that moves
-- it on.
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    guild        TEXT,
    channel      TEXT,
    thread       TEXT,
    name         TEXT NOT NULL,
    variant      TEXT NOT NULL,
    format       TEXT NOT NULL CHECK (format IN ('round_robin', 'swiss', 'knockout')),
    days         INTEGER NOT NULL,
    rated        INTEGER NOT NULL,
    rounds       INTEGER NOT NULL,
    max_players  INTEGER NOT NULL,
    creator      INTEGER NOT NULL REFERENCES players(id),
    status       TEXT NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    stage        INTEGER NOT NULL DEFAULT 0,
    winner       INTEGER REFERENCES players(id),
    created_at   INTEGER NOT NULL,
    started_at   INTEGER,
    finished_at  INTEGER
);
CREATE INDEX tournaments_open ON tournaments (guild, status);

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player        INTEGER NOT NULL REFERENCES players(id),
    seed          INTEGER,
    rating        REAL,
    joined_at     INTEGER NOT NULL,
    withdrawn_at  INTEGER,
    PRIMARY KEY (tournament_id, player)
);

CREATE TABLE tournament_matches (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    section       INTEGER NOT NULL DEFAULT 0,
    first         INTEGER NOT NULL REFERENCES players(id),
    second        INTEGER REFERENCES players(id),
    game_one      INTEGER REFERENCES games(id),
    game_two      INTEGER REFERENCES games(id),
    UNIQUE (tournament_id, round, first, second)
);

ALTER TABLE games ADD COLUMN tournament_id INTEGER REFERENCES tournaments(id);
CREATE INDEX games_tournament ON games (tournament_id, status);
