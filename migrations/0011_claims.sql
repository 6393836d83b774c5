-- Work that several processes sharing the database could each pick up is claimed first, for a
-- while (a lease, in Unix seconds): a kept notice by the process delivering it, and the bot's turn
-- in a game by the process searching it. NULL: nobody holds it. A process that dies while holding
-- a claim leaves the work to another once the lease has run out.
ALTER TABLE notices ADD COLUMN claimed_until INTEGER;
ALTER TABLE games ADD COLUMN bot_claimed_until INTEGER;
