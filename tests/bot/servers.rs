//! Servers: a game is seen only in the server where it is played.

use crate::fake_discord::Opt;
use crate::support::{Harness, ALICE, CHANNEL};

// ----- on Discord, end to end -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_seen_only_in_its_own_server() {
    const OTHER: u64 = 800_000_000_000_000_999;
    let h = Harness::start("servers").await;
    let (game, thread) = h.game("tablut").await;
    let elsewhere = |mut interaction: serde_json::Value| {
        interaction["guild_id"] = serde_json::json!(OTHER.to_string());
        interaction
    };
    let refusal = format!("Game #{game} is played on another server, and is seen only there.");
    for command in ["board", "record", "resign"] {
        let asked = h
            .fake
            .ask(elsewhere(h.fake.slash(
                ALICE,
                CHANNEL + 1,
                command,
                &[("game", Opt::Int(game))],
            )))
            .await;
        assert!(asked.private(), "{command}");
        assert_eq!(asked.content(), refusal, "{command}");
        assert!(
            asked.files.is_empty(),
            "{command}: nothing of the game is shown"
        );
    }
    let listed = h
        .fake
        .ask(elsewhere(h.fake.slash(ALICE, CHANNEL + 1, "games", &[])))
        .await;
    assert!(
        listed
            .content()
            .starts_with("You have no game in progress."),
        "{}",
        listed.content()
    );
    // In its own server all is as before.
    let board = h
        .slash(ALICE, thread, "board", &[("game", Opt::Int(game))])
        .await;
    assert!(board.content().starts_with(&format!("Game #{game}")));
    assert!(h.service.game(game).await.unwrap().outcome.is_none());
    h.shutdown().await;
}
