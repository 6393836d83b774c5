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

/// Waits until `done` holds, asking every 20 ms; fails, naming `what`, after 10 s. For what a
/// background task writes to the database after the test saw its other effects.
pub async fn until<F, Fut>(what: &str, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !done().await {
        assert!(
            std::time::Instant::now() < deadline,
            "waited 10 s for {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Waits until no notice is pending: a player task records a delivery only after the delivery
/// returns, so a test that saw the notice arrive may be a moment early.
pub async fn until_no_notice_pending(svc: &Service) {
    until("every delivered notice to be recorded", || async {
        svc.pending_notices().await.unwrap().is_empty()
    })
    .await;
}
