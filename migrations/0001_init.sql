-- Players, challenges, games and every move. Moves are the truth; games.position is a cache that
-- loading checks by replaying the moves. Times are Unix seconds.

CREATE TABLE players (
    id         INTEGER PRIMARY KEY,
    -- Who the player is to the front end: a Discord user id, or a name in the local mode.
    key        TEXT NOT NULL UNIQUE,
    name       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE challenges (
    id           INTEGER PRIMARY KEY,
    challenger   INTEGER NOT NULL REFERENCES players(id),
    challenged   INTEGER NOT NULL REFERENCES players(id),
    variant      TEXT NOT NULL,
    -- The side the challenger asked for.
    side         TEXT NOT NULL CHECK (side IN ('attackers', 'defenders', 'random')),
    days         INTEGER NOT NULL,
    channel      TEXT,
    status       TEXT NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'expired')),
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    game_id      INTEGER REFERENCES games(id)
);
CREATE INDEX challenges_open ON challenges (status, expires_at);

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    variant       TEXT NOT NULL,
    -- The start position string.
    start         TEXT NOT NULL,
    -- The players by side: the attackers (Red in Save the Standard), the defenders (Gold).
    attacker      INTEGER NOT NULL REFERENCES players(id),
    defender      INTEGER NOT NULL REFERENCES players(id),
    days          INTEGER NOT NULL,
    channel       TEXT,
    thread        TEXT,
    status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'broken')),
    -- ongoing, attackers_won, defenders_won, gold_won, red_won, draw, aborted
    result        TEXT NOT NULL DEFAULT 'ongoing',
    reason        TEXT,
    position      TEXT NOT NULL,
    move_count    INTEGER NOT NULL DEFAULT 0,
    -- The player who offered a draw that is still open.
    draw_offer    INTEGER REFERENCES players(id),
    turn_started  INTEGER NOT NULL,
    deadline      INTEGER NOT NULL,
    remind_at     INTEGER NOT NULL,
    reminded      INTEGER NOT NULL DEFAULT 0,
    broken_reason TEXT,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
CREATE INDEX games_deadline ON games (status, deadline);
CREATE INDEX games_remind ON games (status, reminded, remind_at);
CREATE INDEX games_attacker ON games (attacker, status);
CREATE INDEX games_defender ON games (defender, status);

CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    ply       INTEGER NOT NULL,
    -- A move in canonical form, or 'end' for a berserk chain ended by its player.
    text      TEXT NOT NULL,
    player    INTEGER NOT NULL REFERENCES players(id),
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Messages for the front end that the sweeper or a use case produced, kept until delivered, so
-- that a restart neither loses nor repeats them.
CREATE TABLE notices (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER REFERENCES games(id),
    kind         TEXT NOT NULL,
    text         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    delivered_at INTEGER
);
CREATE INDEX notices_pending ON notices (delivered_at, id);
