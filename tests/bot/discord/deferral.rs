//! Slow work within Discord's three seconds: deferred, then answered; and quick work is not held
//! up by slow work.

use std::time::Duration;

use crate::common;
use crate::fake_discord::{self, s, Opt};
use crate::support::{answer_within_20s, is_png, told_played, Harness, ALICE, BOB, CAROL, CHANNEL};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_work_is_deferred_and_then_answered() {
    let h = Harness::start("defer").await;
    let (game, thread) = h.game("tyr-11").await;
    let (who, mv) = h.a_move(game).await;
    // Another writer holds the database for 2.5 s: the move waits for it, longer than the bot
    // lets Discord wait without a word.
    let blocker = h.hold_database().await;
    let rx = h
        .fake
        .interact(h.fake.slash(who, thread, "move", &[("move", s(&mv))]));
    let deferred = h
        .fake
        .wait_call("the deferral", |c| {
            c.path.ends_with("/callback") && c.kind() == 5
        })
        .await;
    assert!(!deferred.private());
    tokio::time::sleep(Duration::from_millis(1000)).await;
    blocker.rollback().await.unwrap();
    let answer = answer_within_20s(rx).await;
    // The answer calls the next player: an edit would notify nobody, so the "thinking" note is
    // taken away and the answer comes as a new message.
    assert_eq!(
        answer.method, "POST",
        "the answer that pings is a new message"
    );
    assert!(!answer.path.contains("/messages/"), "{}", answer.path);
    assert!(!answer.pings().is_empty(), "{answer:?}");
    assert!(h
        .fake
        .calls()
        .iter()
        .any(|c| c.method == "DELETE" && c.path.ends_with("/messages/@original")));
    assert!(told_played(&answer.content(), &mv), "{}", answer.content());
    assert!(is_png(answer.png()));
    assert_eq!(h.moves_stored(game).await, 1);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_and_button_defers_when_the_work_runs_long() {
    let h = Harness::start("defer-all").await;
    // The Accept button under a held database: a deferred update, then the message edited.
    let challenge = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[("opponent", Opt::User(BOB)), ("variant", s("tablut"))],
        )
        .await;
    let accept = challenge.buttons()[0].clone();
    let blocker = h.hold_database().await;
    let rx = h.fake.interact(h.fake.press(BOB, CHANNEL, &accept));
    h.fake
        .wait_call("the deferred update", |c| {
            c.path.ends_with("/callback") && c.kind() == 6
        })
        .await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    blocker.rollback().await.unwrap();
    let answer = answer_within_20s(rx).await;
    assert_eq!(answer.method, "PATCH");
    assert!(
        answer.content().starts_with("bob accepted: game #"),
        "{}",
        answer.content()
    );

    // /resign by a stranger: deferred in public, refused in private, the public note taken away.
    let (game, thread) = h.game("tyr-11").await;
    h.a_turn_each(game, thread).await;
    let blocker = h.hold_database().await;
    let rx = h.fake.interact(
        h.fake
            .slash(CAROL, thread, "resign", &[("game", Opt::Int(game))]),
    );
    let deferral = |c: &fake_discord::Call| c.path.ends_with("/callback") && c.kind() == 5;
    let first = h.fake.wait_call("the deferral", deferral).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    blocker.rollback().await.unwrap();
    let refused = answer_within_20s(rx).await;
    assert!(refused.private(), "{refused:?}");
    assert_eq!(
        refused.content(),
        format!("You are not playing in game #{game}.")
    );
    assert!(h
        .fake
        .calls()
        .iter()
        .any(|c| c.method == "DELETE" && c.path.ends_with("/messages/@original")));

    // /resign by a player: deferred, then the result, which pings both players, as a new message.
    let blocker = h.hold_database().await;
    let rx = h.fake.interact(
        h.fake
            .slash(BOB, thread, "resign", &[("game", Opt::Int(game))]),
    );
    h.fake
        .wait_call("another deferral", |c| deferral(c) && c.path != first.path)
        .await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    blocker.rollback().await.unwrap();
    let resigned = answer_within_20s(rx).await;
    assert_eq!(resigned.method, "POST");
    assert_eq!(resigned.pings().len(), 2, "{resigned:?}");
    assert!(
        resigned.content().starts_with("bob resigned."),
        "{}",
        resigned.content()
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_is_answered_at_once_while_twenty_large_imports_run() {
    let h = Harness::start("imports").await;
    let moves = common::long_copenhagen_game(800).join(" ");
    assert!(moves.len() <= 6000, "within Discord's option length");
    let imports: Vec<_> = (0..20)
        .map(|_| {
            h.fake.interact(
                h.fake
                    .slash(CAROL, CHANNEL, "import", &[("moves", s(&moves))]),
            )
        })
        .collect();
    // Wait until the imports are at work (the first deferrals show it), then ask for help.
    h.fake
        .wait_call("an import deferred", |c| {
            c.path.ends_with("/callback") && c.kind() == 5
        })
        .await;
    let asked = std::time::Instant::now();
    let help = h.slash(ALICE, CHANNEL, "help", &[]).await;
    let waited = asked.elapsed();
    assert!(help.content().contains("/challenge"));
    assert!(waited < Duration::from_secs(1), "help took {waited:?}");
    for answer in imports {
        let answer = tokio::time::timeout(Duration::from_secs(120), answer)
            .await
            .expect("every import is answered")
            .unwrap();
        assert!(
            answer.content().starts_with("800 moves of Copenhagen"),
            "{}",
            answer.content()
        );
    }
    // Longer than an import takes: refused before any work.
    let too_long = vec!["a4-a5 a5-a4"; 501].join(" ");
    let refused = h
        .slash(CAROL, CHANNEL, "import", &[("moves", s(&too_long))])
        .await;
    assert!(refused.private());
    assert_eq!(
        refused.content(),
        "The move list has 1002 moves; an import takes at most 1000."
    );
    h.shutdown().await;
}
