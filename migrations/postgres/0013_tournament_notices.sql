-- Notices of the kind 'tournament': see the SQLite migration 0013.
ALTER TABLE notices DROP CONSTRAINT notices_kind_check;
ALTER TABLE notices ADD CONSTRAINT notices_kind_check CHECK (kind IN ('started', 'moved',
    'turn_ended', 'resigned', 'aborted', 'draw_offered', 'draw_agreed', 'draw_declined',
    'reminder', 'timeout', 'update', 'takeback_asked', 'takeback_accepted', 'takeback_declined',
    'tournament'));
