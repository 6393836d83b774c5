-- Team voters: see the SQLite migration 0022.
CREATE TABLE team_voters (
    game_id BIGINT NOT NULL REFERENCES games(id),
    voter   BIGINT NOT NULL REFERENCES players(id),
    side    TEXT NOT NULL CHECK (side IN ('attackers', 'defenders')),
    PRIMARY KEY (game_id, voter)
);
