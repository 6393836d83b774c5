-- Ratings (Glicko-2) per player and variant. A challenge and its game are rated unless the
-- challenger asked for a friendly game; games from before this column, against the bot or
-- imported are not. Each rated result writes the players' new ratings and the change, in the
-- transaction that writes the result.
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ratings (
    player     INTEGER NOT NULL REFERENCES players(id),
    variant    TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    -- When the player's last rated game in the variant ended: the deviation grows from here.
    rated_at   INTEGER NOT NULL,
    PRIMARY KEY (player, variant)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (variant, rating DESC);

-- Every change, for the result post and the chart of a rating over time.
CREATE TABLE rating_changes (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    player    INTEGER NOT NULL REFERENCES players(id),
    variant   TEXT NOT NULL,
    before    REAL NOT NULL,
    after     REAL NOT NULL,
    deviation REAL NOT NULL,
    at        INTEGER NOT NULL,
    PRIMARY KEY (game_id, player)
) WITHOUT ROWID;
CREATE INDEX rating_changes_history ON rating_changes (player, at);

-- The players of each Discord server's leaderboard: those with a rated game there.
CREATE TABLE server_players (
    guild  TEXT NOT NULL,
    player INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (guild, player)
) WITHOUT ROWID;

-- The side advantage of a variant is estimated from its rated results.
CREATE INDEX games_rated ON games (variant, rated, status);
