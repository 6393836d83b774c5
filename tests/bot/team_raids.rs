//! Team games against a raid (the audit's TG2 and TG4): accounts or memberships too new for
//! rated play cannot vote, resigning needs more than half of a window's votes, and closing a
//! window of hundreds of voters asks Discord about a capped number of them, a few at a time,
//! after every other game's deadline of the sweep.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use taflbot::service::text::{self, Plain};
use taflbot::service::{
    Member, Membership, News, NoticeKind, Person, Roster, Service, ServiceError, SideChoice,
    TeamOpponent, TeamTerms, DAY,
};

use crate::support::{alice, bob, brandubh_game, carol, service_at, T0};

fn member(p: Person) -> Member {
    crate::support::member(p, &[])
}

/// The server's team (alice its captain) attacking taflbot at level 1, windows of `hours`.
async fn versus_taflbot(svc: &Service, hours: u32) -> i64 {
    let bot = TeamOpponent::Taflbot {
        bot: Person::new("u0", "taflbot"),
        level: Some(1),
    };
    let terms = TeamTerms {
        variant: "brandubh".parse().unwrap(),
        side: SideChoice::Attackers,
        hours: Some(hours),
        ping: false,
    };
    svc.start_team_game(&member(alice()), "The Hall", &bot, &terms, Some("chan"))
        .await
        .unwrap()
        .id
}

fn voter(i: usize) -> Person {
    Person::new(format!("9{i:04}"), format!("voter{i}"))
}

#[tokio::test]
async fn a_fresh_account_cannot_vote_and_resigning_needs_more_than_half() {
    let (svc, _) = service_at(":memory:", T0).await;
    let id = versus_taflbot(&svc, 24).await;
    let fresh = Member {
        newcomer: true,
        ..member(voter(1))
    };
    let refused = svc.vote(&fresh, Some(id), None, "resign").await;
    let Err(e) = refused else {
        panic!("a fresh account's vote was taken: {refused:?}")
    };
    assert!(
        matches!(e, ServiceError::TooNewToVote(g) if g == id),
        "{e:?}"
    );
    assert!(
        text::refusal(&e, &Plain).starts_with(
            "votes in team games are for accounts at least 7 days old that joined this server 3 days ago or more, as rated games are, so your vote in game #1 cannot be taken yet"
        ),
        "{}",
        text::refusal(&e, &Plain)
    );

    // One resign among three votes leads the count (it came first) but is no majority: the
    // next turn is played, and the post says why.
    for (who, turn) in [(bob(), "resign"), (carol(), "d2-e2"), (voter(2), "d1-c1")] {
        svc.vote(&member(who), Some(id), None, turn).await.unwrap();
    }
    let closed = svc
        .close_window_early(&member(alice()), Some(id), None)
        .await
        .unwrap();
    let News::Voted { tally, .. } = closed.news() else {
        panic!("{:?}", closed.news())
    };
    assert_eq!(tally.winner(), Some("d2-e2"));
    let view = svc.game(id).await.unwrap();
    assert!(view.outcome.is_none(), "the game goes on");
    let said = text::news(&closed.news(), &view, &Plain);
    assert!(
        said.contains("voted 1. d2-e2 (1 of 3 votes; resign 1, d1-c1 1). Resigning needs more than half of the votes."),
        "{said}"
    );

    // Two of three do resign (before each side has made a turn, which calls the game off).
    let (svc, _) = service_at(":memory:", T0).await;
    let id = versus_taflbot(&svc, 24).await;
    for (who, turn) in [(bob(), "resign"), (carol(), "d2-e2"), (voter(2), "resign")] {
        svc.vote(&member(who), Some(id), None, turn).await.unwrap();
    }
    svc.close_window_early(&member(alice()), Some(id), None)
        .await
        .unwrap();
    assert!(svc.game(id).await.unwrap().aborted);
}

/// A roster that takes 20 ms to answer, counting the questions and how many were open at once.
#[derive(Default)]
struct Slow {
    asked: AtomicUsize,
    open: AtomicUsize,
    most_open: AtomicUsize,
}

impl Roster for Slow {
    fn membership<'a>(
        &'a self,
        _guild: &'a str,
        _member: &'a str,
    ) -> Pin<Box<dyn Future<Output = Membership> + Send + 'a>> {
        Box::pin(async move {
            self.asked.fetch_add(1, Ordering::SeqCst);
            let open = self.open.fetch_add(1, Ordering::SeqCst) + 1;
            self.most_open.fetch_max(open, Ordering::SeqCst);
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            self.open.fetch_sub(1, Ordering::SeqCst);
            Membership::Unknown
        })
    }
}

#[tokio::test]
async fn a_window_of_300_voters_asks_about_a_hundred_a_few_at_a_time_after_other_deadlines() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let slow = Arc::new(Slow::default());
    let svc = svc.with_roster(slow.clone());
    // A window of three days, and a game between two people whose three days end with it.
    let id = versus_taflbot(&svc, 72).await;
    let other = brandubh_game(&svc, &bob(), &carol()).await;
    for i in 0..300 {
        let turn = if i % 3 == 0 { "d1-c1" } else { "d2-e2" };
        svc.vote(&member(voter(i)), Some(id), None, turn)
            .await
            .unwrap();
    }
    clock.advance(3 * DAY + 60);
    let notices = svc.sweep().await.unwrap();
    let timeout = notices
        .iter()
        .position(|n| n.game_id == other && n.kind == NoticeKind::Timeout);
    let voted = notices
        .iter()
        .position(|n| n.game_id == id && n.kind == NoticeKind::Voted);
    let (Some(timeout), Some(voted)) = (timeout, voted) else {
        panic!("{notices:?}")
    };
    assert!(timeout < voted, "the loss on time waited for the window");
    assert_eq!(slow.asked.load(Ordering::SeqCst), 100);
    let most = slow.most_open.load(Ordering::SeqCst);
    assert!((2..=8).contains(&most), "{most} questions open at once");
    let News::Voted { tally, .. } = notices[voted].news() else {
        panic!()
    };
    assert_eq!((tally.voters, tally.winner()), (300, Some("d2-e2")));
}
