//! Time as the service reads it: seconds since the Unix epoch, from a clock that tests can move.

use std::sync::atomic::{AtomicI64, Ordering};

pub const DAY: i64 = 86_400;

/// Seconds since the Unix epoch. The service reads the time only through this, so tests can move it.
pub trait Clock: Send + Sync {
    fn now(&self) -> i64;
}

/// The system's clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        chrono::Utc::now().timestamp()
    }
}

/// A clock that tests set by hand.
#[derive(Default)]
pub struct TestClock(AtomicI64);

impl TestClock {
    pub fn new(now: i64) -> TestClock {
        TestClock(AtomicI64::new(now))
    }

    pub fn set(&self, now: i64) {
        self.0.store(now, Ordering::SeqCst);
    }

    pub fn advance(&self, seconds: i64) {
        self.0.fetch_add(seconds, Ordering::SeqCst);
    }
}

impl Clock for TestClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Waits `rest` for a background task's next round: true to go on, false once `stop` says stop
/// (or its sender is gone, so that nobody can stop the task any more).
pub async fn rest_or_stop(
    rest: std::time::Duration,
    stop: &mut tokio::sync::watch::Receiver<bool>,
) -> bool {
    tokio::select! {
        _ = tokio::time::sleep(rest) => {}
        changed = stop.changed() => {
            if changed.is_err() {
                return false;
            }
        }
    }
    !*stop.borrow()
}

/// A claim on shared background work (a notice to deliver, taflbot's turn, a server's daily
/// puzzle, a chore), the one shape every claim takes: made at `now`, held by this process until
/// `until`. Work is claimed only where no claim holds (`claimed_until IS NULL OR claimed_until
/// <= now`), so a process that dies leaves its work to the others once its lease runs out; and a
/// release lets go only of the claim that is still this one's (`claimed_until = until`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lease {
    pub now: i64,
    pub until: i64,
}
