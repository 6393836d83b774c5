-- Reviews of finished games, kept once made: asking again costs no engine time. `body` is the
-- review as JSON (each turn's chances before and after, its mark and the better turn).
CREATE TABLE reviews (
    game_id    INTEGER PRIMARY KEY REFERENCES games(id),
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
