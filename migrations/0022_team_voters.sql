-- `team_voters`: the side each person votes for in a team game, the first they voted for. A
-- member of both servers of a game between servers (or one whose roles changed) votes for that
-- side only, so that no one person plays both sides.
CREATE TABLE team_voters (
    game_id INTEGER NOT NULL REFERENCES games(id),
    voter   INTEGER NOT NULL REFERENCES players(id),
    side    TEXT NOT NULL CHECK (side IN ('attackers', 'defenders')),
    PRIMARY KEY (game_id, voter)
);
