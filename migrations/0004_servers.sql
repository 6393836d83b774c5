-- The Discord server (guild) a challenge was made in and its game is played in; NULL in the local
-- mode and for games from before this column existed (seen everywhere, as they were).
ALTER TABLE challenges ADD COLUMN guild TEXT;
ALTER TABLE games ADD COLUMN guild TEXT;
