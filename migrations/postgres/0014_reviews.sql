-- Reviews of finished games: see the SQLite migration 0014.
CREATE TABLE reviews (
    game_id    BIGINT PRIMARY KEY REFERENCES games(id),
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
