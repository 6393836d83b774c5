//! A server against another, through the service: a home chosen by a manager, a challenge made
//! by a manager of one server and answered (once) by a manager of the other, and one game that
//! belongs to both servers and to no third, each voting for its side only and seeing the other's
//! window only as the turn it played.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use taflbot::discord::Shards;
use taflbot::rules::Side;
use taflbot::service::shown::Shown;
use taflbot::service::{
    Member, Membership, News, Person, Roster, Scope, ServerSeen, Service, ServiceError, SideChoice,
    TeamAnswer, TeamRole, TeamTerms, TestClock, DECLINED_PAUSE,
};

use crate::fake_discord::{in_guild, not_a_manager, s, Fake, Member as User, Opt, GUILD};
use crate::support::{
    alice, bob, carol, open, quick_config, scratch, service_at, told_played, until, ALICE, BOB,
    CAROL, CHANNEL, T0,
};

const HALL: &str = "101";
const KEEP: &str = "202";
/// A server taflbot is not in.
const ELSEWHERE: &str = "303";

/// What Discord would say of the servers: taflbot is in the Hall and the Keep.
struct Servers;

impl Roster for Servers {
    fn membership<'a>(
        &'a self,
        _: &'a str,
        _: &'a str,
    ) -> Pin<Box<dyn Future<Output = Membership> + Send + 'a>> {
        Box::pin(async { Membership::Unknown })
    }

    fn server<'a>(
        &'a self,
        guild: &'a str,
    ) -> Pin<Box<dyn Future<Output = ServerSeen> + Send + 'a>> {
        Box::pin(async move {
            match guild {
                HALL => ServerSeen::In("The Hall".into()),
                KEEP => ServerSeen::In("The *Keep*".into()),
                ELSEWHERE => ServerSeen::NotIn,
                _ => ServerSeen::Unknown,
            }
        })
    }
}

fn manager(p: Person) -> Member {
    Member {
        person: p,
        roles: Vec::new(),
        manages: true,
        newcomer: false,
    }
}

fn member(p: Person) -> Member {
    crate::support::member(p, &[])
}

fn dave() -> Person {
    Person::new("4", "dave")
}

fn terms(side: SideChoice) -> TeamTerms {
    TeamTerms {
        variant: "brandubh".parse().unwrap(),
        side,
        hours: Some(6),
        ping: false,
    }
}

fn in_server(svc: &Service, guild: &str) -> Service {
    svc.scoped(Scope::Server(guild.into()))
}

/// The Hall and the Keep as taflbot's processes see them, the Keep's home chosen.
async fn two_servers(svc: &Service) -> (Service, Service) {
    let svc = svc.clone().with_roster(Arc::new(Servers));
    let (hall, keep) = (in_server(&svc, HALL), in_server(&svc, KEEP));
    let keepers = TeamRole {
        id: "909".into(),
        name: "Keepers".into(),
    };
    keep.set_team_home(&manager(bob()), Some("keep-home"), Some(&keepers), false)
        .await
        .unwrap();
    (hall, keep)
}

#[tokio::test]
async fn a_challenge_is_refused_with_a_reason_and_nothing_kept() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let (hall, keep) = two_servers(&svc).await;
    let refused = |e: ServiceError| format!("{e:?}");
    let challenge = |who: Member, target: &'static str| {
        let hall = hall.clone();
        async move {
            hall.challenge_server(&who, target, &terms(SideChoice::Random), Some("hall-chan"))
                .await
        }
    };
    for (who, target, expected) in [
        (member(alice()), KEEP, "NotManager"),
        (manager(alice()), "the keep", "BadServer"),
        (manager(alice()), HALL, "SameServer"),
        (manager(alice()), ELSEWHERE, "NotInThatServer"),
        // taflbot may be there, but nobody chose a home.
        (manager(alice()), "404", "NoTeamHome"),
    ] {
        let e = challenge(who, target).await.unwrap_err();
        assert!(refused(e).starts_with(expected), "{target}: {expected}");
    }
    // A home is chosen by a manager only, and the local mode has no other server.
    assert!(matches!(
        keep.set_team_home(&member(carol()), Some("elsewhere"), None, false)
            .await,
        Err(ServiceError::NotManager)
    ));
    assert!(matches!(
        svc.set_team_home(&manager(carol()), None, None, false)
            .await,
        Err(ServiceError::OneServerHere)
    ));
    let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM team_challenges")
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(open, 0, "a refused challenge leaves nothing");

    // One challenge between two servers at a time, either way round.
    let made = challenge(manager(alice()), KEEP).await.unwrap();
    assert_eq!(made.to.name, "The *Keep*");
    assert_eq!(made.to_channel, "keep-home");
    let again = challenge(manager(dave()), KEEP).await.unwrap_err();
    assert!(matches!(again, ServiceError::TeamChallengeOpen(id) if id == made.id));
    hall.set_team_home(&manager(alice()), Some("hall-home"), None, false)
        .await
        .unwrap();
    let back = keep
        .challenge_server(&manager(bob()), HALL, &terms(SideChoice::Random), None)
        .await
        .unwrap_err();
    assert!(matches!(back, ServiceError::TeamChallengeOpen(_)));

    // The Hall may not answer its own challenge; a member of the Keep who is no manager neither.
    let own = hall
        .answer_team_challenge(&manager(alice()), made.id, true)
        .await
        .unwrap_err();
    assert!(matches!(own, ServiceError::NotYourTeamChallenge(_)));
    let plain = keep
        .answer_team_challenge(&member(carol()), made.id, true)
        .await
        .unwrap_err();
    assert!(matches!(plain, ServiceError::NotManager));
    // Declined, it is closed; a new challenge may follow.
    // (declined an hour after it was made: the pause runs from the answer)
    clock.advance(3600);
    let declined = keep
        .answer_team_challenge(&manager(bob()), made.id, false)
        .await
        .unwrap();
    assert!(matches!(declined, TeamAnswer::Declined(c) if c.id == made.id));
    let late = keep
        .answer_team_challenge(&manager(bob()), made.id, true)
        .await
        .unwrap_err();
    assert!(matches!(late, ServiceError::NoTeamChallenge(_)));
    // Declined, the Keep is not challenged again by the Hall for a day; then it may be.
    let soon = challenge(manager(alice()), KEEP).await.unwrap_err();
    assert!(matches!(soon, ServiceError::DeclinedLately(at) if at == T0 + 3600 + DECLINED_PAUSE));
    clock.advance(DECLINED_PAUSE - 1);
    let still = challenge(manager(alice()), KEEP).await.unwrap_err();
    assert!(matches!(still, ServiceError::DeclinedLately(_)));
    clock.advance(1);
    challenge(manager(alice()), KEEP).await.unwrap();
}

#[tokio::test]
async fn both_servers_play_one_game_each_voting_for_its_own_side() {
    let (svc, _) = service_at(":memory:", T0).await;
    let (hall, keep) = two_servers(&svc).await;
    let made = hall
        .challenge_server(
            &manager(alice()),
            KEEP,
            &terms(SideChoice::Attackers),
            Some("hall-chan"),
        )
        .await
        .unwrap();
    let TeamAnswer::Accepted(view) = keep
        .answer_team_challenge(&manager(bob()), made.id, true)
        .await
        .unwrap()
    else {
        panic!("accepted")
    };
    let id = view.id;
    assert_eq!(view.players[Side::Attackers].name, "The Hall");
    assert_eq!(view.players[Side::Defenders].name, "The *Keep*");
    assert_eq!(view.vote_window, Some(6 * 3600));
    let second = view.second.clone().expect("a game of two servers");
    assert_eq!(
        (second.guild.as_str(), second.side),
        (KEEP, Side::Defenders)
    );
    assert_eq!(second.channel.as_deref(), Some("keep-home"));
    assert_eq!(view.channel.as_deref(), Some("hall-chan"));

    // The game is both servers' and no third's.
    assert!(hall.game(id).await.is_ok());
    assert!(keep.game(id).await.is_ok());
    let third = in_server(&svc, ELSEWHERE).game(id).await.unwrap_err();
    assert!(matches!(third, ServiceError::OtherServer(_)));

    // The Keep waits for the Hall's window; its members vote in their own place.
    let early = keep
        .vote(&member(dave()), Some(id), None, "c4-c3")
        .await
        .unwrap_err();
    assert!(matches!(early, ServiceError::NotYourWindow { .. }));
    let cast = hall
        .vote(&member(carol()), None, Some("hall-chan"), "d2-e2")
        .await
        .unwrap();
    assert_eq!(cast.place.as_deref(), Some("hall-chan"));
    // The Hall chose no role to ping; the Keep's home names one.
    assert_eq!(svc.role_to_remind(id).await.unwrap(), None);
    let closed = hall
        .close_window_early(&manager(alice()), Some(id), None)
        .await
        .unwrap();
    assert_eq!(
        svc.role_to_remind(id).await.unwrap().as_deref(),
        Some("909")
    );
    let cast = keep
        .vote(&member(dave()), None, Some("keep-home"), "c4-c3")
        .await
        .unwrap();
    assert_eq!(
        (cast.side, cast.place.as_deref()),
        (Side::Defenders, Some("keep-home"))
    );
    // carol, a member of both servers, voted for the Hall: she does not vote for the Keep too.
    let both = keep
        .vote(&member(carol()), None, Some("keep-home"), "c4-c3")
        .await
        .unwrap_err();
    assert!(matches!(both, ServiceError::VotedForOtherSide(g) if g == id));
    // The Hall's manager cannot close the Keep's window.
    let not_theirs = hall
        .close_window_early(&manager(alice()), Some(id), None)
        .await
        .unwrap_err();
    assert!(matches!(not_theirs, ServiceError::NotCaptain(_)));

    // The Hall's tally is shown in the Hall; the Keep sees the turn the Hall played.
    let Shown::Game(kept) = svc.notice_shown(&closed).await.unwrap() else {
        panic!("game news")
    };
    let hall_sees = kept.seen_by(Side::Attackers).unwrap();
    assert!(matches!(&hall_sees.news, News::Voted { .. }));
    assert_eq!(hall_sees.view.place(), Some("hall-chan"));
    let keep_sees = kept.seen_by(Side::Defenders).unwrap();
    assert!(
        matches!(&keep_sees.news, News::Moved { text, .. } if text == "1. d2-e2"),
        "{:?}",
        keep_sees.news
    );
    assert_eq!(keep_sees.view.place(), Some("keep-home"));
    let said = keep_sees.text(&taflbot::service::text::Plain);
    assert!(said.contains("The *Keep*, your vote: /vote"), "{said}");
    assert!(!said.contains("1 vote"), "{said}");
    let said = hall_sees.text(&taflbot::service::text::Plain);
    assert!(said.contains("(1 of 1 vote)"), "{said}");
    assert!(said.contains("The *Keep* votes until"), "{said}");

    // Each server's record holds the game on its side.
    let going = keep.team_games().await.unwrap().going;
    assert_eq!(going.len(), 1);
    assert_eq!(going[0].ours, [Side::Defenders]);
    assert_eq!(
        hall.team_games().await.unwrap().going[0].ours,
        [Side::Attackers]
    );
}

#[tokio::test]
async fn a_team_resigns_by_the_vote_that_wins_its_window() {
    let (svc, _) = service_at(":memory:", T0).await;
    let (hall, keep) = two_servers(&svc).await;
    let made = hall
        .challenge_server(&manager(alice()), KEEP, &terms(SideChoice::Attackers), None)
        .await
        .unwrap();
    keep.answer_team_challenge(&manager(bob()), made.id, true)
        .await
        .unwrap();
    let id = 1;
    let vote = |server: &Service, who: Person, turn: &'static str| {
        let server = server.clone();
        async move { server.vote(&member(who), Some(id), None, turn).await }
    };
    vote(&hall, carol(), "d2-e2").await.unwrap();
    hall.close_window_early(&manager(alice()), Some(id), None)
        .await
        .unwrap();
    vote(&keep, dave(), "c4-c3").await.unwrap();
    keep.close_window_early(&manager(bob()), Some(id), None)
        .await
        .unwrap();
    vote(&hall, carol(), "d6-e6").await.unwrap();
    hall.close_window_early(&manager(alice()), Some(id), None)
        .await
        .unwrap();
    // The Keep: two vote to resign (however they write it), one for a move.
    vote(&keep, bob(), "c3-b3").await.unwrap();
    // (carol voted for the Hall: she may not vote for the Keep too.)
    let erin = Person::new("5", "erin");
    vote(&keep, erin, " Resign ").await.unwrap();
    vote(&keep, dave(), "resign").await.unwrap();
    let over = keep
        .close_window_early(&manager(bob()), Some(id), None)
        .await
        .unwrap();
    assert!(
        matches!(over.news(), News::Resigned { by } if by.name == "The *Keep*"),
        "{:?}",
        over.news()
    );
    let view = hall.game(id).await.unwrap();
    assert_eq!(
        view.outcome.and_then(|o| o.winner),
        Some(Side::Attackers),
        "the Hall wins"
    );
    let record = keep.team_games().await.unwrap();
    assert_eq!((record.won, record.lost), (0, 1));
    assert_eq!(hall.team_games().await.unwrap().won, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_managers_answering_at_once_begin_one_game() {
    let dir = scratch("server-teams-race");
    let db = dir.join("race.db");
    let clock = Arc::new(TestClock::new(T0));
    let (first, second) = (open(&db, &clock).await, open(&db, &clock).await);
    let (hall, keep) = two_servers(&first).await;
    let made = hall
        .challenge_server(&manager(alice()), KEEP, &terms(SideChoice::Random), None)
        .await
        .unwrap();
    let other = in_server(&second.with_roster(Arc::new(Servers)), KEEP);
    let (by_bob, by_carol) = (manager(bob()), manager(carol()));
    let (a, b) = tokio::join!(
        keep.answer_team_challenge(&by_bob, made.id, true),
        other.answer_team_challenge(&by_carol, made.id, true),
    );
    let accepted = [&a, &b]
        .iter()
        .filter(|r| matches!(r, Ok(TeamAnswer::Accepted(_))))
        .count();
    assert_eq!(accepted, 1, "{a:?} {b:?}");
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(first.pool())
        .await
        .unwrap();
    assert_eq!(games, 1);
}

// ----- end to end: two servers, two shards, two processes -----

/// The second server of the end-to-end test, on the other shard of two than the fake's own.
const KEEP_GUILD: u64 = 810_000_000_000_000_000;
/// Its home for team games.
const KEEP_HOME: u64 = 710_000_000_000_000_002;
/// The role the Keep pings before its windows close.
const KEEPERS: u64 = 720_000_000_000_000_003;
const DAVE: User = User {
    id: 400_000_000_000_000_004,
    name: "dave",
};

/// The post in `thread` that says `what`, waited for.
async fn said_in(fake: &Fake, thread: u64, what: &str) -> String {
    fake.wait_post(what, |p| p.channel == thread && p.content.contains(what))
        .await
        .content
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_two_shards_play_a_game_to_its_end() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    let fake = Fake::start().await;
    let dir = scratch("server-teams-e2e");
    let db = dir.join("bot.db");
    let clock = Arc::new(TestClock::new(1_790_000_000));
    assert_ne!(Shards::of_guild(GUILD, 2), Shards::of_guild(KEEP_GUILD, 2));
    // Two processes on one database, each running one shard.
    let mut bots = Vec::new();
    for shards in ["0/2", "1/2"] {
        let mut config = quick_config(&fake);
        config.shards = Some(shards.parse().unwrap());
        bots.push(fake.connect(config, open(&db, &clock).await).await);
    }
    until("both shards", || async { fake.identified().len() == 2 }).await;
    let hall = |who: User, channel: u64, name: &str, options: &[(&str, Opt)]| {
        fake.ask(fake.slash(who, channel, name, options))
    };
    let keep = |who: User, channel: u64, name: &str, options: &[(&str, Opt)]| {
        fake.ask(in_guild(
            fake.slash(who, channel, name, options),
            KEEP_GUILD,
        ))
    };
    let challenge = |server: String| {
        hall(
            ALICE,
            CHANNEL,
            "teamgame challenge",
            &[
                ("server", Opt::Str(server)),
                ("variant", s("brandubh")),
                ("side", Opt::Int(1)),
                ("hours", Opt::Int(2)),
            ],
        )
    };

    // Refused with a reason: a server without a home, and one taflbot is not in.
    let homeless = challenge(KEEP_GUILD.to_string()).await;
    assert!(homeless.private());
    assert!(
        homeless.content().contains("has no home for team games"),
        "{}",
        homeless.content()
    );
    fake.absent(999);
    let absent = challenge("999".into()).await;
    assert!(
        absent
            .content()
            .contains("Server 999 has not added taflbot"),
        "{}",
        absent.content()
    );
    // The Keep's home is chosen by a manager.
    let refused = fake
        .ask(not_a_manager(in_guild(
            fake.slash(DAVE, KEEP_HOME, "teamgame home", &[]),
            KEEP_GUILD,
        )))
        .await;
    assert!(
        refused
            .content()
            .contains("nly someone who manages this server"),
        "{}",
        refused.content()
    );
    let home = keep(
        BOB,
        KEEP_HOME,
        "teamgame home",
        &[("ping", Opt::Role(KEEPERS, "Keepers"))],
    )
    .await;
    assert!(home.content().contains("Keepers"), "{}", home.content());
    assert!(
        !home.content().contains("notify nobody"),
        "a mentionable role: {}",
        home.content()
    );
    assert!(
        home.content().contains(&format!("<#{KEEP_HOME}>")),
        "{}",
        home.content()
    );

    // The Hall (the fake's own server) challenges; the Keep sees it in its home.
    let made = challenge(KEEP_GUILD.to_string()).await;
    assert!(
        made.content().contains("Team challenge #1 is shown in"),
        "{}",
        made.content()
    );
    let shown = fake
        .wait_post("the challenge in the Keep", |p| p.channel == KEEP_HOME)
        .await;
    assert_eq!(shown.buttons, ["teamyes:1", "teamno:1"]);
    assert!(shown.content.contains("challenges"), "{}", shown.content);
    let not_manager = fake
        .ask(not_a_manager(in_guild(
            fake.press(DAVE, KEEP_HOME, "teamyes:1"),
            KEEP_GUILD,
        )))
        .await;
    assert!(not_manager.content().contains("nly someone who manages"));
    let accepted = fake
        .ask(in_guild(
            fake.press(BOB, KEEP_HOME, "teamyes:1"),
            KEEP_GUILD,
        ))
        .await;
    assert!(
        accepted.content().contains("accepted: team game #1"),
        "{}",
        accepted.content()
    );

    // Each server has its thread, with the opening board.
    let opening_in = |parent: u64| {
        let fake = fake.clone();
        async move {
            until("an opening board", || async {
                fake.posts().iter().any(|p| {
                    p.content.starts_with("Game #1:")
                        && fake.thread(p.channel).is_some_and(|t| t.parent == parent)
                })
            })
            .await;
            let posts = fake.posts();
            let post = posts.iter().find(|p| {
                p.content.starts_with("Game #1:")
                    && fake.thread(p.channel).is_some_and(|t| t.parent == parent)
            });
            post.cloned().unwrap()
        }
    };
    let hall_thread = opening_in(CHANNEL).await.channel;
    let keep_opening = opening_in(KEEP_HOME).await;
    let keep_thread = keep_opening.channel;
    assert!(!keep_opening.files.is_empty(), "the board");
    assert!(keep_opening.pings.is_empty(), "a team is never pinged");

    // The Keep attacks; the Hall waits for its window.
    let early = hall(CAROL, hall_thread, "vote", &[("move", s("d3-e3"))]).await;
    assert!(
        early.content().contains("is not your side's"),
        "{}",
        early.content()
    );
    // The Keep's window pings its role a quarter of the window's two hours before it closes,
    // in its own thread only.
    clock.advance(90 * 60 + 60);
    let reminder = fake
        .wait_post("the Keep's reminder", |p| {
            p.content.starts_with(&format!("<@&{KEEPERS}>"))
        })
        .await;
    assert_eq!(reminder.channel, keep_thread);
    assert!(fake
        .posts_in(hall_thread)
        .iter()
        .all(|p| !p.content.contains("<@&")));
    // The game to its end: each side's member votes in its own thread, its captain closes the
    // window, and the other server sees the turn played.
    let turns = [
        (true, "d1-e1"),
        (false, "d3-e3"),
        (true, "d2-c2"),
        (false, "d4-d2"),
        (true, "e1-e2"),
    ];
    for (keeps, mv) in turns {
        let (own, other) = if keeps {
            (keep_thread, hall_thread)
        } else {
            (hall_thread, keep_thread)
        };
        let vote = if keeps {
            keep(DAVE, own, "vote", &[("move", s(mv))]).await
        } else {
            hall(CAROL, own, "vote", &[("move", s(mv))]).await
        };
        assert!(vote.private(), "{}", vote.content());
        assert!(vote.content().contains(mv), "{}", vote.content());
        said_in(&fake, own, "1 vote so far").await;
        let closed = if keeps {
            keep(BOB, own, "teamgame play", &[]).await
        } else {
            hall(ALICE, own, "teamgame play", &[]).await
        };
        assert!(closed.private(), "{}", closed.content());
        // The turn played is numbered as the record numbers it (`3. d2-c2`).
        let tally = fake
            .wait_post(mv, |p| {
                p.channel == own && told_played(&p.content.replace("voted **`", "played "), mv)
            })
            .await
            .content;
        assert!(tally.contains("(1 of 1 vote)"), "{tally}");
        let seen = fake
            .wait_post(mv, |p| p.channel == other && told_played(&p.content, mv))
            .await
            .content;
        assert!(
            !seen.contains("vote)"),
            "the other's tally is not shown: {seen}"
        );
    }
    // Neither thread ever showed the other server's count of votes.
    for thread in [hall_thread, keep_thread] {
        let counts = fake
            .posts_in(thread)
            .into_iter()
            .filter(|p| p.content.contains("so far"))
            .count();
        assert_eq!(counts, 3 - usize::from(thread == hall_thread), "{thread}");
    }
    // The king is captured: both threads say so, and each server's record has the game.
    for thread in [hall_thread, keep_thread] {
        said_in(&fake, thread, "captured").await;
    }
    let record = keep(BOB, KEEP_HOME, "teamgame record", &[]).await;
    assert!(
        record.content().contains("1 won, 0 drawn, 0 lost"),
        "{}",
        record.content()
    );
    let record = hall(BOB, CHANNEL, "teamgame record", &[]).await;
    assert!(
        record.content().contains("0 won, 0 drawn, 1 lost"),
        "{}",
        record.content()
    );
    for bot in bots {
        bot.shutdown().await;
    }
}

/// Strangers' servers (anyone may make one) fill the places of challenges waiting for a server's
/// answer, but never stop it challenging; taking its home away withdraws them all.
#[tokio::test]
async fn strangers_challenges_never_stop_a_server_challenging_and_home_off_withdraws_them() {
    let (svc, _) = service_at(":memory:", T0).await;
    let (hall, _keep) = two_servers(&svc).await;
    let svc = svc.clone().with_roster(Arc::new(Servers));
    hall.set_team_home(&manager(alice()), Some("hall-home"), None, false)
        .await
        .unwrap();
    let stranger = |guild: &'static str| {
        let there = in_server(&svc, guild);
        async move {
            there
                .challenge_server(&manager(dave()), HALL, &terms(SideChoice::Random), None)
                .await
        }
    };
    for guild in ["501", "502", "503"] {
        stranger(guild).await.unwrap();
    }
    let fourth = stranger("504").await;
    assert!(
        matches!(
            fourth,
            Err(ServiceError::TooManyTeamChallenges {
                most: 3,
                received: true
            })
        ),
        "{fourth:?}"
    );
    // The Hall still challenges the Keep.
    hall.challenge_server(
        &manager(alice()),
        KEEP,
        &terms(SideChoice::Random),
        Some("hall-chan"),
    )
    .await
    .unwrap();
    let open = |column: &'static str| {
        let pool = svc.pool().clone();
        async move {
            let sql = format!(
                "SELECT COUNT(*) FROM team_challenges WHERE {column} = '{HALL}' AND status = 'open'"
            );
            sqlx::query_scalar::<_, i64>(&sql)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    assert_eq!((open("to_guild").await, open("from_guild").await), (3, 1));
    // Its home taken away, the strangers' challenges are withdrawn; its own stands.
    let off = hall
        .set_team_home(&manager(alice()), None, None, true)
        .await
        .unwrap();
    assert_eq!(off, None);
    assert_eq!((open("to_guild").await, open("from_guild").await), (0, 1));
    let answered = hall.answer_team_challenge(&manager(alice()), 1, true).await;
    assert!(
        matches!(answered, Err(ServiceError::NoTeamChallenge(1))),
        "{answered:?}"
    );
    // With a home again, it may be challenged again.
    hall.set_team_home(&manager(alice()), Some("hall-home"), None, false)
        .await
        .unwrap();
    stranger("504").await.unwrap();
}
