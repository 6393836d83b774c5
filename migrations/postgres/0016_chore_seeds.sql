-- Each chore's seed: see the SQLite migration 0016.
ALTER TABLE chores ADD COLUMN seed BIGINT NOT NULL DEFAULT 0;
