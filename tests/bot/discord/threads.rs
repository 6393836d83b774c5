//! Threads as Discord allows them: a game or tournament begun inside a thread (a rematch's
//! button is in the old game's thread) gets a thread of its own in the parent channel, and one
//! begun in a forum post gets a post of its own in the forum. The fake refuses a thread inside a
//! thread with 400 and code 50024, and a forum thread without a first message, as Discord does.

use crate::fake_discord::{s, Member, Opt, APP, GUILD};
use crate::support::{game_in, person, until, Harness, ALICE, BOB, CAROL, CHANNEL};

const TAFLBOT: Member = Member {
    id: APP,
    name: "taflbot",
};

/// The threads of CHANNEL that are not archived: those that hold one of the server's 1,000
/// active threads.
fn active_threads(h: &Harness) -> usize {
    h.fake
        .threads_of(CHANNEL)
        .into_iter()
        .filter(|t| !h.fake.thread(*t).unwrap().archived)
        .count()
}

/// The threads whose parent is a thread: Discord refuses them, so there must be none.
fn threads_in_threads(h: &Harness, parents: &[u64]) -> Vec<u64> {
    parents.iter().flat_map(|p| h.fake.threads_of(*p)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_plays_in_a_new_thread_of_the_parent_channel() {
    let h = Harness::start("rematch-thread").await;
    let (first, thread) = h.game("brandubh").await;
    h.a_turn_each(first, thread).await;
    let resigned = h.slash(ALICE, thread, "resign", &[]).await;
    assert!(!resigned.private(), "{}", resigned.content());
    // The end-of-game answer in the thread carries the Rematch button; bob presses it there.
    let rematch = format!("rematch:{first}");
    assert!(
        resigned.buttons().contains(&rematch),
        "{:?}",
        resigned.buttons()
    );
    // bob asks by command instead (the button does the same: endings.rs).
    let offered = h.slash(BOB, thread, "rematch", &[]).await;
    let accept = offered
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("accept:"))
        .unwrap_or_else(|| panic!("an Accept button: {}", offered.content()));
    let accepted = h.press(ALICE, thread, &accept).await;
    assert!(!accepted.private(), "{}", accepted.content());
    let second = h.service.games(&person(ALICE)).await.unwrap();
    let second = second.iter().map(|g| g.id).max().unwrap();
    assert_ne!(second, first);

    until("the rematch's own thread", || async {
        h.fake.threads_of(CHANNEL).len() == 2
    })
    .await;
    let new_thread = h.fake.threads_of(CHANNEL)[1];
    assert_ne!(new_thread, thread);
    let name = h.fake.thread(new_thread).unwrap().name;
    assert!(name.starts_with(&format!("#{second} ")), "{name}");
    h.fake
        .wait_post("the rematch's opening board", |p| {
            p.channel == new_thread && !p.files.is_empty()
        })
        .await;
    let view = h.service.game(second).await.unwrap();
    assert_eq!(view.thread, Some(new_thread.to_string()));
    assert_eq!(view.channel, Some(CHANNEL.to_string()));
    assert!(threads_in_threads(&h, &[thread, new_thread]).is_empty());
    // No thread was ever asked for inside a thread.
    assert!(
        !h.fake
            .calls()
            .iter()
            .any(|c| c.method == "POST" && c.path.ends_with(&format!("/{thread}/threads"))),
        "a thread was asked for inside the old game's thread"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_and_tournaments_begun_in_a_thread_open_theirs_beside_it() {
    let h = Harness::start("thread-in-thread").await;
    let (_, thread) = h.game("brandubh").await;

    // A game against taflbot asked for in the game's thread.
    let bot = h
        .slash(
            ALICE,
            thread,
            "challenge",
            &[
                ("opponent", Opt::User(TAFLBOT)),
                ("variant", s("brandubh")),
                ("side", Opt::Int(1)),
            ],
        )
        .await;
    assert!(!bot.private(), "{}", bot.content());
    until("the bot game's thread", || async {
        h.fake.threads_of(CHANNEL).len() == 2
    })
    .await;

    // A tournament made there too: its thread, and its games', open beside the game's when it
    // starts.
    let made = h
        .slash(
            BOB,
            thread,
            "tournament create",
            &[("variant", s("brandubh")), ("format", Opt::Int(0))],
        )
        .await;
    assert!(!made.private(), "{}", made.content());
    for who in [ALICE, CAROL] {
        let joined = h.slash(who, thread, "tournament join", &[]).await;
        assert!(!joined.private(), "{}", joined.content());
    }
    let started = h.slash(BOB, thread, "tournament start", &[]).await;
    assert!(!started.private(), "{}", started.content());
    // The tournament's thread and its six games'.
    until("the tournament's threads", || async {
        h.fake.threads_of(CHANNEL).len() == 2 + 1 + 6
    })
    .await;
    let names: Vec<String> = h
        .fake
        .threads_of(CHANNEL)
        .iter()
        .map(|t| h.fake.thread(*t).unwrap().name)
        .collect();
    assert!(names[1].starts_with("#2 "), "{names:?}");
    assert!(names[2].starts_with("Tournament #1"), "{names:?}");
    assert!(h.fake.threads_of(thread).is_empty());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_begun_in_a_forum_post_gets_a_post_of_its_own() {
    let h = Harness::start("forum").await;
    const FORUM: u64 = 700_000_000_000_000_001;
    h.fake.forum(FORUM);
    let post = h.fake.open_thread(FORUM, "Looking for a game");
    // Challenged and accepted in the post; the opening board comes in the game's own post.
    let (_, game_post) = game_in(&h.fake, &h.service, GUILD, post, "brandubh").await;
    assert_ne!(game_post, post);
    assert_eq!(h.fake.threads_of(FORUM), [post, game_post]);
    let name = h.fake.thread(game_post).unwrap().name;
    assert!(name.starts_with("#1 alice vs bob"), "{name}");
    // The post opens with its name.
    let posts = h.fake.posts_in(game_post);
    assert!(
        posts[0].content.starts_with("\\#1 alice vs bob"),
        "{:?}",
        posts[0]
    );
    assert!(h.fake.threads_of(post).is_empty());
    h.shutdown().await;
}

/// The audit's flood: tournaments made and called off over and over open no thread at all (a
/// tournament's thread opens when it starts), and a game called off before a move archives its
/// thread, so that neither holds a place among the server's 1,000 active threads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn made_and_called_off_over_and_over_holds_no_active_thread() {
    let h = Harness::start("thread-flood").await;
    for n in 1..=1000 {
        let made = h
            .slash(
                ALICE,
                CHANNEL,
                "tournament create",
                &[("variant", s("brandubh")), ("format", Opt::Int(1))],
            )
            .await;
        assert!(!made.private(), "{}", made.content());
        let cancelled = h
            .slash(
                ALICE,
                CHANNEL,
                "tournament cancel",
                &[("tournament", Opt::Int(n))],
            )
            .await;
        assert!(
            cancelled.content().contains("is called off"),
            "{}",
            cancelled.content()
        );
    }
    assert!(h.fake.threads_of(CHANNEL).is_empty());

    let (_, thread) = h.game("brandubh").await;
    let aborted = h.slash(ALICE, thread, "abort", &[]).await;
    assert!(!aborted.private(), "{}", aborted.content());
    until("the aborted game's thread archived", || async {
        h.fake.thread(thread).is_some_and(|t| t.archived)
    })
    .await;
    assert_eq!(active_threads(&h), 0);
    h.shutdown().await;
}

/// The audit's second flood (T1): one player alone playing taflbot over and over (a challenge,
/// a move, taflbot's answer, a resignation) leaves no active thread, since a game's thread is
/// archived when the game ends, after its last post. A game between two people that ends on a
/// move is archived too, and its Review button still answers there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_ended_over_and_over_hold_no_active_thread() {
    let h = Harness::start("ended-flood").await;
    for game in 1..=12 {
        let started = h.alice_versus_taflbot().await;
        assert!(!started.private(), "{}", started.content());
        let opening = format!("Game #{game}:");
        let thread = h
            .fake
            .wait_post("the opening board", |p| p.content.starts_with(&opening))
            .await
            .channel;
        let (_, mv) = h.a_move(game).await;
        h.play(ALICE, thread, &mv).await;
        until("taflbot's answer", || async {
            h.moves_stored(game).await == 2
        })
        .await;
        let resigned = h.slash(ALICE, thread, "resign", &[]).await;
        assert!(!resigned.private(), "{}", resigned.content());
        until("the ended game's thread archived", || async {
            h.fake.thread(thread).is_some_and(|t| t.archived)
        })
        .await;
    }
    assert_eq!(
        active_threads(&h),
        0,
        "every ended game's thread is archived"
    );

    // Two people: a turn each, then a resignation ends it; the Review button answers in the
    // archived thread.
    let (game, thread) = h.game("brandubh").await;
    h.a_turn_each(game, thread).await;
    let resigned = h.slash(BOB, thread, "resign", &[]).await;
    until("the thread archived", || async {
        h.fake.thread(thread).is_some_and(|t| t.archived)
    })
    .await;
    let review = format!("review:{game}");
    assert!(
        resigned.buttons().contains(&review),
        "{:?}",
        resigned.buttons()
    );
    let reviewed = h.press(ALICE, thread, &review).await;
    assert!(
        reviewed
            .content()
            .starts_with(&format!("Review of game #{game} (Brandubh 7x7)")),
        "{}",
        reviewed.content()
    );
    h.shutdown().await;
}
