//! What the service tests share: the players, and a service on a fresh database under a test
//! clock.

use std::sync::Arc;

use taflbot::service::{Person, Service, TestClock};
use taflbot::store;

/// The test clock's usual start.
pub const T0: i64 = 1_800_000_000;

pub fn alice() -> Person {
    Person::new("u1", "alice")
}

pub fn bob() -> Person {
    Person::new("u2", "bob")
}

pub fn carol() -> Person {
    Person::new("u3", "carol")
}

/// A service on the database `url` (`:memory:` or a file), its clock at `now`.
pub async fn service_at(url: &str, now: i64) -> (Service, Arc<TestClock>) {
    let clock = Arc::new(TestClock::new(now));
    let pool = store::open(url).await.unwrap();
    (Service::new(pool, clock.clone()), clock)
}

/// Waits until no notice is pending, for at most 10 s: a player task records a delivery only
/// after the delivery returns, so a test that saw the notice arrive may be a moment early.
pub async fn until_no_notice_pending(svc: &Service) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !svc.pending_notices().await.unwrap().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "a delivered notice is still pending after 10 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
