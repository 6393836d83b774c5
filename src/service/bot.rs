//! Games against taflbot's engine. A challenge to the bot starts the game at once. The bot's turns
//! are thought on the blocking pool, a few games at a time, never on the path of a command: the
//! player's move is answered, and the bot's turn follows as a notice, stored with its moves in one
//! transaction, so that a restart neither loses nor repeats it. A restart finds the games where
//! the bot is to move and plays them. A hint is the engine's suggestion, in a game against the bot
//! or a finished one, never in a game between people that is still going.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use sqlx::AnyConnection;

use super::begin::NewGame;
use super::challenges::{self, Terms};
use super::load::Loaded;
use super::rows::Flag;
use super::thinking::{HintPlace, Work};
use super::{Delivery, GameView, Lease, News, Notice, Person, Service, ServiceError};
use crate::engine::{self, Settings, Step, LEVELS};
use crate::notation::canonical;
use crate::rules::{Game, Side, Turn, Variant};

/// The most games one player may have going against the bot at once.
pub const MAX_BOT_GAMES: i64 = 3;

/// The engine's settings for hints: the strongest level.
const HINT_LEVEL: u8 = 5;

/// What the engine suggests in a game.
#[derive(Clone, Debug)]
pub struct Hint {
    pub game: i64,
    pub variant: &'static Variant,
    /// The side the hint is for.
    pub side: Side,
    /// The suggested turn's number, as the record numbers it.
    pub number: crate::notation::TurnNumber,
    /// The suggested turn, in canonical text.
    pub turn: Vec<String>,
    /// The line the engine expects, from the suggested turn on.
    pub line: Vec<String>,
    /// The score for that side in hundredths of a man, when no forced result is seen: the steady
    /// score, as a review reads a position.
    pub score: Option<i32>,
    /// The side's own moves to a forced win (positive) or loss (negative).
    pub won_in: Option<i32>,
    /// For a game ended on the board: the hint is for the position before its last turn.
    pub before_the_end: bool,
    /// The game is over (by the board, or by resignation, agreement or time: then the hint is
    /// for its final position).
    pub finished: bool,
}

/// The bot's turn played: its notice, then those of the replies that the player's forecasts
/// played at once after it. This process holds them all, to deliver in that order.
#[derive(Debug)]
pub struct BotMoved {
    pub notice: Notice,
    pub forecast: Vec<Notice>,
}

/// What the engine chose for the bot in a game, and the game's history it chose it for.
#[derive(Clone, Debug)]
pub struct BotThought {
    game: i64,
    searched: Vec<Turn>,
    turn: Vec<Step>,
    /// This process's claim on the turn: released only while it is still ours.
    claim: Lease,
}

/// Where games for the bot to move are announced to the task that plays them.
#[derive(Default)]
pub(super) struct BotQueue {
    sender: Mutex<Option<tokio::sync::mpsc::UnboundedSender<i64>>>,
}

impl BotQueue {
    fn wake(&self, game: i64) {
        if let Some(sender) = self
            .sender
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            let _ = sender.send(game);
        }
    }
}

impl Service {
    /// Starts a game against the bot (`bot` is how the front end names it) at once, on the terms
    /// of a challenge (never rated, never continued) at `level` (the default when none).
    pub async fn play_bot(
        &self,
        from: &Person,
        bot: &Person,
        terms: &Terms<'_>,
        level: Option<u8>,
        channel: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        let level = level.unwrap_or(engine::DEFAULT_LEVEL);
        if !LEVELS.contains(&level) {
            return Err(ServiceError::BadLevel(level));
        }
        if terms.from.is_some() {
            return Err(ServiceError::ContinuedForBot);
        }
        let variant = terms.variant;
        let (days, human_attacks) = challenges::terms(from, bot, terms.side, terms.days)?;
        let mut tx = self.write().await?;
        let human = self.player_id(&mut tx, from).await?;
        let machine = self.player_id(&mut tx, bot).await?;
        let going: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE status = 'active' AND bot_level IS NOT NULL
               AND (attacker = $1 OR defender = $2)",
        )
        .bind(human)
        .bind(human)
        .fetch_one(&mut *tx)
        .await?;
        if going >= MAX_BOT_GAMES {
            return Err(ServiceError::TooManyBotGames(MAX_BOT_GAMES));
        }
        let (attacker, defender) = if human_attacks {
            (human, machine)
        } else {
            (machine, human)
        };
        let id = self
            .begin_game(
                &mut tx,
                &NewGame {
                    guild: self.scope.guild(),
                    channel,
                    bot: Some((level, !human_attacks)),
                    ..NewGame::new(variant, attacker, defender, days as i64)
                },
            )
            .await?;
        let loaded = self.load(&mut tx, id).await?;
        tx.commit().await?;
        // The front end wakes the bot once it has shown the game (see `wake_bot`).
        Ok(loaded.view())
    }

    /// Tells the bot's task that it may be its turn in this game (after a move, this is done by
    /// the move; a new game is woken by the front end once it is shown).
    pub fn wake_bot(&self, view: &GameView) {
        if let (Some((side, _)), Some(_)) = (view.bot, &view.waiting_for) {
            if view.to_move == side {
                self.bot.wake(view.id);
            }
        }
    }

    /// The games where the bot is to move.
    pub async fn bot_games_due(&self) -> Result<Vec<i64>, ServiceError> {
        let rows: Vec<(i64, String, Flag)> = sqlx::query_as(
            "SELECT id, position, bot_attacks FROM games
             WHERE status = 'active' AND bot_level IS NOT NULL ORDER BY updated_at",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .filter(|(_, position, bot_attacks)| {
                // The side letter of the stored position: attackers (`a`) or Red (`r`).
                let attackers = matches!(position.split_whitespace().nth(1), Some("a" | "r"));
                attackers == bot_attacks.0
            })
            .map(|(id, _, _)| id)
            .collect())
    }

    /// Plays the bot's turn in a game where it is to move, and returns the notice of it (which is
    /// stored with the moves). Nothing when it is not the bot's turn, or the game changed while
    /// the bot thought (it is then asked again).
    pub async fn bot_turn(&self, id: i64) -> Result<Option<BotMoved>, ServiceError> {
        match self.bot_think(id).await? {
            Some(thought) => self.bot_play(thought).await,
            None => Ok(None),
        }
    }

    /// Claims the bot's turn in game `id` for this process until the lease runs out: whether no
    /// other process holds it. A process that dies while searching leaves the turn to the others
    /// once its lease has run out.
    async fn claim_bot_turn(&self, id: i64) -> Result<Option<Lease>, ServiceError> {
        let lease = self.new_lease();
        // One statement, so one claimer wins: on PostgreSQL a second waits for the first's row
        // lock and then finds the claim taken; on SQLite writes are one at a time.
        let claimed = sqlx::query(
            "UPDATE games SET bot_claimed_until = $1
             WHERE id = $2 AND status = 'active'
               AND (bot_claimed_until IS NULL OR bot_claimed_until <= $3)",
        )
        .bind(lease.until)
        .bind(id)
        .bind(lease.now)
        .execute(&self.pool)
        .await?;
        Ok((claimed.rows_affected() == 1).then_some(lease))
    }

    /// Gives up this process's claim `lease`, unless it ran out and another
    /// process holds the turn now: so that the turn is tried again at once, not after the lease.
    async fn release_bot_turn(
        &self,
        conn: &mut AnyConnection,
        id: i64,
        lease: Lease,
    ) -> Result<(), ServiceError> {
        sqlx::query(
            "UPDATE games SET bot_claimed_until = NULL WHERE id = $1 AND bot_claimed_until = $2",
        )
        .bind(id)
        .bind(lease.until)
        .execute(conn)
        .await?;
        Ok(())
    }

    /// The first half of the bot's turn: the engine's choice in game `id`, for the game as it
    /// stands now. Nothing when it is not the bot's turn.
    pub async fn bot_think(&self, id: i64) -> Result<Option<BotThought>, ServiceError> {
        let (game, level, count) = {
            let mut conn = self.pool.acquire().await?;
            let loaded = self.load(&mut conn, id).await?;
            let Some((side, level)) = loaded.row.bot() else {
                return Ok(None);
            };
            if loaded.ensure_active().is_err() || loaded.game.position().turn() != side {
                return Ok(None);
            }
            (loaded.game, level, loaded.row.move_count)
        };
        let Some(claim) = self.claim_bot_turn(id).await? else {
            // Another process is searching it.
            return Ok(None);
        };
        let seed = id as u64 ^ (count as u64) << 32;
        let searched = game.turns().to_vec();
        let thought = self
            .thinking
            .turn(move || engine::think(&game, &Settings::level(level, seed)))
            .await
            .and_then(|t| t.map_err(|e| ServiceError::Internal(e.to_string())));
        let thought = match thought {
            Ok(thought) => thought,
            Err(e) => {
                if let Ok(mut conn) = self.pool.acquire().await {
                    let _ = self.release_bot_turn(&mut conn, id, claim).await;
                }
                return Err(e);
            }
        };
        Ok(Some(BotThought {
            game: id,
            searched,
            turn: thought.turn,
            claim,
        }))
    }

    /// The second half of the bot's turn: plays and stores what it chose, with the notice of it.
    /// Nothing when the game is no longer as the bot found it (a takeback and another move leave
    /// as many moves but another position): the bot is then asked to think again.
    pub async fn bot_play(&self, thought: BotThought) -> Result<Option<BotMoved>, ServiceError> {
        let id = thought.game;
        let now = self.now();
        let mut tx = self.write().await?;
        let mut loaded = self.load(&mut tx, id).await?;
        let side = match loaded.row.bot() {
            Some((side, _))
                if loaded.game.turns() == thought.searched.as_slice()
                    && loaded.ensure_active().is_ok() =>
            {
                side
            }
            _ => {
                self.release_bot_turn(&mut tx, id, thought.claim).await?;
                tx.commit().await?;
                return Ok(None);
            }
        };
        let mut stored = Vec::new();
        let mut written = Vec::new();
        for &step in &thought.turn {
            match step {
                Step::Move(m) => {
                    let text = canonical(loaded.game.position(), m);
                    loaded
                        .game
                        .play(m)
                        .map_err(|e| ServiceError::Internal(format!("the engine's move: {e}")))?;
                    written.push(text.clone());
                    stored.push(text);
                }
                Step::EndTurn => {
                    loaded
                        .game
                        .end_turn()
                        .map_err(|e| ServiceError::Internal(format!("the engine's move: {e}")))?;
                    stored.push("end".to_string());
                }
            }
        }
        let texts: Vec<&str> = stored.iter().map(String::as_str).collect();
        self.store_steps(&mut tx, &mut loaded, side, &texts, now)
            .await?;
        let news = News::Moved {
            by: loaded.row.player(side),
            text: crate::notation::numbered_last(loaded.game.turns().len(), &written.join(" ")),
        };
        let notice = self.notice(&mut tx, id, &news).await?;
        // This process delivers it now; another's sweeper leaves it alone meanwhile.
        self.hold_notice(&mut tx, notice.id, self.new_lease())
            .await?;
        // A reply forecast by the player is played at once; its notice is delivered by this
        // process right after the bot's.
        let foreseen = (written.len() == 1).then(|| written.concat());
        let answered = self
            .answer_forecasts(&mut tx, &mut loaded, foreseen, now)
            .await?;
        let mut forecast = Vec::with_capacity(answered.len());
        for a in &answered {
            let kept = self.notice(&mut tx, id, &a.news).await?;
            self.hold_notice(&mut tx, kept.id, self.new_lease()).await?;
            forecast.push(kept);
        }
        self.release_bot_turn(&mut tx, id, thought.claim).await?;
        tx.commit().await?;
        // Where a reply was played, taflbot is to move again: the bot player looks once this
        // turn's notices are delivered (`spawn_bot_player`).
        Ok(Some(BotMoved { notice, forecast }))
    }

    /// The engine's suggestion in a game against the bot, or in a finished game (for the position
    /// before its last turn when the board ended it, otherwise for its final position). Refused
    /// in a game between people that is still going, and in a game continued from a position
    /// still on the board of such a game of one of its players or of `who`. Hints are rationed
    /// (see `thinking`); one given before for the same place is given again at no cost.
    pub async fn hint(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<Hint, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let id = self
            .resolve_game(&mut conn, who, id, channel, false)
            .await?;
        let loaded: Loaded = self.load(&mut conn, id).await?;
        let finished = loaded.ensure_active().is_err();
        if !finished && loaded.row.bot().is_none() {
            return Err(ServiceError::NoHintHere(id));
        }
        if let Some(live) = self.live_source(&mut conn, who, &loaded).await? {
            return Err(ServiceError::HintForLiveGame(id, live));
        }
        drop(conn);
        let place = HintPlace {
            game: id,
            moves: loaded.row.move_count,
            position: loaded.row.position.clone(),
            finished,
        };
        if let Some(hint) = self.thinking.remembered(&place) {
            return Ok(hint);
        }
        let admitted = self
            .thinking
            .admit(&who.key, self.scope.guild(), self.now(), Work::Hint)?;
        let game = if finished {
            before_last_turn(&loaded)?
        } else {
            loaded.game.clone()
        };
        let side = game.position().turn();
        let variant = loaded.row.variant.0;
        let seed = id as u64;
        let probe = game.clone();
        let thought = self
            .thinking
            .admitted(&admitted, move || {
                engine::think(&probe, &Settings::level(HINT_LEVEL, seed))
            })
            .await?
            .map_err(|_| ServiceError::NoHintHere(id))?;
        let hint = Hint {
            game: id,
            variant,
            side,
            number: crate::notation::TurnNumber::next(&game),
            turn: engine::written(&game, &thought.turn),
            line: engine::written(&game, &thought.pv),
            score: thought.centipawns().map(|_| thought.steady_score()),
            won_in: thought.mate_in(),
            before_the_end: finished && loaded.game.position().is_over(),
            finished,
        };
        admitted.answered(self.now(), place, &hint);
        Ok(hint)
    }

    /// For a game continued from a record: a game between people still going, of `who` or of
    /// either player, whose board has stood in the position the continuation began from.
    async fn live_source(
        &self,
        conn: &mut AnyConnection,
        who: &Person,
        loaded: &Loaded,
    ) -> Result<Option<i64>, ServiceError> {
        let Some(first) = loaded.first_own_position() else {
            return Ok(None);
        };
        let players = loaded.row.player_ids();
        let live: Vec<i64> = sqlx::query_scalar(
            "SELECT g.id FROM games g
             WHERE g.status = 'active' AND g.bot_level IS NULL AND g.id != $1
               AND EXISTS (SELECT 1 FROM players p
                           WHERE p.id IN (g.attacker, g.defender)
                             AND (p.id IN ($2, $3) OR p.key = $4))
             ORDER BY g.id",
        )
        .bind(loaded.row.id)
        .bind(players.attackers)
        .bind(players.defenders)
        .bind(&who.key)
        .fetch_all(&mut *conn)
        .await?;
        for game in live {
            let other = self.load(&mut *conn, game).await?;
            if other.game.position().hash() == first || other.game.times_seen(first) > 0 {
                return Ok(Some(game));
            }
        }
        Ok(None)
    }

    /// Plays the bot's turns: in the games `wake_bot` names, and every minute in any game where
    /// the bot is to move (after a restart, or a turn that failed), until `stop` turns true. Each
    /// turn's notice goes to `deliver`, which says how that went.
    pub fn spawn_bot_player<F, Fut>(
        &self,
        mut stop: tokio::sync::watch::Receiver<bool>,
        deliver: F,
    ) -> tokio::task::JoinHandle<()>
    where
        F: Fn(Notice) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future + Send,
        Fut::Output: Into<Delivery>,
    {
        let (sender, mut games) = tokio::sync::mpsc::unbounded_channel();
        *self.bot.sender.lock().unwrap_or_else(|e| e.into_inner()) = Some(sender);
        let service = self.clone();
        let deliver = Arc::new(deliver);
        let busy: Arc<Mutex<HashSet<i64>>> = Arc::default();
        tokio::spawn(async move {
            // Every minute, or sooner when claims are short: a turn left by a process that died
            // is taken over soon after its lease runs out.
            let every = service.lease.clamp(1, 60) as u64;
            let mut rescan = tokio::time::interval(std::time::Duration::from_secs(every));
            loop {
                let due: Vec<i64> = tokio::select! {
                    _ = rescan.tick() => service.bot_games_due().await.unwrap_or_default(),
                    Some(id) = games.recv() => vec![id],
                    changed = stop.changed() => {
                        if changed.is_err() || *stop.borrow() {
                            return;
                        }
                        continue;
                    }
                };
                for id in due {
                    // One search per game at a time: the bot never moves twice.
                    if !busy.lock().unwrap_or_else(|e| e.into_inner()).insert(id) {
                        continue;
                    }
                    let (service, deliver, busy) = (service.clone(), deliver.clone(), busy.clone());
                    tokio::spawn(async move {
                        // A forecast reply played with taflbot's turn leaves taflbot to move
                        // again: it looks once this turn is out of `busy`, not at the next scan.
                        let mut again = false;
                        match service.bot_turn(id).await {
                            Ok(Some(moved)) => {
                                again = !moved.forecast.is_empty();
                                let notices = std::iter::once(moved.notice).chain(moved.forecast);
                                for notice in notices {
                                    let notice_id = notice.id;
                                    let how = deliver(notice).await.into();
                                    if let Err(e) = service.tried(notice_id, how).await {
                                        tracing::warn!(notice = notice_id, error = %e, "could not record a delivery");
                                    }
                                }
                            }
                            Ok(None) => {}
                            Err(e) => {
                                tracing::warn!(game = id, error = %e, "the bot's turn failed; trying again later")
                            }
                        }
                        busy.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
                        if again {
                            service.bot.wake(id);
                        }
                    });
                }
            }
        })
    }
}

/// A finished game as it stood before its last turn when the board ended it, or at its end when
/// the players did (resignation, agreement, time): where a hint still has a move to suggest.
fn before_last_turn(loaded: &Loaded) -> Result<Game, ServiceError> {
    let turns = loaded.game.turns();
    let keep = if loaded.game.position().is_over() {
        turns.len().saturating_sub(1)
    } else {
        turns.len()
    };
    let mut game = Game::from_position(loaded.game.start().clone());
    for turn in &turns[..keep] {
        for played in &turn.moves {
            game.play(played.mv)
                .map_err(|e| ServiceError::Internal(e.to_string()))?;
        }
        if game.position().chain().is_some() && game.outcome().is_none() {
            game.end_turn()
                .map_err(|e| ServiceError::Internal(e.to_string()))?;
        }
    }
    if game.outcome().is_some() {
        return Err(ServiceError::NoHintHere(loaded.row.id));
    }
    Ok(game)
}
