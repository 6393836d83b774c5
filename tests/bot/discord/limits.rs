//! Discord's limits and markup: long lists and long input stay within the sizes Discord takes,
//! and a name full of markup shows as text and pings no one.

use taflbot::service::DAY;

use crate::fake_discord::{s, Member, Opt};
use crate::support::{person, Harness, ALICE, BOB, CAROL, CHANNEL};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_lists_and_long_input_stay_within_discords_limits() {
    let h = Harness::start("limits").await;
    for _ in 0..60 {
        let c = h
            .service
            .challenge(
                &person(ALICE),
                &person(BOB),
                "copenhagen",
                taflbot::service::SideChoice::Attackers,
                None,
                Some(&CHANNEL.to_string()),
            )
            .await
            .unwrap();
        h.service
            .accept(&person(BOB), Some(c.id), None)
            .await
            .unwrap();
    }
    let games = h.slash(ALICE, CHANNEL, "games", &[]).await;
    let content = games.content();
    assert!(content.chars().count() <= 2000, "{}", content.len());
    assert!(content.starts_with("Your games:"), "{content}");
    assert!(content.ends_with("more."), "{content}");

    // A move of 5,000 characters: the refusal quotes at most 50 of them.
    let long = "z".repeat(5000);
    let refused = h
        .slash(
            ALICE,
            CHANNEL,
            "move",
            &[("move", s(&long)), ("game", Opt::Int(1))],
        )
        .await;
    assert!(refused.private());
    assert!(
        refused.content().chars().count() < 200,
        "{}",
        refused.content()
    );
    assert!(
        refused.content().contains("is not a square"),
        "{}",
        refused.content()
    );

    // Completing it: every choice within 100 characters.
    let done = h
        .fake
        .ask(h.fake.autocomplete(
            BOB,
            CHANNEL,
            "move",
            &[("move", s(&long)), ("game", Opt::Int(1))],
            "move",
        ))
        .await;
    for c in done.json["data"]["choices"].as_array().unwrap() {
        assert!(c["name"].as_str().unwrap().chars().count() <= 100, "{c}");
        assert!(c["value"].as_str().unwrap().chars().count() <= 100, "{c}");
    }
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_full_of_markup_shows_as_text_and_pings_no_one() {
    const MALLORY: Member = Member {
        id: 444_444_444_444_444_444,
        name: "<@333333333333333333> [win](https://example.com) **@everyone**",
    };
    let h = Harness::start("markup").await;
    let challenge = h
        .slash(
            MALLORY,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(BOB)),
                ("variant", s("tablut")),
                ("side", Opt::Int(0)),
            ],
        )
        .await;
    let content = challenge.content();
    // The name is shown escaped: no mention of carol, no link, no bold, no @everyone.
    assert!(!content.contains("<@333333333333333333>"), "{content}");
    assert!(!content.contains("](https"), "{content}");
    assert!(!content.contains("**@everyone**"), "{content}");
    assert!(
        content.contains("\\<@\u{200B}333333333333333333\\>"),
        "{content}"
    );
    assert_eq!(challenge.pings(), [BOB.id.to_string()]);
    let accept = challenge.buttons()[0].clone();
    h.press(BOB, CHANNEL, &accept).await;
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.content.starts_with("Game #"))
        .await;
    assert!(!opening.pings.contains(&CAROL.id.to_string()));
    // The reminder and the loss on time ping the players, never the name's "mention".
    h.clock.advance(2 * DAY + 1);
    let reminder = h
        .fake
        .wait_post("the reminder", |p| {
            p.content.contains("waiting for your move")
        })
        .await;
    assert_eq!(reminder.pings, [MALLORY.id.to_string()]);
    h.clock.advance(DAY);
    let timeout = h
        .fake
        .wait_post("the timeout", |p| p.content.contains("ran out of time"))
        .await;
    assert!(
        !timeout.content.contains("<@333333333333333333>"),
        "{}",
        timeout.content
    );
    let mut pinged = timeout.pings.clone();
    pinged.sort();
    assert_eq!(pinged, [BOB.id.to_string(), MALLORY.id.to_string()]);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_or_subcommand_taflbot_does_not_have_is_answered_privately() {
    let h = Harness::start("unknown-command").await;
    // Discord may still show a subcommand, or a command, of an older registration.
    for name in ["tournament frobnicate", "frobnicate"] {
        let answer = h.slash(ALICE, CHANNEL, name, &[]).await;
        assert_eq!(answer.kind(), 4, "{name}");
        assert!(answer.private(), "{name}");
        assert_eq!(
            answer.content(),
            taflbot::service::text::UNKNOWN_COMMAND,
            "{name}"
        );
    }
    // An autocomplete of an unknown command gets no choices, not a message.
    let typed = h
        .fake
        .ask(
            h.fake
                .autocomplete(ALICE, CHANNEL, "frobnicate", &[("x", s("a"))], "x"),
        )
        .await;
    assert_eq!(typed.kind(), 8);
    assert_eq!(typed.json["data"]["choices"], serde_json::json!([]));
    h.shutdown().await;
}
