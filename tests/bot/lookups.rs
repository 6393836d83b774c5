//! Looking things up: /help, /variants, /rules of a variant, /games in progress, a game's /record, and
//! /import of a game played elsewhere, replayed and shown.

use crate::fake_discord::{s, Opt};
use crate::support::{is_png, Harness, ALICE, BOB, CAROL, CHANNEL};

// ----- on Discord, end to end -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_rules_games_and_record() {
    let h = Harness::start("looking").await;
    let help = h.slash(CAROL, CHANNEL, "help", &[]).await;
    assert!(help.private());
    assert!(help.content().contains("/challenge"));
    let rules = h
        .slash(CAROL, CHANNEL, "rules", &[("variant", s("sea-battle-11"))])
        .await;
    assert!(
        rules.content().contains("Sea Battle"),
        "{}",
        rules.content()
    );
    assert!(
        is_png(rules.png()),
        "{:?} {:?}",
        rules.json,
        rules
            .files
            .iter()
            .map(|f| (&f.0, f.1.len()))
            .collect::<Vec<_>>()
    );
    // Every variant of the table, by the id to type.
    let variants = h.slash(CAROL, CHANNEL, "variants", &[]).await;
    for v in taflbot::rules::Variant::all() {
        assert!(
            variants
                .content()
                .contains(&format!("`{}`: {}", v.id, v.name)),
            "{}",
            variants.content()
        );
    }
    let unknown = h
        .slash(CAROL, CHANNEL, "rules", &[("variant", s("chess"))])
        .await;
    assert!(unknown.private());
    assert!(unknown
        .content()
        .starts_with("There is no variant \"chess\""));

    // An option of the wrong type (a choice is sent as its number) is refused privately.
    let unreadable = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(BOB)),
                ("variant", s("tablut")),
                ("side", s("attackers")),
            ],
        )
        .await;
    assert!(unreadable.private());
    assert!(
        unreadable.content().starts_with("I could not read"),
        "{}",
        unreadable.content()
    );

    // A game from aagenielsen.dk, replayed and shown.
    let corpus_game = "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2";
    let imported = h
        .slash(CAROL, CHANNEL, "import", &[("moves", s(corpus_game))])
        .await;
    assert!(!imported.private());
    assert!(
        imported
            .content()
            .starts_with("5 moves of Copenhagen Hnefatafl 11x11 replayed"),
        "{}",
        imported.content()
    );
    let names: Vec<&str> = imported.files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["game.txt", "game.gif", "board.png"]);
    assert!(String::from_utf8_lossy(&imported.files[0].1).contains("3. g3-e3xe2"));
    let wrong = h
        .slash(
            CAROL,
            CHANNEL,
            "import",
            &[("moves", s("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3"))],
        )
        .await;
    assert!(wrong.private());
    assert_eq!(wrong.content(), "The move list does not replay: move 5 (g3-e3): the list captures nothing but the move captures e2.");

    let (game, thread) = h.game("tyr-11").await;
    let (who, mv) = h.a_move(game).await;
    h.play(who, thread, &mv).await;
    let games = h.slash(BOB, CHANNEL, "games", &[]).await;
    assert!(games.private());
    assert!(
        games.content().contains(&format!("#{game} TYR")),
        "{}",
        games.content()
    );
    let none = h.slash(CAROL, CHANNEL, "games", &[]).await;
    assert!(none.content().starts_with("You have no game in progress"));
    let record = h.slash(ALICE, thread, "record", &[]).await;
    let names: Vec<&str> = record.files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        names,
        [format!("game-{game}.txt"), format!("game-{game}.gif")]
    );
    let text = String::from_utf8(record.files[0].1.clone()).unwrap();
    assert!(text.contains(&mv), "{text}");
    assert!(record.files[1].1.starts_with(b"GIF89a"));
    h.shutdown().await;
}
