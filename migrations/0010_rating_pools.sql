-- Ratings belong to a pool: each Discord server is a community of its own, and a player's rating
-- there is earned in that server's games only (games never cross servers). The local mode and
-- games from before servers were kept share the pool ''. A rating kept before this migration is
-- carried into the pool of each server where its player had a rated game (with that server's
-- count of games), so a player of one server keeps theirs exactly.
CREATE TABLE pool_ratings (
    pool       TEXT NOT NULL,
    player     INTEGER NOT NULL REFERENCES players(id),
    variant    TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    rated_at   INTEGER NOT NULL,
    PRIMARY KEY (pool, player, variant)
) WITHOUT ROWID;

INSERT INTO pool_ratings (pool, player, variant, rating, deviation, volatility, games, rated_at)
SELECT COALESCE(g.guild, ''), r.player, r.variant, r.rating, r.deviation, r.volatility, COUNT(*),
       r.rated_at
FROM ratings r
JOIN rating_changes c ON c.player = r.player AND c.variant = r.variant
JOIN games g ON g.id = c.game_id
GROUP BY COALESCE(g.guild, ''), r.player, r.variant;

DROP INDEX ratings_board;
DROP TABLE ratings;
ALTER TABLE pool_ratings RENAME TO ratings;
CREATE INDEX ratings_board ON ratings (pool, variant, rating DESC);

-- Each change is in the pool of its game.
ALTER TABLE rating_changes ADD COLUMN pool TEXT NOT NULL DEFAULT '';
UPDATE rating_changes
SET pool = COALESCE((SELECT guild FROM games WHERE games.id = rating_changes.game_id), '');

-- A server's leaderboard is its pool: the list of its rated players is no longer needed.
DROP TABLE server_players;

-- A result that would have been rated but was not, because the two players had had as many
-- rated results in a day as count (1), or nothing.
ALTER TABLE games ADD COLUMN pair_limited INTEGER NOT NULL DEFAULT 0;
