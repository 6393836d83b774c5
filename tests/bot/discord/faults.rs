//! Discord failing the bot: answers refused or lost and retried, threads archived, locked or
//! deleted, no permission to make threads, and a notice refused for good given up.

use std::time::Duration;

use taflbot::service::DAY;

use crate::fake_discord::{s, Failure, Mode, Opt};
use crate::support::{
    is_png, png_of, told_played, until, until_no_notice_pending, Harness, CHANNEL,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_answers_are_retried_and_the_move_is_kept() {
    let h = Harness::start("failures").await;
    let (game, thread) = h.game("tyr-11").await;

    // Two 500s, then the answer goes through: once.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 500,
        times: 2,
        mode: Mode::Refuse,
    });
    let (who, mv) = h.a_move(game).await;
    let answer = h.play(who, thread, &mv).await;
    assert!(is_png(answer.png()));
    assert_eq!(h.moves_stored(game).await, 1);

    // A 429 is waited out.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 429,
        times: 1,
        mode: Mode::Refuse,
    });
    let (who, mv) = h.a_move(game).await;
    let answer = h.play(who, thread, &mv).await;
    assert!(answer.content().contains(&mv));
    assert_eq!(h.moves_stored(game).await, 2);
    let refused: Vec<_> = h
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.path.ends_with("/callback") && c.status >= 429)
        .collect();
    assert_eq!(refused.len(), 3);

    // An answer that arrived although Discord said 500: the retry is refused as already
    // acknowledged, and the bot does not post it again.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 500,
        times: 1,
        mode: Mode::AfterWork,
    });
    let (who, mv) = h.a_move(game).await;
    let posts = h.fake.posts().len();
    let answer = h.play(who, thread, &mv).await;
    assert!(answer.content().contains(&mv));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(h.fake.posts().len(), posts, "no second copy in the thread");
    assert_eq!(h.moves_stored(game).await, 3);

    // The answer fails every time: the board is posted in the thread instead, once, although
    // the first post also failed after arriving.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 500,
        times: 4,
        mode: Mode::Refuse,
    });
    h.fake.fail(Failure {
        method: "POST",
        path_contains: format!("/channels/{thread}/messages"),
        status: 502,
        times: 1,
        mode: Mode::AfterWork,
    });
    let (who, mv) = h.a_move(game).await;
    let rx = h
        .fake
        .interact(h.fake.slash(who, thread, "move", &[("move", s(&mv))]));
    let posted = h
        .fake
        .wait_post("the board posted instead", |p| {
            p.channel == thread && p.content.contains(&mv)
        })
        .await;
    assert!(is_png(png_of(&posted)));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        h.fake
            .posts()
            .iter()
            .filter(|p| p.content.contains(&mv))
            .count(),
        1,
        "posted once"
    );
    drop(rx);
    assert_eq!(h.moves_stored(game).await, 4);

    // Discord is down for a while: the move is kept, and its news is delivered once Discord is
    // back.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 503,
        times: 4,
        mode: Mode::Refuse,
    });
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/messages".into(),
        status: 503,
        times: 6,
        mode: Mode::Refuse,
    });
    let (who, mv) = h.a_move(game).await;
    let _rx = h
        .fake
        .interact(h.fake.slash(who, thread, "move", &[("move", s(&mv))]));
    let late = h
        .fake
        .wait_post("the kept news", |p| {
            p.channel == thread && p.content.contains(&mv)
        })
        .await;
    assert!(late.content.contains(&format!("{} played", who.name)));
    assert!(told_played(&late.content, &mv), "{}", late.content);
    assert!(
        late.files.iter().any(|(name, _)| name.ends_with(".png")),
        "a kept post keeps its picture"
    );
    // The board's alt text, read by Discord from the attachment's description: the variant,
    // the move with its number, and who is to move.
    let alt = late.alts.first().cloned().flatten().expect("an alt text");
    assert!(
        alt.contains(" board after ") && alt.contains(&mv) && alt.contains(" to move."),
        "{alt}"
    );
    assert_eq!(h.moves_stored(game).await, 5);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        h.fake
            .posts()
            .iter()
            .filter(|p| p.content.contains(&mv))
            .count(),
        1,
        "delivered once"
    );
    until_no_notice_pending(&h.service).await;
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_locked_and_deleted_threads_do_not_stop_a_game() {
    let h = Harness::start("threads").await;
    let (game, thread) = h.game("tyr-11").await;

    // Archived: a move made from the channel reopens the thread and is posted there.
    h.fake.archive(thread, false);
    let (who, mv) = h.a_move(game).await;
    let answer = h
        .slash(
            who,
            CHANNEL,
            "move",
            &[("move", s(&mv)), ("game", Opt::Int(game))],
        )
        .await;
    assert!(answer.private());
    assert!(
        answer.content().contains(&format!("<#{thread}>")),
        "{}",
        answer.content()
    );
    let post = h
        .fake
        .wait_post("the post in the reopened thread", |p| {
            p.content.contains(&mv)
        })
        .await;
    assert_eq!(post.channel, thread);
    assert!(!h.fake.thread(thread).unwrap().archived);

    // Locked: the channel takes the post.
    h.fake.archive(thread, true);
    let (who, mv) = h.a_move(game).await;
    h.slash(
        who,
        CHANNEL,
        "move",
        &[("move", s(&mv)), ("game", Opt::Int(game))],
    )
    .await;
    let post = h
        .fake
        .wait_post("the post in the channel", |p| p.content.contains(&mv))
        .await;
    assert_eq!(post.channel, CHANNEL);

    // Deleted: the channel takes it, and the game forgets the thread.
    h.fake.delete_channel(thread);
    let (who, mv) = h.a_move(game).await;
    h.slash(
        who,
        CHANNEL,
        "move",
        &[("move", s(&mv)), ("game", Opt::Int(game))],
    )
    .await;
    let post = h
        .fake
        .wait_post("the post after the thread went", |p| {
            p.content.contains(&mv)
        })
        .await;
    assert_eq!(post.channel, CHANNEL);
    assert_eq!(h.service.game(game).await.unwrap().thread, None);
    // From now on the game is answered in the channel itself.
    let (who, mv) = h.a_move(game).await;
    let answer = h.play(who, CHANNEL, &mv).await;
    assert!(!answer.private());
    assert!(is_png(answer.png()));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_thread_permission_the_game_is_played_in_the_channel() {
    let h = Harness::start("nothreads").await;
    h.fake.forbid_threads(CHANNEL);
    let (game, place) = h.game("tablut").await;
    assert_eq!(place, CHANNEL);
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.channel == CHANNEL)
        .await;
    assert!(opening.content.starts_with(&format!("Game #{game}")));
    let (who, mv) = h.a_move(game).await;
    let answer = h.play(who, CHANNEL, &mv).await;
    assert!(!answer.private());
    assert!(is_png(answer.png()));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_refused_for_good_is_given_up_not_retried_forever() {
    let h = Harness::start("given-up").await;
    let (game, thread) = h.game("tyr-11").await;
    // The bot was removed: the thread and the channel are gone for it.
    h.fake.delete_channel(thread);
    h.fake.delete_channel(CHANNEL);
    let tries = || {
        h.fake
            .calls()
            .iter()
            .filter(|c| c.method == "POST" && c.path.ends_with("/messages"))
            .count()
    };
    let before = tries();
    h.clock.advance(2 * DAY + 1);
    // The reminder is tried (the thread, then the channel), then given up.
    until("the notice to be given up", || async {
        let given_up: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM notices WHERE game_id = $1 AND given_up_at IS NOT NULL",
        )
        .bind(game)
        .fetch_one(h.service.pool())
        .await
        .unwrap();
        given_up == 1
    })
    .await;
    let tried = tries() - before;
    assert!((1..=2).contains(&tried), "{tried} posts");
    // Many sweeps later (every 100 ms), and a day on, nothing more is tried.
    h.clock.advance(DAY / 2);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(tries() - before, tried, "no retries of a refused notice");
    assert!(h.service.pending_notices().await.unwrap().is_empty());
    h.shutdown().await;
}
