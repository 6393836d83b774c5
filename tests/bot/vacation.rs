//! Vacation: clocks stop while a player is away, deadlines move on by the days away, the days
//! are counted (by the sweeper too) and survive a restart.

use std::sync::Arc;

use taflbot::service::text::{self, Plain};
use taflbot::service::{Service, ServiceError, TestClock, DAY};

use crate::fake_discord::Opt;
use crate::support::{alice, bob, Harness, ALICE, CHANNEL};

/// 2027-03-01 00:00 UTC: the same calendar year for a while.
const T0: i64 = 1_803_859_200;

async fn open(path: &str, clock: Arc<TestClock>) -> Service {
    Service::new(crate::support::store(path).await, clock)
}

/// alice (attackers) against bob at tyr-11, three days a move; alice has moved, bob is to move
/// by T0 + 3 days.
async fn waiting_for_bob(svc: &Service) -> i64 {
    let id = crate::support::started(svc).await;
    svc.play(&alice(), Some(id), None, "d1-d3").await.unwrap();
    id
}

#[tokio::test]
async fn a_deadline_moves_by_the_days_away_across_a_restart() {
    let dir = crate::support::scratch("vacation-service");
    let path = dir.join("vacation.db");
    let path = path.to_str().unwrap();
    let clock = Arc::new(TestClock::new(T0));
    let svc = open(path, clock.clone()).await;
    let game = waiting_for_bob(&svc).await;
    assert_eq!(svc.game(game).await.unwrap().deadline, T0 + 3 * DAY);

    clock.set(T0 + DAY);
    let v = svc.vacation(&bob(), true).await.unwrap();
    assert_eq!(v.since, Some(T0 + DAY));
    assert_eq!(v.until, Some(T0 + 15 * DAY));
    assert!(matches!(
        svc.vacation(&bob(), true).await,
        Err(ServiceError::OnVacation { until }) if until == T0 + 15 * DAY
    ));
    // Past the deadline while away: not lost on time, and the opponent sees why.
    clock.set(T0 + 5 * DAY);
    assert!(svc.sweep().await.unwrap().is_empty());
    let view = svc.game(game).await.unwrap();
    assert!(view.outcome.is_none());
    assert_eq!(view.away, taflbot::rules::BySide::new(false, true));
    let said = text::status_line(&view, &Plain);
    assert!(
        said.ends_with("bob (defenders) to move, clock stopped while bob is on vacation."),
        "{said}"
    );
    let listed = text::games(&alice(), true, &svc.games(&alice()).await.unwrap(), &Plain);
    assert!(
        listed.contains("bob's move, clock stopped (vacation)"),
        "{listed}"
    );
    // A command in the game does not time it out either: it is still bob's move.
    assert!(matches!(
        svc.play(&alice(), Some(game), None, "d3-d4").await,
        Err(ServiceError::NotYourTurn { .. })
    ));

    // A restart keeps the vacation.
    drop(svc);
    let svc = open(path, clock.clone()).await;
    assert_eq!(
        svc.vacation_status(&bob()).await.unwrap().since,
        Some(T0 + DAY)
    );
    clock.set(T0 + 6 * DAY);
    let back = svc.vacation(&bob(), false).await.unwrap();
    assert_eq!(back.since, None);
    assert_eq!(back.left, 9 * DAY);
    // Five days away: the deadline moved from day 3 to day 8.
    let view = svc.game(game).await.unwrap();
    assert_eq!(view.deadline, T0 + 8 * DAY);
    assert_eq!(view.away, taflbot::rules::BySide::new(false, false));
    clock.set(T0 + 8 * DAY - 1);
    let notices = svc.sweep().await.unwrap();
    assert!(svc.game(game).await.unwrap().outcome.is_none());
    // The reminder is due again, a day before the new deadline.
    assert_eq!(notices.len(), 1, "{notices:?}");
    clock.set(T0 + 8 * DAY);
    svc.sweep().await.unwrap();
    let lost = svc.game(game).await.unwrap().outcome.unwrap();
    assert_eq!(lost.winner, Some(taflbot::rules::Side::Attackers));
    assert!(matches!(
        svc.vacation(&bob(), false).await,
        Err(ServiceError::NotOnVacation)
    ));
    drop(svc);
}

#[tokio::test]
async fn the_sweeper_ends_a_vacation_when_its_days_run_out() {
    let clock = Arc::new(TestClock::new(T0));
    let svc = open(":memory:", clock.clone()).await.with_vacation_days(10);
    let game = waiting_for_bob(&svc).await;
    clock.set(T0 + DAY);
    svc.vacation(&bob(), true).await.unwrap();
    // The ten days end at day 11; the deadline moves from day 3 to day 13.
    clock.set(T0 + 12 * DAY);
    assert!(svc.sweep().await.unwrap().iter().all(|n| n.game_id == game));
    assert_eq!(svc.vacation_status(&bob()).await.unwrap().since, None);
    assert_eq!(svc.vacation_status(&bob()).await.unwrap().left, 0);
    let view = svc.game(game).await.unwrap();
    assert_eq!(view.deadline, T0 + 13 * DAY);
    assert!(view.outcome.is_none());
    // No days left this year.
    assert!(matches!(
        svc.vacation(&bob(), true).await,
        Err(ServiceError::NoVacationLeft { days: 10 })
    ));
    // A whole sweep later than the days allow: the vacation ends, and then the game is lost.
    clock.set(T0 + 13 * DAY);
    svc.sweep().await.unwrap();
    assert!(svc.game(game).await.unwrap().outcome.is_some());
}

#[tokio::test]
async fn days_are_counted_per_year_and_only_the_player_to_move_waits() {
    let clock = Arc::new(TestClock::new(T0));
    let svc = open(":memory:", clock.clone()).await;
    let game = waiting_for_bob(&svc).await;
    // alice goes away, but it is bob's move: her vacation moves nothing.
    svc.vacation(&alice(), true).await.unwrap();
    clock.set(T0 + 2 * DAY);
    svc.play(&bob(), Some(game), None, "f8-g8").await.unwrap();
    // bob moved at day 2: alice's deadline is day 5, but she is away until day 4.
    clock.set(T0 + 4 * DAY);
    svc.vacation(&alice(), false).await.unwrap();
    // Her clock ran from day 2 only while she was back: day 5 + 2 days waited.
    assert_eq!(svc.game(game).await.unwrap().deadline, T0 + 7 * DAY);
    assert_eq!(svc.vacation_status(&alice()).await.unwrap().left, 10 * DAY);
    // The next year brings the days back.
    clock.set(T0 + 365 * DAY);
    let v = svc.vacation_status(&alice()).await.unwrap();
    assert_eq!(v.left, 14 * DAY);
    let said = text::vacation(&v, 14, &Plain);
    assert!(
        said.contains("14 days of your 14 days this year are left"),
        "{said}"
    );
}

/// Each vacation day counts in the year it falls in: a vacation begun at noon on 31 December
/// uses half a day of that year and then the new year's fourteen days, and ends at the end of
/// them, not fourteen days after it began; nothing of the new year is left after it.
#[tokio::test]
async fn a_vacation_into_a_new_year_counts_its_days_in_each_year() {
    let new_years_eve = 1_798_718_400; // 2026-12-31 12:00 UTC
    let clock = Arc::new(TestClock::new(new_years_eve));
    let svc = Service::new(crate::support::store(":memory:").await, clock.clone());
    let away = svc.vacation(&alice(), true).await.unwrap();
    let fifteenth = 1_799_971_200; // 2027-01-15 00:00 UTC
    assert_eq!(away.until, Some(fifteenth));
    clock.set(fifteenth + DAY);
    svc.sweep().await.unwrap();
    let now = svc.vacation_status(&alice()).await.unwrap();
    assert_eq!((now.since, now.left), (None, 0), "2027's days are used up");
    assert!(matches!(
        svc.vacation(&alice(), true).await,
        Err(ServiceError::NoVacationLeft { days: 14 })
    ));
}

// ----- on Discord, end to end -----

/// Asked, begun and ended by command, each answered privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_by_command() {
    let h = Harness::start("vacation").await;
    let asked = h.slash(ALICE, CHANNEL, "vacation", &[]).await;
    assert!(asked.private());
    assert!(
        asked
            .content()
            .starts_with("You are not on vacation; 14 days"),
        "{}",
        asked.content()
    );
    // The choices are numbered as registered: on, off.
    let away = h
        .slash(ALICE, CHANNEL, "vacation", &[("set", Opt::Int(0))])
        .await;
    assert!(away.private());
    assert!(
        away.content().starts_with("You are on vacation"),
        "{}",
        away.content()
    );
    let back = h
        .slash(ALICE, CHANNEL, "vacation", &[("set", Opt::Int(1))])
        .await;
    assert!(
        back.content().starts_with("You are not on vacation"),
        "{}",
        back.content()
    );
    h.shutdown().await;
}
