-- Each chore's seed, drawn once by the process that first names it: the corpus's puzzles are cut
-- in an order of the database's own, so that a puzzle's number says nothing of its solution.
-- 0 keeps the corpus's order (a database that began cutting before seeds).
ALTER TABLE chores ADD COLUMN seed INTEGER NOT NULL DEFAULT 0;
