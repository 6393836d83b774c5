//! Team games through the service: a server against taflbot, or two of its roles against each
//! other, each turn a window of votes. The most-voted turn is played when the window closes (a
//! tie to the turn that reached its count first), a window without a vote opens again, and the
//! third in a row loses on time. Votes are the members' of the side to move, counted once each,
//! and those of members who left or lost the role are not counted.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use taflbot::rules::Side;
use taflbot::service::text::{self, Plain};
use taflbot::service::{
    GameResult, GameView, Member, Membership, News, NoticeKind, Person, Roster, Service,
    ServiceError, SideChoice, TeamOpponent, TeamRole, TeamTerms, EMPTY_WINDOWS_LOSE,
    MAX_TEAM_GAMES,
};

use crate::support::{alice, bob, carol, member, moves_stored, open, scratch, service_at, T0};

fn taflbot() -> Person {
    Person::new("u0", "taflbot")
}

fn dave() -> Person {
    Person::new("4", "dave")
}

fn erin() -> Person {
    Person::new("5", "erin")
}

/// `m` with the server's Manage Server right: only a manager starts a game between roles.
fn managing(m: &Member) -> Member {
    Member {
        manages: true,
        ..m.clone()
    }
}

fn role(id: &str, name: &str) -> TeamRole {
    TeamRole {
        id: id.into(),
        name: name.into(),
    }
}

fn terms(side: SideChoice, hours: u32) -> TeamTerms {
    TeamTerms {
        variant: "brandubh".parse().unwrap(),
        side,
        hours: Some(hours),
        ping: false,
    }
}

/// The server's team (alice its captain) against taflbot at level 1, playing `side`.
async fn versus_taflbot(svc: &Service, side: SideChoice, hours: u32) -> GameView {
    let bot = TeamOpponent::Taflbot {
        bot: taflbot(),
        level: Some(1),
    };
    svc.start_team_game(
        &member(alice(), &[]),
        "The Hall",
        &bot,
        &terms(side, hours),
        Some("chan"),
    )
    .await
    .unwrap()
}

async fn vote(svc: &Service, who: Person, game: i64, turn: &str) -> taflbot::service::Voted {
    svc.vote(&member(who, &[]), Some(game), None, turn)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_server_votes_and_its_most_voted_turn_is_played_against_taflbot() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let view = versus_taflbot(&svc, SideChoice::Attackers, 2).await;
    let id = view.id;
    let team = &view.players[Side::Attackers];
    assert_eq!(team.name, "The Hall");
    assert!(team.is_team());
    assert_eq!(view.players[Side::Defenders], taflbot());
    assert_eq!(view.waiting_for.as_ref(), Some(team));
    assert_eq!(view.deadline, T0 + 2 * 3600);
    assert!(!view.rated);
    // The post calls on the team to vote, and pings nobody.
    let started = text::post(&News::Started, &view, &Plain);
    assert!(
        started.contains("The Hall, your vote: /vote until"),
        "{started}"
    );
    assert!(News::Started.addressees(&view).is_empty());

    let first = vote(&svc, bob(), id, "d2-e2").await;
    assert_eq!(
        (first.votes, first.changed, first.turn_number.to_string()),
        (1, false, "1.".to_string())
    );
    assert_eq!(first.turn, "d2-e2");
    vote(&svc, carol(), id, "d1-c1").await;
    let third = vote(&svc, dave(), id, "d1c1").await;
    assert_eq!(third.votes, 3);
    assert_eq!(third.turn, "d1-c1", "kept in canonical form");
    // An illegal move is refused in the rules' words, and nothing is kept.
    let illegal = svc
        .vote(&member(erin(), &[]), Some(id), None, "d1-d7")
        .await;
    assert!(matches!(illegal, Err(ServiceError::Move(_))), "{illegal:?}");
    // Only the captain (who started it) or a manager closes the window early.
    let early = svc
        .close_window_early(&member(bob(), &[]), Some(id), None)
        .await;
    assert!(
        matches!(early, Err(ServiceError::NotCaptain(g)) if g == id),
        "{early:?}"
    );
    assert_eq!(moves_stored(&svc, id).await, 0);

    clock.advance(600);
    let notice = svc
        .close_window_early(&member(alice(), &[]), Some(id), None)
        .await
        .unwrap();
    assert_eq!(notice.kind, NoticeKind::Voted);
    let News::Voted { by, tally } = notice.news() else {
        panic!("{:?}", notice.news());
    };
    assert_eq!(&by, team);
    assert_eq!(tally.voters, 3);
    assert_eq!(
        tally.counts,
        vec![("d1-c1".to_string(), 2), ("d2-e2".to_string(), 1)]
    );
    assert_eq!(moves_stored(&svc, id).await, 1);
    let game = svc.game(id).await.unwrap();
    let said = text::post(&notice.news(), &game, &Plain);
    assert!(
        said.starts_with("The Hall voted 1. d1-c1 (2 of 3 votes; d2-e2 1)."),
        "{said}"
    );
    assert!(said.ends_with("taflbot is thinking."), "{said}");

    // taflbot answers, and the next window opens from its move.
    assert_eq!(svc.bot_games_due().await.unwrap(), vec![id]);
    svc.bot_turn(id).await.unwrap().expect("taflbot moves");
    let game = svc.game(id).await.unwrap();
    assert_eq!(game.waiting_for.as_ref(), Some(team));
    assert_eq!(game.deadline, T0 + 600 + 2 * 3600);
    // Last window's votes are not this one's: the count starts again.
    let again = svc.vote(&member(bob(), &[]), Some(id), None, "c1-c2").await;
    match again {
        Ok(v) => assert_eq!(
            (v.votes, v.changed, v.turn_number.to_string()),
            (1, false, "2.".to_string())
        ),
        // The move may be illegal after taflbot's answer: then the refusal names it.
        Err(e) => assert!(matches!(e, ServiceError::Move(_)), "{e:?}"),
    }
}

#[tokio::test]
async fn a_tie_goes_to_the_turn_that_reached_its_count_first_and_a_changed_vote_moves() {
    let (svc, _) = service_at(":memory:", T0).await;
    let id = versus_taflbot(&svc, SideChoice::Attackers, 24).await.id;
    vote(&svc, bob(), id, "d2-e2").await;
    vote(&svc, carol(), id, "d1-c1").await;
    vote(&svc, dave(), id, "d1-c1").await;
    vote(&svc, erin(), id, "d2-e2").await;
    // Two each: d1-c1 had its second vote before d2-e2 had.
    let closed = svc
        .close_window_early(&member(alice(), &[]), Some(id), None)
        .await
        .unwrap();
    let News::Voted { tally, .. } = closed.news() else {
        panic!()
    };
    assert_eq!(tally.counts[0], ("d1-c1".to_string(), 2));
    assert_eq!(tally.counts[1], ("d2-e2".to_string(), 2));

    // A changed vote replaces the member's first: counted once, for the new turn.
    {
        let (svc2, _) = service_at(":memory:", T0).await;
        let id = versus_taflbot(&svc2, SideChoice::Attackers, 24).await.id;
        vote(&svc2, bob(), id, "d2-e2").await;
        vote(&svc2, carol(), id, "d2-e2").await;
        vote(&svc2, dave(), id, "d1-c1").await;
        let changed = vote(&svc2, bob(), id, "d1-c1").await;
        assert!(changed.changed);
        assert_eq!(changed.votes, 3, "bob counts once");
        let changed_vote = changed;
        // The count stays 3: once a post shows it, a changed vote edits nothing, and a new vote
        // or a window with no post yet is shown.
        let shown = |changed: bool, post: Option<&str>| {
            taflbot::service::Voted {
                changed,
                count_post: post.map(str::to_string),
                ..changed_vote.clone()
            }
            .count_to_show()
        };
        assert!(!shown(true, Some("123")));
        assert!(shown(false, Some("123")));
        assert!(shown(true, None));
        let closed = svc2
            .close_window_early(&member(alice(), &[]), Some(id), None)
            .await
            .unwrap();
        let News::Voted { tally, .. } = closed.news() else {
            panic!()
        };
        assert_eq!(tally.voters, 3);
        assert_eq!(tally.winner(), Some("d1-c1"));
    }
}

#[tokio::test]
async fn the_sweeper_closes_a_window_and_a_vote_after_it_is_refused() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let id = versus_taflbot(&svc, SideChoice::Attackers, 1).await.id;
    vote(&svc, bob(), id, "d2-e2").await;
    // Before its time the sweep leaves the window open.
    assert!(svc.sweep().await.unwrap().is_empty());
    clock.advance(3600);
    let late = svc
        .vote(&member(carol(), &[]), Some(id), None, "d1-c1")
        .await;
    assert!(
        matches!(late, Err(ServiceError::WindowOver(g)) if g == id),
        "{late:?}"
    );
    let notices = svc.sweep().await.unwrap();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].kind, NoticeKind::Voted);
    assert_eq!(moves_stored(&svc, id).await, 1);
    // The sweep again finds nothing: the window was closed once.
    assert!(svc.sweep().await.unwrap().is_empty());
    assert_eq!(moves_stored(&svc, id).await, 1);
}

#[tokio::test]
async fn windows_without_a_vote_open_again_and_the_third_in_a_row_loses_on_time() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let id = versus_taflbot(&svc, SideChoice::Attackers, 1).await.id;
    // Closing early needs a vote.
    let early = svc
        .close_window_early(&member(alice(), &[]), Some(id), None)
        .await;
    assert!(
        matches!(early, Err(ServiceError::NoVotesYet(_))),
        "{early:?}"
    );
    for empty in 1..EMPTY_WINDOWS_LOSE {
        clock.advance(3600);
        let notices = svc.sweep().await.unwrap();
        assert_eq!(notices.len(), 1);
        assert_eq!(
            notices[0].news(),
            News::NoVotes {
                team: svc.game(id).await.unwrap().players[Side::Attackers].clone(),
                empty: empty as u32
            }
        );
        let game = svc.game(id).await.unwrap();
        assert!(game.outcome.is_none());
        assert_eq!(
            game.deadline,
            T0 + (empty + 1) * 3600,
            "open again for an hour"
        );
        let said = text::post(&notices[0].news(), &game, &Plain);
        assert!(
            said.starts_with("Nobody voted for The Hall in game #"),
            "{said}"
        );
    }
    clock.advance(3600);
    let notices = svc.sweep().await.unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].kind, NoticeKind::Timeout);
    let game = svc.game(id).await.unwrap();
    assert_eq!(game.outcome.and_then(|o| o.winner), Some(Side::Defenders));
    assert!(!game.rated);
    let record = svc.team_games().await.unwrap();
    assert_eq!((record.won, record.drawn, record.lost), (0, 0, 1));
    assert!(record.going.is_empty());
    assert_eq!(record.finished[0].result, GameResult::DefendersWon);
}

#[tokio::test]
async fn two_roles_play_and_a_member_of_neither_or_of_both_is_refused() {
    let (svc, _) = service_at(":memory:", T0).await;
    let (reds, blues) = (role("11", "Reds"), role("22", "Blues"));
    let roles = TeamOpponent::Roles {
        attackers: reds.clone(),
        defenders: blues.clone(),
    };
    let same = TeamOpponent::Roles {
        attackers: reds.clone(),
        defenders: reds.clone(),
    };
    let starter = member(alice(), &["11"]);
    // A plain member may not start a game between roles (its reminders may ping them).
    let plain = svc
        .start_team_game(
            &starter,
            "The Hall",
            &roles,
            &terms(SideChoice::Random, 24),
            None,
        )
        .await;
    assert!(matches!(plain, Err(ServiceError::NotManager)), "{plain:?}");
    let refused = svc
        .start_team_game(
            &managing(&starter),
            "The Hall",
            &same,
            &terms(SideChoice::Random, 24),
            None,
        )
        .await;
    assert!(
        matches!(refused, Err(ServiceError::SameRoles)),
        "{refused:?}"
    );
    // The starter manages the server then; the captain's rule holds once she no longer does.
    let view = svc
        .start_team_game(
            &managing(&starter),
            "The Hall",
            &roles,
            &terms(SideChoice::Random, 24),
            None,
        )
        .await
        .unwrap();
    let id = view.id;
    assert_eq!(view.players[Side::Attackers].name, "Reds");
    assert_eq!(view.players[Side::Defenders].name, "Blues");
    assert!(view.bot.is_none());

    let neither = svc.vote(&member(bob(), &["99"]), None, None, "d2-e2").await;
    assert!(
        matches!(neither, Err(ServiceError::NotOnTeam(g)) if g == id),
        "{neither:?}"
    );
    let both = svc
        .vote(&member(carol(), &["11", "22"]), None, None, "d2-e2")
        .await;
    assert!(
        matches!(both, Err(ServiceError::OnBothTeams(g)) if g == id),
        "{both:?}"
    );
    let blue = svc
        .vote(&member(dave(), &["22"]), None, None, "c4-c3")
        .await;
    assert!(
        matches!(&blue, Err(ServiceError::NotYourWindow { waiting_for, .. }) if waiting_for.name == "Reds"),
        "{blue:?}"
    );
    // A red votes, the window closes (a manager may close it), and the blues' window opens.
    svc.vote(&member(erin(), &["11", "33"]), None, None, "d2-e2")
        .await
        .unwrap();
    let manager = Member {
        manages: true,
        ..member(bob(), &[])
    };
    svc.close_window_early(&manager, Some(id), None)
        .await
        .unwrap();
    let voted = svc
        .vote(&member(dave(), &["22"]), None, None, "c4-c3")
        .await
        .unwrap();
    assert_eq!((voted.side, voted.votes), (Side::Defenders, 1));
    // alice started the game and holds the reds' role: she captains the reds, not the blues.
    let not_hers = svc.close_window_early(&starter, Some(id), None).await;
    assert!(
        matches!(not_hers, Err(ServiceError::NotCaptain(g)) if g == id),
        "{not_hers:?}"
    );
    svc.close_window_early(&manager, Some(id), None)
        .await
        .unwrap();
    svc.vote(&member(erin(), &["11"]), None, None, "e2-e3")
        .await
        .unwrap();
    svc.close_window_early(&starter, Some(id), None)
        .await
        .unwrap();
    // Between two of its roles, the server's record counts the game for neither.
    assert_eq!(svc.team_games().await.unwrap().going.len(), 1);
    assert_eq!(svc.team_games().await.unwrap().going[0].ours.len(), 2);
}

/// A roster that knows who is still a member and with which roles, and counts the questions.
#[derive(Default)]
struct Known(Mutex<HashMap<String, Membership>>, AtomicUsize);

impl Roster for Known {
    fn membership<'a>(
        &'a self,
        _guild: &'a str,
        member: &'a str,
    ) -> Pin<Box<dyn Future<Output = Membership> + Send + 'a>> {
        self.1.fetch_add(1, Ordering::SeqCst);
        let known = self.0.lock().unwrap().get(member).cloned();
        Box::pin(async move { known.unwrap_or(Membership::Unknown) })
    }
}

#[tokio::test]
async fn a_voter_who_left_or_lost_the_role_is_not_counted() {
    let (svc, _) = service_at(":memory:", T0).await;
    let known = Arc::new(Known::default());
    let svc = svc.with_roster(known.clone());
    let roles = TeamOpponent::Roles {
        attackers: role("11", "Reds"),
        defenders: role("22", "Blues"),
    };
    let id = svc
        .start_team_game(
            &managing(&member(alice(), &["11"])),
            "The Hall",
            &roles,
            &terms(SideChoice::Random, 24),
            None,
        )
        .await
        .unwrap()
        .id;
    for who in [bob(), carol()] {
        svc.vote(&member(who, &["11"]), Some(id), None, "d2-e2")
            .await
            .unwrap();
    }
    svc.vote(&member(dave(), &["11"]), Some(id), None, "d1-c1")
        .await
        .unwrap();
    // bob left the server; carol holds the other role now; dave is as he was.
    {
        let mut k = known.0.lock().unwrap();
        k.insert(bob().key, Membership::Gone);
        k.insert(carol().key, Membership::Roles(vec!["22".into()]));
        k.insert(dave().key, Membership::Roles(vec!["11".into()]));
    }
    // One who may not close the window is refused before anyone is asked about.
    let refused = svc
        .close_window_early(&member(erin(), &["11"]), Some(id), None)
        .await;
    assert!(
        matches!(refused, Err(ServiceError::NotCaptain(_))),
        "{refused:?}"
    );
    assert_eq!(known.1.load(Ordering::SeqCst), 0);
    let closed = svc
        .close_window_early(&member(alice(), &["11"]), Some(id), None)
        .await
        .unwrap();
    let News::Voted { tally, .. } = closed.news() else {
        panic!()
    };
    assert_eq!(
        known.1.load(Ordering::SeqCst),
        3,
        "each voter asked about once"
    );
    assert_eq!(tally.voters, 1);
    assert_eq!(tally.winner(), Some("d1-c1"));
}

#[tokio::test]
async fn a_server_has_few_team_games_at_once_and_a_window_lasts_1_to_72_hours() {
    let (svc, _) = service_at(":memory:", T0).await;
    let bot = TeamOpponent::Taflbot {
        bot: taflbot(),
        level: None,
    };
    for hours in [0, 73] {
        let refused = svc
            .start_team_game(
                &member(alice(), &[]),
                "H",
                &bot,
                &terms(SideChoice::Attackers, hours),
                None,
            )
            .await;
        assert!(
            matches!(refused, Err(ServiceError::BadWindow(h)) if h == hours),
            "{refused:?}"
        );
    }
    let people = [alice(), bob(), carol(), dave()];
    for p in &people[..MAX_TEAM_GAMES as usize] {
        svc.start_team_game(
            &member(p.clone(), &[]),
            "H",
            &bot,
            &terms(SideChoice::Attackers, 24),
            None,
        )
        .await
        .unwrap();
    }
    let again = svc
        .start_team_game(
            &member(alice(), &[]),
            "H",
            &bot,
            &terms(SideChoice::Attackers, 24),
            None,
        )
        .await;
    assert!(
        matches!(again, Err(ServiceError::TooManyTeamGames(_))),
        "{again:?}"
    );
    // Several going: a vote must say which.
    let which = svc.vote(&member(erin(), &[]), None, None, "d2-e2").await;
    assert!(
        matches!(&which, Err(ServiceError::SeveralTeamGames(ids)) if ids.len() == 3),
        "{which:?}"
    );
}

#[tokio::test]
async fn a_starter_has_one_team_game_going_at_a_time() {
    let (svc, _) = service_at(":memory:", T0).await;
    let bot = TeamOpponent::Taflbot {
        bot: taflbot(),
        level: None,
    };
    let t = terms(SideChoice::Attackers, 24);
    svc.start_team_game(&member(alice(), &[]), "H", &bot, &t, None)
        .await
        .unwrap();
    let second = svc
        .start_team_game(&member(alice(), &[]), "H", &bot, &t, None)
        .await;
    assert!(
        matches!(second, Err(ServiceError::TeamGameOfYours)),
        "{second:?}"
    );
}

#[tokio::test]
async fn two_processes_closing_one_window_play_one_turn() {
    let dir = scratch("teams-two-processes");
    let db = dir.join("t.db");
    let clock = Arc::new(taflbot::service::TestClock::new(T0));
    let (a, b) = (open(&db, &clock).await, open(&db, &clock).await);
    let id = versus_taflbot(&a, SideChoice::Attackers, 1).await.id;
    vote(&a, bob(), id, "d2-e2").await;
    vote(&b, carol(), id, "d2-e2").await;
    clock.advance(3600);
    let (x, y) = tokio::join!(a.sweep(), b.sweep());
    let voted = x.unwrap().len() + y.unwrap().len();
    assert_eq!(voted, 1, "one window, one notice");
    assert_eq!(moves_stored(&a, id).await, 1);
}

/// A team game kept alive by a vote a window holds one of the server's places: its managers
/// call it off, at any move, with no result, and the place is free again.
#[tokio::test]
async fn a_manager_calls_a_team_game_off_at_any_move() {
    let (svc, _) = service_at(":memory:", T0).await;
    let id = versus_taflbot(&svc, SideChoice::Attackers, 2).await.id;
    vote(&svc, bob(), id, "d2-e2").await;
    svc.close_window_early(&member(alice(), &[]), Some(id), None)
        .await
        .unwrap();
    assert_eq!(moves_stored(&svc, id).await, 1);
    // Neither a plain member nor the captain may; a manager may.
    for plain in [member(bob(), &[]), member(alice(), &[])] {
        let refused = svc.call_off_team_game(&plain, Some(id), None).await;
        assert!(
            matches!(refused, Err(ServiceError::NotManager)),
            "{refused:?}"
        );
    }
    let manager = managing(&member(carol(), &[]));
    let notice = svc.call_off_team_game(&manager, None, None).await.unwrap();
    assert_eq!(notice.game_id, id);
    assert_eq!(notice.news(), News::Aborted { by: carol() });
    let game = svc.game(id).await.unwrap();
    assert!(game.aborted && game.outcome.is_none() && game.waiting_for.is_none());
    // A game called off is in no record.
    let record = svc.team_games().await.unwrap();
    assert!(record.going.is_empty() && record.finished.is_empty());
    assert_eq!((record.won, record.drawn, record.lost), (0, 0, 0));
    let again = svc.call_off_team_game(&manager, Some(id), None).await;
    assert!(
        matches!(again, Err(ServiceError::GameOver(g, _)) if g == id),
        "{again:?}"
    );
    // alice's one game is over: she may start another.
    versus_taflbot(&svc, SideChoice::Defenders, 2).await;
}
