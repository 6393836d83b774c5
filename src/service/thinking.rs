//! A fair share of the engine. The bot's own turns and players' hints search on the blocking pool
//! in places of their own, so that no number of hints holds up a bot's reply. Hints are rationed:
//! one at a time per player, a pause of [`HINT_PAUSE`] seconds after each, and at most
//! [`HINT_QUEUE`] asked and unanswered in all, of which one server's players hold at most
//! [`HINT_SHARE`] (so that the accounts of one server cannot keep every other one waiting);
//! past that the answer is "busy" at once, never a wait that outlives Discord's interaction. A hint given for a game's position is remembered, so
//! asking for it again costs nothing and is not rationed.
//!
//! Reviews are rationed the same way, with queues and a place of their own ([`REVIEW_QUEUE`],
//! [`REVIEW_SHARE`]): a review holds the engine for many seconds where a hint holds it for a
//! fraction of one, so however many reviews are asked, from however many servers, a hint never
//! waits behind them.
//!
//! The rationing is per process: with several processes on one database, each keeps its own.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

use super::bot::Hint;
use super::ServiceError;

/// The most hints asked and not yet answered at once, over all players.
pub const HINT_QUEUE: usize = 6;
/// The most of those one server's players hold at once.
pub const HINT_SHARE: usize = 2;
/// The most reviews asked and not yet made at once, over all players, and of those one server's.
pub const REVIEW_QUEUE: usize = 3;
pub const REVIEW_SHARE: usize = 1;
/// Seconds a player waits after a hint before asking for another (one not remembered).
pub const HINT_PAUSE: i64 = 20;
/// How many hints are remembered (the latest).
pub const HINT_MEMORY: usize = 256;

/// Where a hint was asked: a game at a position. The same place gets the same hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct HintPlace {
    pub game: i64,
    /// The game's moves so far and its position, as stored.
    pub moves: i64,
    pub position: String,
    pub finished: bool,
}

/// What a player asks the engine for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Work {
    Hint,
    Review,
}

impl Work {
    /// The most of this work asked at once, over all, and of one server's players.
    fn queue(self) -> (usize, usize) {
        match self {
            Work::Hint => (HINT_QUEUE, HINT_SHARE),
            Work::Review => (REVIEW_QUEUE, REVIEW_SHARE),
        }
    }
}

/// The engine's places and the hints' rationing.
pub(super) struct Thinking {
    /// Places for the bot's own turns.
    turns: Semaphore,
    /// Places for hints.
    hints: Semaphore,
    /// The place for reviews.
    reviews: Semaphore,
    rationing: Mutex<Rationing>,
    /// The games being reviewed in this process, each with a lock its later askers wait on.
    reviewing: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>,
}

#[derive(Default)]
struct Rationing {
    /// Players (by key) with a hint or a review asked and not yet answered, the server they
    /// asked in (none outside a server), and which.
    asking: HashMap<String, (Option<String>, Work)>,
    /// When each player's latest hint was answered, for those still in their pause.
    answered: HashMap<String, i64>,
    /// Hints given, oldest first.
    remembered: VecDeque<(HintPlace, Hint)>,
}

/// A hint admitted to the engine; its player is asking until it is dropped.
pub(super) struct Admitted<'a> {
    thinking: &'a Thinking,
    who: String,
    work: Work,
}

impl Thinking {
    /// `turns` places for the bot's turns and `hints` for hints (each at least one).
    pub fn new(turns: usize, hints: usize) -> Thinking {
        Thinking {
            turns: Semaphore::new(turns.max(1)),
            hints: Semaphore::new(hints.max(1)),
            reviews: Semaphore::new(1),
            rationing: Mutex::default(),
            reviewing: Mutex::default(),
        }
    }

    /// Waits until no other review of game `id` is being made in this process, and holds the
    /// game until the returned guard is dropped: a second asker of the same review waits for the
    /// first and then reads what it stored, so that a game is searched once however many ask.
    pub async fn review_of(&self, id: i64) -> Reviewing<'_> {
        // Made first, so that an asker who stops waiting still lets the game go.
        let mut held = Reviewing {
            thinking: self,
            id,
            guard: None,
        };
        let lock = {
            let mut r = self.reviewing.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(r.entry(id).or_default())
        };
        held.guard = Some(lock.lock_owned().await);
        held
    }

    /// How many games have a review being made or waited for.
    #[cfg(test)]
    pub fn reviews_in_flight(&self) -> usize {
        self.reviewing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }

    fn rationing(&self) -> std::sync::MutexGuard<'_, Rationing> {
        self.rationing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs one of the bot's turns on the blocking pool once a place for turns is free.
    pub async fn turn<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ServiceError> {
        super::on_pool(&self.turns, work).await
    }

    /// Runs admitted work (a hint, or a review: the engine's work on a whole game where a hint
    /// is one position's) on the blocking pool once a place for its kind is free.
    pub async fn admitted<T: Send + 'static>(
        &self,
        admitted: &Admitted<'_>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ServiceError> {
        let places = match admitted.work {
            Work::Hint => &self.hints,
            Work::Review => &self.reviews,
        };
        super::on_pool(places, work).await
    }

    /// The hint given before at this place, if it is remembered.
    pub fn remembered(&self, place: &HintPlace) -> Option<Hint> {
        self.rationing()
            .remembered
            .iter()
            .rev()
            .find(|(p, _)| p == place)
            .map(|(_, h)| h.clone())
    }

    /// Lets `who` ask the engine for `work` at `now` from `server`, or says why not: they are
    /// asking already, they are in the pause after their last one, their server has its share
    /// of that work, or its queue is full.
    pub fn admit(
        &self,
        who: &str,
        server: Option<&str>,
        now: i64,
        work: Work,
    ) -> Result<Admitted<'_>, ServiceError> {
        let mut r = self.rationing();
        if r.asking.contains_key(who) {
            return Err(ServiceError::HintUnderway);
        }
        if let Some(&at) = r.answered.get(who) {
            let wait = at + HINT_PAUSE - now;
            if wait > 0 {
                return Err(ServiceError::HintPause(wait));
            }
        }
        let (queue, share) = work.queue();
        let same = || r.asking.values().filter(|(_, w)| *w == work);
        if same().count() >= queue {
            return Err(ServiceError::EngineBusy);
        }
        let here = same().filter(|(s, _)| s.as_deref() == server).count();
        if server.is_some() && here >= share {
            return Err(ServiceError::EngineBusy);
        }
        r.asking
            .insert(who.to_string(), (server.map(str::to_string), work));
        Ok(Admitted {
            thinking: self,
            who: who.to_string(),
            work,
        })
    }
}

impl Admitted<'_> {
    /// The hint is answered at `now`: it is remembered for its place, and its player's pause
    /// begins.
    pub fn answered(self, now: i64, place: HintPlace, hint: &Hint) {
        Self::remember(&mut self.thinking.rationing(), place, hint);
        self.pause(now);
    }

    /// The work (a review) is done at `now`: its player's pause begins.
    pub fn pause(self, now: i64) {
        let mut r = self.thinking.rationing();
        r.answered.retain(|_, at| *at + HINT_PAUSE > now);
        r.answered.insert(self.who.clone(), now);
    }

    fn remember(r: &mut Rationing, place: HintPlace, hint: &Hint) {
        if let Some(i) = r.remembered.iter().position(|(p, _)| *p == place) {
            r.remembered.remove(i);
        }
        r.remembered.push_back((place, hint.clone()));
        while r.remembered.len() > HINT_MEMORY {
            r.remembered.pop_front();
        }
    }
}

/// A game held for its review; see [`Thinking::review_of`].
pub(super) struct Reviewing<'a> {
    thinking: &'a Thinking,
    id: i64,
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Drop for Reviewing<'_> {
    fn drop(&mut self) {
        let mut r = self
            .thinking
            .reviewing
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        drop(self.guard.take());
        // The last holder or waiter forgets the game, so that the map holds only games in flight.
        if r.get(&self.id).is_some_and(|l| Arc::strong_count(l) == 1) {
            r.remove(&self.id);
        }
    }
}

impl Drop for Admitted<'_> {
    fn drop(&mut self) {
        self.thinking.rationing().asking.remove(&self.who);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Side, Variant};

    fn hint(game: i64) -> Hint {
        Hint {
            game,
            variant: Variant::by_id("brandubh").unwrap(),
            side: Side::Attackers,
            number: crate::notation::TurnNumber::of(0),
            turn: vec!["a1-a2".into()],
            line: Vec::new(),
            score: Some(0),
            won_in: None,
            before_the_end: false,
            finished: false,
        }
    }

    fn place(game: i64, moves: i64) -> HintPlace {
        HintPlace {
            game,
            moves,
            position: format!("after {moves}"),
            finished: false,
        }
    }

    #[test]
    fn one_hint_at_a_time_per_player() {
        let t = Thinking::new(1, 1);
        let first = t.admit("ann", None, 0, Work::Hint).unwrap();
        assert!(matches!(
            t.admit("ann", None, 0, Work::Hint),
            Err(ServiceError::HintUnderway)
        ));
        // Someone else may ask meanwhile.
        let other = t.admit("bob", None, 0, Work::Hint).unwrap();
        drop(other);
        // A hint that failed (dropped unanswered) starts no pause.
        drop(first);
        assert!(t.admit("ann", None, 0, Work::Hint).is_ok());
    }

    #[test]
    fn a_pause_follows_each_answered_hint() {
        let t = Thinking::new(1, 1);
        t.admit("ann", None, 100, Work::Hint)
            .unwrap()
            .answered(100, place(1, 4), &hint(1));
        match t.admit("ann", None, 105, Work::Hint) {
            Err(ServiceError::HintPause(wait)) => assert_eq!(wait, HINT_PAUSE - 5),
            other => panic!("expected a pause, got {:?}", other.err()),
        }
        assert!(t.admit("ann", None, 100 + HINT_PAUSE, Work::Hint).is_ok());
    }

    #[test]
    fn the_queue_is_capped_and_frees_as_hints_end() {
        let t = Thinking::new(1, 1);
        let players: Vec<String> = (0..=HINT_QUEUE).map(|i| format!("p{i}")).collect();
        let mut held: Vec<Admitted> = players[..HINT_QUEUE]
            .iter()
            .map(|p| t.admit(p, None, 0, Work::Hint).unwrap())
            .collect();
        let last = &players[HINT_QUEUE];
        assert!(matches!(
            t.admit(last, None, 0, Work::Hint),
            Err(ServiceError::EngineBusy)
        ));
        held.pop();
        assert!(t.admit(last, None, 0, Work::Hint).is_ok());
    }

    #[test]
    fn one_server_holds_at_most_its_share_of_the_queue() {
        let t = Thinking::new(1, 1);
        let held: Vec<Admitted> = (0..HINT_SHARE)
            .map(|i| {
                t.admit(&format!("a{i}"), Some("g1"), 0, Work::Hint)
                    .unwrap()
            })
            .collect();
        // A third account of the same server is turned away; another server's player is not,
        // nor is one outside any server.
        assert!(matches!(
            t.admit("a9", Some("g1"), 0, Work::Hint),
            Err(ServiceError::EngineBusy)
        ));
        let other = t.admit("b0", Some("g2"), 0, Work::Hint).unwrap();
        let direct = t.admit("c0", None, 0, Work::Hint).unwrap();
        drop(held);
        assert!(t.admit("a9", Some("g1"), 0, Work::Hint).is_ok());
        drop((other, direct));
    }

    #[tokio::test]
    async fn a_game_is_reviewed_by_one_asker_at_a_time_and_forgotten_after() {
        let t = Thinking::new(1, 1);
        let first = t.review_of(7).await;
        // A second asker of the same game waits; another game does not.
        let other = t.review_of(8).await;
        let waiting = tokio::time::timeout(std::time::Duration::from_millis(50), t.review_of(7));
        assert!(
            waiting.await.is_err(),
            "the second asker waits for the first"
        );
        assert_eq!(t.reviews_in_flight(), 2);
        drop(other);
        assert_eq!(t.reviews_in_flight(), 1);
        drop(first);
        assert_eq!(
            t.reviews_in_flight(),
            0,
            "a waiter who gave up leaves nothing behind"
        );
        let again = t.review_of(7).await;
        drop(again);
        assert_eq!(t.reviews_in_flight(), 0);
    }

    #[test]
    fn hints_are_remembered_by_place_and_the_oldest_forgotten() {
        let t = Thinking::new(1, 1);
        t.admit("ann", None, 0, Work::Hint)
            .unwrap()
            .answered(0, place(1, 4), &hint(1));
        assert_eq!(t.remembered(&place(1, 4)).map(|h| h.game), Some(1));
        // Another position of the same game, or the same count in another game, is not it.
        assert!(t.remembered(&place(1, 5)).is_none());
        assert!(t.remembered(&place(2, 4)).is_none());
        for i in 0..HINT_MEMORY as i64 {
            let who = format!("p{i}");
            t.admit(&who, None, 0, Work::Hint).unwrap().answered(
                0,
                place(100 + i, 0),
                &hint(100 + i),
            );
        }
        assert!(t.remembered(&place(1, 4)).is_none(), "the oldest is gone");
        assert!(t.remembered(&place(100, 0)).is_some());
    }

    /// Reviews from three servers, two accounts each, once took the whole queue and the one
    /// place, and another server's hint waited 76 s: now reviews queue apart, and a hint runs
    /// while a review holds its place.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reviews_from_many_servers_never_hold_a_hint_up() {
        let t = Thinking::new(1, 1);
        let mut reviews = Vec::new();
        for (i, server) in ["g1", "g1", "g2", "g2", "g3", "g3", "g4"]
            .iter()
            .enumerate()
        {
            reviews.push(t.admit(&format!("r{i}"), Some(server), 0, Work::Review));
        }
        let admitted = reviews.iter().filter(|r| r.is_ok()).count();
        assert_eq!(admitted, REVIEW_QUEUE, "one a server, three in all");
        assert!(matches!(reviews[1], Err(ServiceError::EngineBusy)));
        assert!(matches!(reviews[6], Err(ServiceError::EngineBusy)));
        drop(reviews);
        // A review holds its place until told to go on; meanwhile another server's hint is
        // admitted and answered.
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let held = t.admit("long", Some("g9"), 0, Work::Review).unwrap();
        let review = t.admitted(&held, move || wait.recv().is_ok());
        let hint_then_go = async {
            let hint = t.admit("h0", Some("g5"), 0, Work::Hint).unwrap();
            let answer =
                tokio::time::timeout(std::time::Duration::from_secs(5), t.admitted(&hint, || 42))
                    .await;
            go.send(()).unwrap();
            answer
        };
        let (reviewed, answer) = tokio::join!(review, hint_then_go);
        assert_eq!(answer.expect("the hint did not wait").unwrap(), 42);
        assert!(reviewed.unwrap());
    }
}
