-- Themes for pictures: see the SQLite migration 0021.
ALTER TABLE players ADD COLUMN theme TEXT;

CREATE TABLE server_settings (
    guild  TEXT PRIMARY KEY,
    theme  TEXT,
    set_by BIGINT REFERENCES players(id),
    set_at BIGINT NOT NULL
);
