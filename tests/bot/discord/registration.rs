//! The commands as Discord sees them: registered with their descriptions, options and choices,
//! and their options completed as they are typed.

use crate::fake_discord::{self, s, GUILD};
use crate::support::{opponent, person, Harness, ALICE, CHANNEL};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_commands_are_registered_with_descriptions_and_completion() {
    let h = Harness::start("register").await;
    let call = h.fake.registered().await;
    assert!(
        call.path.ends_with(&format!("/guilds/{GUILD}/commands")),
        "{}",
        call.path
    );
    let commands = call.json.as_array().unwrap();
    let names: Vec<&str> = commands
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    for name in [
        "challenge",
        "accept",
        "decline",
        "cancel",
        "move",
        "endturn",
        "board",
        "games",
        "resign",
        "abort",
        "draw",
        "rules",
        "record",
        "import",
        "help",
    ] {
        assert!(names.contains(&name), "{name} is registered: {names:?}");
    }
    // Exactly the command table, no more: a row of two words is a subcommand of the first.
    let mut expected: Vec<&str> = taflbot::commands::COMMANDS
        .iter()
        .map(|c| c.name.split(' ').next().unwrap())
        .collect();
    expected.dedup();
    assert_eq!(names, expected);
    for c in taflbot::commands::COMMANDS {
        let Some((group, sub)) = c.name.split_once(' ') else {
            continue;
        };
        let parent = commands.iter().find(|p| p["name"] == group).unwrap();
        let subs = parent["options"].as_array().unwrap();
        let it = subs.iter().find(|o| o["name"] == sub);
        assert!(
            it.is_some_and(|o| o["type"] == 1),
            "{} is registered: {parent}",
            c.name
        );
    }
    // A command that needs a server is declared for server installs (0) and given in servers
    // (0) only; the others for user installs (1) too, and given in the bot's DMs (1) and group
    // DMs (2); the managers' command is shown to managers (Manage Server, 32).
    for c in commands {
        let name = c["name"].as_str().unwrap();
        let in_server_only = taflbot::commands::COMMANDS
            .iter()
            .find(|s| s.name.split(' ').next() == Some(name))
            .is_some_and(|s| s.guild_only || s.name.contains(' '));
        let (installs, places) = if in_server_only {
            (serde_json::json!([0]), serde_json::json!([0]))
        } else {
            (serde_json::json!([0, 1]), serde_json::json!([0, 1, 2]))
        };
        assert_eq!(c["integration_types"], installs, "{c}");
        assert_eq!(c["contexts"], places, "{c}");
        let managers = if name == "dailypuzzle" {
            serde_json::json!("32")
        } else {
            serde_json::Value::Null
        };
        assert_eq!(c["default_member_permissions"], managers, "{c}");
    }
    for c in commands {
        assert!(!c["description"].as_str().unwrap().is_empty(), "{c}");
        for o in c["options"].as_array().into_iter().flatten() {
            assert!(!o["description"].as_str().unwrap().is_empty(), "{o}");
        }
    }
    let option = |command: &str, option: &str| {
        let c = commands.iter().find(|c| c["name"] == command).unwrap();
        c["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == option)
            .unwrap()
            .clone()
    };
    assert_eq!(option("move", "move")["autocomplete"], true);
    assert_eq!(option("move", "game")["autocomplete"], true);
    assert_eq!(option("challenge", "variant")["autocomplete"], true);
    assert_eq!(option("challenge", "opponent")["type"], 6);
    let side = option("challenge", "side");
    let sides: Vec<&str> = side["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(sides, ["attackers", "defenders", "random"]);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_offers_at_most_25_legal_moves_that_match_what_was_typed() {
    let h = Harness::start("autocomplete").await;
    let (game, thread) = h.game("tyr-11").await;
    let (who, _) = h.a_move(game).await;
    let (_, legal) = h
        .service
        .legal_moves(&person(who), Some(game), None)
        .await
        .unwrap();
    assert!(legal.len() > 25);
    let choices = |call: &fake_discord::Call| -> Vec<String> {
        assert_eq!(call.kind(), 8, "an autocomplete answer");
        call.json["data"]["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["value"].as_str().unwrap().to_string())
            .collect()
    };
    let all = h
        .fake
        .ask(
            h.fake
                .autocomplete(who, thread, "move", &[("move", s(""))], "move"),
        )
        .await;
    let all = choices(&all);
    assert_eq!(all.len(), 25);
    assert!(all.iter().all(|m| legal.contains(m)));
    // Every piece that can move shows (up to 25) before any piece shows twice.
    let from = |m: &String| m.split('-').next().unwrap().to_string();
    let pieces: std::collections::BTreeSet<String> = legal.iter().map(from).collect();
    let shown: std::collections::BTreeSet<String> = all.iter().map(from).collect();
    assert_eq!(shown.len(), pieces.len().min(25));
    // Narrowed by the from-square typed so far.
    // Typed up to the dash, the from-square is exact (d1- is not d10-).
    let middle = &legal[legal.len() / 2];
    let from = &middle[..=middle.find('-').unwrap()];
    let typed = h
        .fake
        .ask(
            h.fake
                .autocomplete(who, thread, "move", &[("move", s(from))], "move"),
        )
        .await;
    let typed = choices(&typed);
    let expected: Vec<String> = legal
        .iter()
        .filter(|m| m.starts_with(from))
        .cloned()
        .collect();
    assert!(!expected.is_empty() && expected.len() <= 25);
    assert_eq!(typed, expected);
    let one = &legal[0];
    let exact = h
        .fake
        .ask(h.fake.autocomplete(
            who,
            thread,
            "move",
            &[("move", s(&one.replace('-', "")))],
            "move",
        ))
        .await;
    assert!(choices(&exact).contains(one));
    // The other player is told why there is nothing to choose.
    let other = opponent(who);
    let waiting = h
        .fake
        .ask(
            h.fake
                .autocomplete(other, thread, "move", &[("move", s("d"))], "move"),
        )
        .await;
    let names: Vec<&str> = waiting.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 1);
    assert!(names[0].starts_with("It is not your turn"), "{names:?}");
    // Variants complete too.
    let variants = h
        .fake
        .ask(h.fake.autocomplete(
            ALICE,
            CHANNEL,
            "challenge",
            &[("variant", s("sea"))],
            "variant",
        ))
        .await;
    let ids = choices(&variants);
    assert_eq!(
        ids,
        [
            "sea-battle-9",
            "sea-battle-11",
            "sea-battle-13",
            "sea-battle-15"
        ]
    );
    h.shutdown().await;
}

/// Every command of the table is given through the fake Discord by some end-to-end test: the
/// test sources name it as a slash command. A new command without one fails here.
#[test]
fn every_command_is_given_end_to_end_somewhere() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bot");
    let mut sources = String::new();
    let mut folders = vec![dir];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                sources.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
    }
    // The first string after each `slash(`: the command's name.
    let given: Vec<&str> = sources
        .split("slash(")
        .skip(1)
        .filter_map(|after| after.split('"').nth(1))
        .collect();
    let missing: Vec<&str> = taflbot::commands::COMMANDS
        .iter()
        .map(|c| c.name)
        .filter(|name| !given.contains(name))
        .collect();
    assert!(missing.is_empty(), "no end-to-end test gives {missing:?}");
}
