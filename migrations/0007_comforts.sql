-- Vacation: when the player's vacation began (NULL when they are not on one), and the seconds
-- of vacation used in the year `vacation_year`. While on vacation, the player's clocks stop.
ALTER TABLE players ADD COLUMN vacation_since INTEGER;
ALTER TABLE players ADD COLUMN vacation_used INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN vacation_year INTEGER NOT NULL DEFAULT 0;
CREATE INDEX players_on_vacation ON players (vacation_since) WHERE vacation_since IS NOT NULL;
