-- A server against another: the channel where a server is challenged (its home for team games),
-- and the challenges between servers.
--
-- `team_homes`: where a server's managers see the challenges of other servers, and where its
-- thread of a game between servers is opened. Set by a manager with `/teamgame home`, with the
-- role to ping (`ping_role`, or none) when the server's window in such a game is about to close.
CREATE TABLE team_homes (
    guild     TEXT PRIMARY KEY,
    channel   TEXT NOT NULL,
    ping_role TEXT,
    set_by   INTEGER REFERENCES players(id),
    set_at   INTEGER NOT NULL
);

-- `team_challenges`: server `from_guild` challenges server `to_guild`. The names are as Discord
-- gave them when the challenge was made; `from_channel` is where the challenger's thread is
-- opened, `to_channel` the other server's home, where the challenge is shown. `side` is the side the
-- challenging server asked for. `answered_by` and `answered_at`: the manager who answered, and
-- when (a declined challenge keeps its challenger away for a day from then). On acceptance
-- `game_id` is the game begun.
CREATE TABLE team_challenges (
    id           INTEGER PRIMARY KEY,
    from_guild   TEXT NOT NULL,
    from_name    TEXT NOT NULL,
    from_channel TEXT,
    to_guild     TEXT NOT NULL,
    to_name      TEXT NOT NULL,
    to_channel   TEXT NOT NULL,
    variant      TEXT NOT NULL,
    side         TEXT NOT NULL CHECK (side IN ('attackers', 'defenders', 'random')),
    hours        INTEGER NOT NULL,
    challenger   INTEGER NOT NULL REFERENCES players(id),
    status       TEXT NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn')),
    answered_by  INTEGER REFERENCES players(id),
    answered_at  INTEGER,
    game_id      INTEGER REFERENCES games(id),
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL
);
CREATE INDEX team_challenges_open ON team_challenges (status, to_guild, from_guild);

-- The role pinged before a side's window closes where it is not the role that votes: a whole
-- server's team in a game between servers pings the role its home names.
ALTER TABLE team_sides ADD COLUMN ping_role TEXT;
