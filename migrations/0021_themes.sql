-- Themes for pictures. `players.theme`: the theme a player chose with `/theme` for the pictures
-- made for them (a board they ask for, a review's chart); NULL for the server's default.
-- `server_settings`: what a server's managers chose for the whole server; `theme` is the default
-- for its game threads' pictures and its players' (NULL for classic).
ALTER TABLE players ADD COLUMN theme TEXT;

CREATE TABLE server_settings (
    guild  TEXT PRIMARY KEY,
    theme  TEXT,
    set_by INTEGER REFERENCES players(id),
    set_at INTEGER NOT NULL
);
