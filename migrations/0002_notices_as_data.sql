-- Notices keep data, not text: what happened (kind), in which game, by or for whom (actor), and
-- the move (detail). The sentence is made when a notice is delivered, in the front end's style.
-- Delivered notices are not kept; pending ones of the old form are delivered as the state of
-- their game ('update').

CREATE TABLE notices_data (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games(id),
    kind         TEXT NOT NULL CHECK (kind IN ('started', 'moved', 'turn_ended', 'resigned',
                 'aborted', 'draw_offered', 'draw_agreed', 'draw_declined', 'reminder', 'timeout',
                 'update')),
    actor        INTEGER REFERENCES players(id),
    detail       TEXT,
    created_at   INTEGER NOT NULL,
    delivered_at INTEGER
);

INSERT INTO notices_data (id, game_id, kind, created_at)
    SELECT id, game_id, 'update', created_at FROM notices
    WHERE delivered_at IS NULL AND game_id IS NOT NULL;

DROP TABLE notices;
ALTER TABLE notices_data RENAME TO notices;
CREATE INDEX notices_pending ON notices (delivered_at, id);
