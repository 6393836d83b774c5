-- Games against taflbot's engine: the level it plays at (1 to 5) and whether it plays the
-- attackers (Red in Save the Standard). NULL in games between people. Bot games are never rated.
ALTER TABLE games ADD COLUMN bot_level INTEGER CHECK (bot_level BETWEEN 1 AND 5);
ALTER TABLE games ADD COLUMN bot_attacks INTEGER;
CREATE INDEX games_bot ON games (status, bot_level);
