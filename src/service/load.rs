//! Loading a game: its row, and its moves replayed by the rules core. Moves are the truth; a game
//! whose cached position or result disagrees with them is set aside as broken and reported, and
//! the others go on. Recently replayed games are kept, checked against the stored row.

use std::collections::HashMap;

use sqlx::AnyConnection;

use super::error::Ending;
use super::rows::{GameResult, GameRow, GameStatus, GAME_SELECT};
use super::{GameView, Person, Service, ServiceError};
use crate::notation::{read_move, write_move};
use crate::render::{Scene, Theme};
use crate::rules::{parse_position, write_position, BySide, Game, Reason, Side};

/// A game loaded and replayed.
#[derive(Clone)]
pub(super) struct Loaded {
    pub row: GameRow,
    pub game: Game,
    /// Whether each player was in their quiet hours when the game was loaded.
    pub quiet: BySide<bool>,
}

impl Loaded {
    /// Refuses a game that is over (or set aside).
    pub fn ensure_active(&self) -> Result<(), ServiceError> {
        if self.row.status == GameStatus::Active && self.game.outcome().is_none() {
            return Ok(());
        }
        let how = match (self.game.outcome(), self.row.result) {
            (_, GameResult::Aborted) => Some(Ending::Aborted),
            (Some(outcome), _) => Some(Ending::Outcome {
                variant: self.row.variant.0,
                players: Box::new(self.row.players()),
                outcome,
            }),
            (None, _) => None,
        };
        Err(ServiceError::GameOver(self.row.id, how))
    }

    /// For a game continued from a record: the record replayed (the game as it stood where its
    /// own play began) and how many whole turns it holds. A turn the record left open (a chain
    /// that could go on) was finished by the players, so it is theirs. `None` for other games.
    ///
    /// The record is the game's first `row.imported` steps as the moves table keeps them (each
    /// move, and `end` where a chain was ended by choice), so it is found the way it was stored
    /// and is read back.
    pub fn record(&self) -> Option<(Game, usize)> {
        let imported = usize::try_from(self.row.imported).ok().filter(|&n| n > 0)?;
        let steps = super::continued::steps_of(&self.game).ok()?;
        let texts: Vec<String> = steps.into_iter().take(imported).map(|(_, t)| t).collect();
        let record = play_moves(&self.row, &texts).ok()?;
        let whole = record.turns().iter().filter(|t| t.complete).count();
        Some((record, whole))
    }

    /// How many turns came from a record the game was continued from (none for most games).
    pub fn imported_turns(&self) -> usize {
        self.record().map_or(0, |(_, whole)| whole)
    }

    /// Whether each side has made a turn of its own in this game (the moves of a record it was
    /// continued from do not count). A game that ends before is not rated, and a resignation or
    /// an agreed draw then calls it off: nothing was played to win, lose or share.
    pub fn both_sides_moved(&self) -> bool {
        let mut moved = BySide::new(false, false);
        let own = &self.game.turns()[self.imported_turns()..];
        for turn in own.iter().filter(|t| !t.moves.is_empty()) {
            moved[turn.side] = true;
        }
        moved.attackers && moved.defenders
    }

    /// For a game continued from a record, the key ([`Position::hash`]) of the position its own
    /// play began from: where the record ended.
    ///
    /// [`Position::hash`]: crate::rules::Position::hash
    pub fn first_own_position(&self) -> Option<u64> {
        self.record().map(|(record, _)| record.position().hash())
    }

    /// Whether the game is going on and its player to move ran out of time (their clocks do not
    /// run while they are on vacation).
    pub fn overdue(&self, now: i64) -> bool {
        self.ensure_active().is_ok()
            && self.row.deadline <= now
            && !self.row.away(self.game.position().turn())
    }

    /// The side `who` plays, or why they may not act in this game.
    pub fn seat_of(&self, who: &Person) -> Result<Side, ServiceError> {
        self.row
            .seat(who)
            .ok_or(ServiceError::NotAPlayer(self.row.id))
    }

    /// Refuses unless it is `seat`'s move.
    pub fn ensure_turn(&self, seat: Side) -> Result<(), ServiceError> {
        let mover = self.game.position().turn();
        if seat == mover {
            return Ok(());
        }
        Err(ServiceError::NotYourTurn {
            game: self.row.id,
            waiting_for: self.row.player(mover),
        })
    }

    /// The legal moves of the side to move, in canonical form.
    pub fn canonical_moves(&self) -> Vec<String> {
        let pos = self.game.position();
        self.game
            .legal_moves()
            .into_iter()
            .map(|m| crate::notation::canonical(pos, m))
            .collect()
    }

    pub fn view(&self) -> GameView {
        let row = &self.row;
        let to_move = self.game.position().turn();
        let outcome = self.game.outcome();
        let last_turn = self
            .game
            .turns()
            .last()
            .map(|turn| {
                turn.moves
                    .iter()
                    .map(|p| write_move(p.mv, &p.captures))
                    .collect()
            })
            .unwrap_or_default();
        let players = row.players();
        let takeback = row
            .takeback_by
            .and_then(|id| row.player_ids().find_side(|p| *p == id))
            .map(|i| players[i].clone());
        let draw_offer = row
            .draw_offer
            .and_then(|id| row.player_ids().find_side(|p| *p == id))
            .map(|i| players[i].clone());
        GameView {
            id: row.id,
            variant: row.variant.0,
            waiting_for: (outcome.is_none() && row.status == GameStatus::Active)
                .then(|| players[to_move].clone()),
            players,
            position: write_position(self.game.position()),
            to_move,
            outcome,
            aborted: row.result == GameResult::Aborted,
            deadline: row.deadline,
            channel: row.channel.clone(),
            thread: row.thread.clone(),
            draw_offer,
            last_turn,
            turns: self.game.turns().len(),
            open_chain: outcome.is_none() && self.game.position().chain().is_some(),
            chain: self.game.position().chain().filter(|_| outcome.is_none()),
            bot: row.bot(),
            rated: row.rated.0,
            pair_limited: row.pair_limited.0,
            away: BySide::from_fn(|side| row.away(side)),
            quiet: self.quiet,
            takeback,
            ratings: row.rating_changes(),
            vote_window: row.vote_window,
            second: row.second(),
            seen_from: None,
        }
    }
}

/// Games replayed recently, by id, with the move count and position they were replayed at. A
/// game is taken from here only when its stored row still shows that count and position, so it is
/// exactly what replaying its moves would give; otherwise the moves are replayed again.
#[derive(Default)]
pub(super) struct Replayed {
    games: std::sync::Mutex<HashMap<i64, (i64, String, Game)>>,
}

impl Replayed {
    /// Enough for every game that is being played right now on a busy server.
    const CAPACITY: usize = 512;

    fn get(&self, id: i64, move_count: i64, position: &str) -> Option<Game> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        match games.get(&id) {
            Some((count, pos, game)) if *count == move_count && pos == position => {
                Some(game.clone())
            }
            _ => None,
        }
    }

    pub fn put(&self, id: i64, move_count: i64, game: &Game) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() >= Self::CAPACITY && !games.contains_key(&id) {
            // Forget an arbitrary game: it is replayed from the database when next needed.
            if let Some(old) = games.keys().next().copied() {
                games.remove(&old);
            }
        }
        games.insert(
            id,
            (move_count, write_position(game.position()), game.clone()),
        );
    }
}

impl Service {
    /// Loads a game and replays its moves. A game that no longer replays, or whose cached
    /// position disagrees with its moves, is marked broken and reported.
    pub(super) async fn load(
        &self,
        conn: &mut AnyConnection,
        id: i64,
    ) -> Result<Loaded, ServiceError> {
        let row: GameRow = sqlx::query_as(&format!("{GAME_SELECT} WHERE g.id = $1"))
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or(ServiceError::NoSuchGame(id))?;
        // A game between two servers belongs to both.
        let second = row.second_guild.as_deref();
        if !self.scope.sees(row.guild.as_deref())
            && !second.is_some_and(|g| self.scope.sees(Some(g)))
        {
            return Err(ServiceError::OtherServer(id));
        }
        if row.status == GameStatus::Broken {
            return Err(ServiceError::Broken(id));
        }
        if let Some(game) = self.replayed.get(id, row.move_count, &row.position) {
            if row.status == GameStatus::Active || game.outcome().is_some() {
                let quiet = self.quiet_now(&row);
                return Ok(Loaded { row, game, quiet });
            }
        }
        let moves: Vec<String> =
            sqlx::query_scalar("SELECT text FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(id)
                .fetch_all(&mut *conn)
                .await?;
        match replay(&row, &moves) {
            Ok(game) => {
                self.replayed.put(id, row.move_count, &game);
                let quiet = self.quiet_now(&row);
                Ok(Loaded { row, game, quiet })
            }
            Err(why) => {
                tracing::error!(game = id, %why, "a stored game no longer replays; marked broken");
                self.mark_broken(conn, id, &why).await;
                Err(ServiceError::Broken(id))
            }
        }
    }

    /// Whether each player of `row` is in their quiet hours now.
    fn quiet_now(&self, row: &GameRow) -> BySide<bool> {
        let now = self.now();
        BySide::from_fn(|side| row.quiet(side).is_some_and(|q| q.contains(now)))
    }

    /// Sets a game aside. The mark is written on `conn` (it lasts when that is a plain connection)
    /// and again, once the caller's transaction is over, from a task of its own: a use case that
    /// fails on a broken game rolls its transaction back, and the mark must not go with it.
    async fn mark_broken(&self, conn: &mut AnyConnection, id: i64, why: &str) {
        const MARK: &str = "UPDATE games SET status = 'broken', broken_reason = $1 WHERE id = $2";
        let _ = sqlx::query(MARK)
            .bind(why)
            .bind(id)
            .execute(&mut *conn)
            .await;
        let (pool, why) = (self.pool.clone(), why.to_string());
        tokio::spawn(async move {
            if let Err(e) = sqlx::query(MARK).bind(&why).bind(id).execute(&pool).await {
                tracing::error!(game = id, error = %e, "could not mark the game broken");
            }
        });
    }

    /// The picture of a loaded game, with the players' names, made on the CPU pool.
    pub(super) async fn picture(
        &self,
        l: &Loaded,
        flip: bool,
        theme: Theme,
    ) -> Result<Vec<u8>, ServiceError> {
        // A player on vacation is shown so, for the opponent who waits.
        let [a, d] = [Side::Attackers, Side::Defenders].map(|side| {
            let name = l.row.player(side).name;
            if l.row.away(side) {
                format!("{name} (on vacation)")
            } else {
                name
            }
        });
        let game = l.game.clone();
        self.cpu(move |renderer| {
            let scene = Scene::game(&game).flipped(flip).named(Some([a, d]));
            renderer.png(&scene, theme)
        })
        .await
    }

    /// A write transaction on the game `who` means (see `find.rs`), loaded and replayed, and the
    /// side `who` plays in it. A game whose deadline has passed is lost on time here, before any
    /// use case acts on it (the sweeper may not have come round yet): a player out of time can no
    /// longer move, resign, abort or agree a draw.
    pub(super) async fn open_game(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        waiting_only: bool,
    ) -> Result<(sqlx::Transaction<'static, sqlx::Any>, Loaded, Side), ServiceError> {
        let mut tx = self.write().await?;
        let id = self
            .resolve_game(&mut tx, who, id, channel, waiting_only)
            .await?;
        let mut loaded = self.load(&mut tx, id).await?;
        let seat = loaded.seat_of(who)?;
        let now = self.now();
        if loaded.overdue(now) {
            let late_side = loaded.game.position().turn();
            let late = loaded.row.player(late_side);
            self.time_out(&mut tx, &mut loaded, now).await?;
            tx.commit().await?;
            return Err(ServiceError::OutOfTime {
                game: id,
                yours: late_side == seat,
                late,
            });
        }
        Ok((tx, loaded, seat))
    }
}

/// Plays stored moves (canonical text, or `end` for a chain ended) from a game's start.
pub(super) fn play_moves(row: &GameRow, moves: &[String]) -> Result<Game, String> {
    let start = parse_position(row.variant.0, &row.start)
        .map_err(|e| format!("the start position: {e}"))?;
    let mut game = Game::from_position(start);
    for (ply, text) in moves.iter().enumerate() {
        if text == "end" {
            game.end_turn()
                .map_err(|e| format!("move {}: end of turn: {e}", ply + 1))?;
            continue;
        }
        let (m, _) = read_move(game.position(), text)
            .map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
        game.play(m)
            .map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
    }
    Ok(game)
}

/// Replays a stored game: its moves, then any ending the moves do not show.
fn replay(row: &GameRow, moves: &[String]) -> Result<Game, String> {
    let mut game = play_moves(row, moves)?;
    if moves.len() as i64 != row.move_count {
        return Err(format!(
            "the game counts {} moves but {} are stored",
            row.move_count,
            moves.len()
        ));
    }
    if row.status == GameStatus::Active && game.outcome().is_some() {
        return Err("the game is stored as going on, but its moves have ended it".to_string());
    }
    let replayed = write_position(game.position());
    if replayed != row.position {
        return Err(format!(
            "the stored position {} is not the one its moves give ({replayed})",
            row.position
        ));
    }
    if row.status == GameStatus::Finished
        && game.outcome().is_none()
        && row.result != GameResult::Aborted
    {
        let loser = row.result.winner().map(Side::other);
        let ended = match (row.reason, loser) {
            (Some(Reason::Agreement), _) => game.agree_draw().is_ok(),
            (Some(Reason::Resignation), Some(s)) => game.resign(s).is_ok(),
            (Some(Reason::Timeout), Some(s)) => game.lose_on_time(s).is_ok(),
            (Some(Reason::Forfeit), Some(s)) => game.forfeit(s).is_ok(),
            _ => false,
        };
        if !ended {
            return Err(format!(
                "the stored result {:?} does not follow from the moves",
                row.result
            ));
        }
    }
    Ok(game)
}
