//! Shards: a process runs the range `TAFLBOT_SHARDS` names (both ends included), or every shard
//! Discord recommends; only the process that runs shard 0 registers the commands. The fake
//! Discord recommends a shard count, records each identify's shard, and sends each server's events
//! to its shard.

use std::time::Duration;

use taflbot::discord::Shards;

use crate::fake_discord::Fake;
use crate::support::{service_at, T0};

#[test]
fn shard_ranges_read_first_last_and_total() {
    let s = |t: &str| t.parse::<Shards>();
    assert_eq!(
        s("0-1/4"),
        Ok(Shards {
            first: 0,
            last: 1,
            total: 4
        })
    );
    assert_eq!(
        s(" 3/4 "),
        Ok(Shards {
            first: 3,
            last: 3,
            total: 4
        })
    );
    for wrong in ["1-0/4", "0-4/4", "4/4", "0-1", "a-b/c", "", "0-1/0"] {
        let e = s(wrong).unwrap_err();
        assert!(e.contains("FIRST-LAST/TOTAL"), "{wrong}: {e}");
    }
    assert!(s("0-1/4").unwrap().registers());
    assert!(!s("2-3/4").unwrap().registers());
    // Discord's routing: the id's timestamp bits, modulo the total.
    assert_eq!(Shards::of_guild(5 << 22, 4), 1);
    assert_eq!(Shards::of_guild(4 << 22 | 0x3f_ffff, 4), 0);
}

/// Waits until the fake has seen `n` identifies, then a little longer to see that no more come.
async fn identified(fake: &Fake, n: usize) -> Vec<[u32; 2]> {
    for _ in 0..600 {
        if fake.identified().len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(700)).await;
    let mut seen = fake.identified();
    seen.sort();
    seen
}

fn registrations(fake: &Fake) -> usize {
    fake.calls()
        .iter()
        .filter(|c| c.method == "PUT" && c.path.ends_with("/commands"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_range_runs_both_its_ends_and_only_shard_0_registers() {
    let fake = Fake::start().await;
    let (svc, _) = service_at(":memory:", T0).await;
    let mut config = fake.config();
    config.shards = Some("1-2/4".parse().unwrap());
    let upper = taflbot::discord::start(config, svc.clone()).await.unwrap();
    assert_eq!(identified(&fake, 2).await, [[1, 4], [2, 4]]);
    assert_eq!(registrations(&fake), 0, "shard 0 is not here");
    let mut config = fake.config();
    config.shards = Some("0/4".parse().unwrap());
    let lower = taflbot::discord::start(config, svc.clone()).await.unwrap();
    fake.registered().await;
    assert_eq!(identified(&fake, 3).await, [[0, 4], [1, 4], [2, 4]]);
    assert_eq!(registrations(&fake), 1);
    upper.shutdown().await;
    lower.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_range_a_process_runs_every_shard_discord_recommends() {
    let fake = Fake::start().await;
    fake.recommend_shards(2);
    let (svc, _) = service_at(":memory:", T0).await;
    let bot = taflbot::discord::start(fake.config(), svc).await.unwrap();
    fake.registered().await;
    assert_eq!(identified(&fake, 2).await, [[0, 2], [1, 2]]);
    assert_eq!(registrations(&fake), 1);
    bot.shutdown().await;
}
