-- Takebacks: the player whose last request was declined, and the number of moves the game had
-- then. The same player may not ask again until a move (or a takeback) changes that number: one
-- request a turn, and a declined turn is not asked again.
ALTER TABLE games ADD COLUMN takeback_declined_by INTEGER REFERENCES players(id);
ALTER TABLE games ADD COLUMN takeback_declined_at INTEGER;
