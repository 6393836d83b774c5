//! A tournament end to end through the fake Discord: made, joined by four, refused to a
//! stranger, started (its thread opened, and a thread per game, each with its opening board),
//! played out by resignations in the games' threads (the crosstable posted in the tournament's
//! thread after each result, the winner named and pinged at the end), stood, listed; and a second
//! one left and called off.

use taflbot::rules::Side;

use crate::fake_discord::{not_a_manager, s, Member, Opt};
use crate::support::{is_png, until, Harness, ALICE, BOB, CAROL, CHANNEL};

const DAVE: Member = Member {
    id: 444_444_444_444_444_444,
    name: "dave",
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_four_runs_end_to_end() {
    let h = Harness::start("tournament").await;
    let made = h
        .slash(
            ALICE,
            CHANNEL,
            "tournament create",
            // Discord sends a choice as its number: 0 is round-robin.
            &[
                ("variant", s("brandubh")),
                ("format", Opt::Int(0)),
                ("name", s("**Yule** @everyone")),
            ],
        )
        .await;
    assert!(!made.private());
    let said = made.content();
    assert!(
        said.starts_with("alice made tournament #1 **\\*\\*Yule\\*\\* @\u{200B}everyone**"),
        "{said}"
    );
    // No thread yet: it opens when the tournament starts, so that one made and called off
    // holds none of the server's active threads.
    assert!(h.fake.threads_of(CHANNEL).is_empty());

    for who in [BOB, CAROL, DAVE] {
        let joined = h.slash(who, CHANNEL, "tournament join", &[]).await;
        assert!(!joined.private(), "{}", joined.content());
        assert!(joined
            .content()
            .contains(&format!("{} joined tournament #1", who.name)));
    }
    let again = h.slash(BOB, CHANNEL, "tournament join", &[]).await;
    assert!(again.private());
    assert_eq!(again.content(), "You are in tournament #1 already.");
    // bob did not make it and does not manage the server.
    let stranger = h
        .fake
        .ask(not_a_manager(h.fake.slash(
            BOB,
            CHANNEL,
            "tournament start",
            &[],
        )))
        .await;
    assert!(stranger.private());
    assert!(
        stranger
            .content()
            .starts_with("Only the creator of tournament #1"),
        "{}",
        stranger.content()
    );
    assert!(h.fake.threads_of(CHANNEL).is_empty(), "nothing started");

    let started = h
        .fake
        .ask(not_a_manager(h.fake.slash(
            ALICE,
            CHANNEL,
            "tournament start",
            &[],
        )))
        .await;
    assert!(!started.private());
    assert!(
        started
            .content()
            .contains("has begun (every match at once): 12 games begin now"),
        "{}",
        started.content()
    );
    let mut pinged = started.pings();
    pinged.sort();
    assert_eq!(pinged.len(), 4, "{pinged:?}");

    // The tournament's thread, where its news will go, then a thread for each of the twelve
    // games, each opened with its board.
    until("the tournament's and twelve game threads", || async {
        h.fake.threads_of(CHANNEL).len() == 13
    })
    .await;
    let tournament_thread = h.fake.threads_of(CHANNEL)[0];
    assert!(h
        .fake
        .thread(tournament_thread)
        .unwrap()
        .name
        .starts_with("Tournament #1 "));
    let mut games = Vec::new();
    for id in 1..=12 {
        let view = h.service.game(id).await.unwrap();
        let thread: u64 = view.thread.clone().expect("a thread").parse().unwrap();
        assert_ne!(thread, tournament_thread);
        let opening = h
            .fake
            .wait_post("the opening board", |p| {
                p.channel == thread && !p.files.is_empty()
            })
            .await;
        assert!(is_png(opening.files.first().map(|f| f.1.as_slice())));
        let players = [
            view.players[Side::Attackers].clone(),
            view.players[Side::Defenders].clone(),
        ];
        games.push((id, thread, players));
    }

    // The results: alice beats everyone, then bob, then carol. The loser resigns in the game's
    // own thread.
    let order = [ALICE, BOB, CAROL, DAVE];
    let rank = |key: &str| order.iter().position(|m| m.id.to_string() == key).unwrap();
    for (n, (_, thread, players)) in games.iter().enumerate() {
        let loser = if rank(&players[0].key) > rank(&players[1].key) {
            &players[0]
        } else {
            &players[1]
        };
        let loser = order[rank(&loser.key)];
        let resigned = h.slash(loser, *thread, "resign", &[]).await;
        assert!(
            resigned.content().contains("resigned"),
            "{}",
            resigned.content()
        );
        // The tournament's thread gets the standings and the crosstable after each result.
        until("the crosstable after a result", || async {
            h.fake
                .posts_in(tournament_thread)
                .iter()
                .filter(|p| p.files.iter().any(|f| f.0 == "crosstable.png"))
                .count()
                == n + 1
        })
        .await;
    }
    let last = h.fake.posts_in(tournament_thread).last().cloned().unwrap();
    assert!(
        last.content
            .starts_with(&format!("<@{}> wins tournament #1", ALICE.id)),
        "{}",
        last.content
    );
    assert!(
        last.pings.contains(&ALICE.id.to_string()),
        "{:?}",
        last.pings
    );

    let standings = h
        .slash(
            CAROL,
            CHANNEL,
            "tournament standings",
            &[("tournament", Opt::Int(1))],
        )
        .await;
    let text = standings.content();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            "1. alice 6 (SB 12.00, 6 won)",
            "2. bob 4 (SB 4.00, 4 won)",
            "3. carol 2 (SB 0.00, 2 won)",
            "4. dave 0 (SB 0.00, 0 won)",
        ],
        "{text}"
    );
    assert!(is_png(standings.png()));

    // A second tournament: joined and left before the start, then called off.
    let second = h
        .slash(
            CAROL,
            CHANNEL,
            "tournament create",
            &[("variant", s("tablut")), ("format", Opt::Int(2))],
        )
        .await;
    assert!(
        second.content().contains("made tournament #2"),
        "{}",
        second.content()
    );
    let joined = h.slash(DAVE, CHANNEL, "tournament join", &[]).await;
    assert!(
        joined.content().contains("dave joined tournament #2"),
        "{}",
        joined.content()
    );
    let left = h
        .slash(
            DAVE,
            CHANNEL,
            "tournament leave",
            &[("tournament", Opt::Int(2))],
        )
        .await;
    assert!(
        left.content().contains("dave left tournament #2"),
        "{}",
        left.content()
    );
    let list = h.slash(DAVE, CHANNEL, "tournament list", &[]).await;
    assert!(list.private());
    assert!(
        list.content()
            .contains("#2 **Tablut \\(Cartier\\) knockout**: Tablut (Cartier), open, 1 joined"),
        "{}",
        list.content()
    );
    assert!(
        list.content().contains("won by alice"),
        "{}",
        list.content()
    );
    // alice manages the server (the fixtures' members have every permission).
    let cancelled = h
        .slash(
            ALICE,
            CHANNEL,
            "tournament cancel",
            &[("tournament", Opt::Int(2))],
        )
        .await;
    assert!(
        cancelled
            .content()
            .starts_with("Tournament #2 **Tablut \\(Cartier\\) knockout** is called off by alice"),
        "{}",
        cancelled.content()
    );
    h.shutdown().await;
}
