//! Servers: a game is seen only in the server where it is played; a nickname given in one is not
//! kept; a profile of someone else is shown only to who asked.

use crate::fake_discord::{s, Opt};
use crate::support::{Harness, ALICE, BOB, CHANNEL};

// ----- on Discord, end to end -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_seen_only_in_its_own_server() {
    const OTHER: u64 = 800_000_000_000_000_999;
    let h = Harness::start("servers").await;
    let (game, thread) = h.game("tablut").await;
    // Another server that has taflbot too.
    let elsewhere = |interaction| crate::fake_discord::in_guild(interaction, OTHER);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nickname_stays_in_its_server_and_a_profile_of_someone_else_is_private() {
    let h = Harness::start("names").await;
    // alice, nicknamed here, challenges bob: she is named by her name on Discord.
    let nicknamed = |mut interaction: serde_json::Value| {
        interaction["member"]["nick"] = serde_json::json!("Queen of the Board");
        interaction
    };
    let challenge = h
        .fake
        .ask(nicknamed(h.fake.slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[("opponent", Opt::User(BOB)), ("variant", s("brandubh"))],
        )))
        .await;
    assert!(
        challenge.content().contains("challenges you") && !challenge.content().contains("Queen"),
        "{}",
        challenge.content()
    );
    let own = h
        .fake
        .ask(nicknamed(h.fake.slash(ALICE, CHANNEL, "profile", &[])))
        .await;
    assert!(!own.private(), "her own profile is shown to the channel");
    assert!(
        own.content().starts_with("alice has not played here yet."),
        "{}",
        own.content()
    );
    let name: String = sqlx::query_scalar("SELECT name FROM players WHERE key = $1")
        .bind(ALICE.id.to_string())
        .fetch_one(h.service.pool())
        .await
        .unwrap();
    assert_eq!(name, "alice", "the nickname is not kept");
    // bob asks about alice: only bob sees the answer.
    let other = h
        .slash(BOB, CHANNEL, "profile", &[("player", Opt::User(ALICE))])
        .await;
    assert!(other.private());
    assert!(other
        .content()
        .starts_with("alice has not played here yet."));
    h.shutdown().await;
}

/// A server where only the user installed taflbot holds its answers to the user's permissions:
/// where they may not send messages, `/variants` and `/rules` answer privately (Discord would
/// refuse a public answer); where they may, in public as anywhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_install_answers_privately_where_the_user_may_not_post() {
    use crate::fake_discord::{elsewhere, Elsewhere};
    const OTHER: u64 = 800_000_000_000_000_998;
    let h = Harness::start("read-only").await;
    // View Channel, Read Message History, Use Application Commands: no Send Messages.
    let read_only = |mut interaction: serde_json::Value| {
        interaction["member"]["permissions"] = serde_json::json!("2147550208");
        elsewhere(interaction, Elsewhere::OtherServer(OTHER))
    };
    for (command, options) in [
        ("variants", vec![]),
        ("rules", vec![("variant", s("brandubh"))]),
    ] {
        let asked = h
            .fake
            .ask(read_only(h.fake.slash(
                ALICE,
                CHANNEL + 2,
                command,
                &options,
            )))
            .await;
        assert!(asked.private(), "{command}: {asked:?}");
        assert!(!asked.content().is_empty(), "{command}");
        let open = h
            .fake
            .ask(elsewhere(
                h.fake.slash(ALICE, CHANNEL + 2, command, &options),
                Elsewhere::OtherServer(OTHER),
            ))
            .await;
        assert!(!open.private(), "{command}: {open:?}");
        assert_eq!(open.content(), asked.content(), "{command}");
    }
    h.shutdown().await;
}
