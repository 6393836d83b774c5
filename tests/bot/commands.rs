//! The one command table: what it declares, how both front ends read a command from it, and the
//! help texts made from it.

use std::sync::Arc;

use taflbot::commands::{self, Command, Kind, Value, COMMANDS};
use taflbot::local::{execute, parse_line};
use taflbot::service::{Person, Service, ServiceError, SideChoice, TestClock};

fn local(name: &str) -> Person {
    Person::new(format!("local:{name}"), name)
}

#[test]
fn every_declaration_fits_discord() {
    let mut names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), COMMANDS.len(), "command names are unique");
    for c in COMMANDS {
        // A name of two words is a subcommand of the first.
        let words: Vec<&str> = c.name.split(' ').collect();
        assert!(words.len() <= 2, "{}", c.name);
        for word in words {
            assert!(
                !word.is_empty()
                    && word.len() <= 32
                    && word.chars().all(|ch| ch.is_ascii_lowercase()),
                "{}",
                c.name
            );
        }
        assert!(
            !c.description.is_empty() && c.description.chars().count() <= 100,
            "{}",
            c.name
        );
        assert!(c.options.len() <= 25);
        let mut seen = Vec::new();
        let mut optional_seen = false;
        for o in c.options {
            assert!(!seen.contains(&o.name), "{} repeats {}", c.name, o.name);
            seen.push(o.name);
            assert!(o.description.chars().count() <= 100, "{}", o.name);
            // Discord refuses a required option after an optional one.
            assert!(!(o.required && optional_seen), "{}: {}", c.name, o.name);
            optional_seen |= !o.required;
        }
    }
}

#[test]
fn both_help_texts_list_every_command_within_discords_limit() {
    let discord = taflbot::discord::commands::help_text();
    let plain = taflbot::local::help();
    assert!(discord.chars().count() <= 2000, "{}", discord.len());
    for c in COMMANDS {
        // A group's commands share a line: `/tournament create|join|...`.
        let (listed, sub) = match c.name.split_once(' ') {
            Some((group, sub)) => (group, Some(sub)),
            None => (c.name, None),
        };
        assert!(discord.contains(&format!("`/{listed}")), "{}", c.name);
        assert!(plain.contains(&format!("\n{listed}")), "{}", c.name);
        if let Some(sub) = sub {
            let line = discord
                .lines()
                .find(|l| l.starts_with(&format!("`/{listed} ")))
                .unwrap();
            assert!(line.split(['|', ' ', '`']).any(|w| w == sub), "{line}");
        }
        // All about each command, every option named.
        let one = taflbot::discord::commands::help_for(c.name).unwrap();
        assert!(one.chars().count() <= 2000, "{}", c.name);
        assert!(one.contains(c.description), "{}", c.name);
        for o in c.options {
            assert!(one.contains(&format!("\n`{}` (", o.name)), "{one}");
        }
    }
    let challenge = taflbot::discord::commands::help_for("/Challenge").unwrap();
    assert!(
        challenge.contains("Rated unless rated:false;"),
        "{challenge}"
    );
    assert!(challenge.contains("\n`rated` (optional): Whether the result changes ratings"));
    // A group's help lists its commands.
    let group = taflbot::discord::commands::help_for("tournament").unwrap();
    for sub in [
        "create",
        "join",
        "leave",
        "start",
        "standings",
        "list",
        "cancel",
    ] {
        assert!(group.contains(&format!("`/tournament {sub}")), "{group}");
    }
    assert!(matches!(
        taflbot::discord::commands::help_for("fly"),
        Err(ServiceError::UnknownCommand(..))
    ));
}

#[test]
fn options_are_read_by_kind() {
    let given = |pairs: &[(&str, Value)]| -> Vec<(String, Value)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.clone()))
            .collect()
    };
    // Discord sends a choice as its number, the local mode as its name.
    for side in [Value::Int(1), Value::Text("gold".into())] {
        let c = Command::parse(
            "challenge",
            &given(&[
                ("opponent", Value::User(local("bob"))),
                ("variant", Value::Text("tablut".into())),
                ("side", side),
            ]),
        )
        .unwrap();
        assert_eq!(
            c,
            Command::Challenge {
                opponent: local("bob"),
                variant: "tablut".parse().unwrap(),
                side: SideChoice::Defenders,
                days: None,
                level: None,
                rated: true,
                from: None
            }
        );
    }
    let missing = Command::parse("challenge", &given(&[("variant", Value::Text("x".into()))]));
    assert!(
        matches!(&missing, Err(ServiceError::MissingOption { option, .. }) if option == "opponent"),
        "{missing:?}"
    );
    // The refusal shows the command written out, a value for each option it needs.
    let moved = Command::parse("move", &given(&[]));
    assert!(
        matches!(&moved, Err(ServiceError::MissingOption { example, .. }) if example == "/move move:d1-d3"),
        "{moved:?}"
    );
    assert_eq!(
        Command::parse("board", &given(&[("game", Value::Text("#12".into()))])).unwrap(),
        Command::Board {
            game: Some(12),
            flip: false
        }
    );
    let bad = Command::parse("board", &given(&[("game", Value::Text("twelve".into()))]))
        .unwrap_err()
        .to_string();
    assert_eq!(
        bad,
        "\"twelve\" is not a game number (write game:12) (option game)"
    );
    let unknown = Command::parse("resign", &given(&[("gmae", Value::Int(3))])).unwrap_err();
    assert!(
        unknown.to_string().contains("an option of resign (game)"),
        "{unknown}"
    );
    assert!(matches!(
        Command::parse("fly", &[]),
        Err(ServiceError::UnknownCommand(..))
    ));
    assert_eq!(
        commands::spec("move").map(|s| s.options[0].kind),
        Some(Kind::Move)
    );
}

#[test]
fn the_local_mode_reads_words_and_named_options() {
    let read = |line: &str| parse_line(line).map(|(who, c)| (who.name, c));
    assert_eq!(
        read("alice challenge @bob variant:tablut side:attackers days:5").unwrap(),
        (
            "alice".to_string(),
            Command::Challenge {
                opponent: local("bob"),
                variant: "tablut".parse().unwrap(),
                side: SideChoice::Attackers,
                days: taflbot::commands::Days::new(5),
                level: None,
                rated: true,
                from: None
            }
        )
    );
    assert_eq!(
        read("alice challenge @taflbot brandubh level:2").unwrap().1,
        Command::Challenge {
            opponent: local("taflbot"),
            variant: "brandubh".parse().unwrap(),
            side: SideChoice::Random,
            days: None,
            level: Some(2),
            rated: true,
            from: None
        }
    );
    let bad = read("alice challenge @taflbot brandubh level:9").unwrap_err();
    assert_eq!(
        bad.to_string(),
        "\"9\" is not a level from 1 (weakest) to 5 (option level)"
    );
    assert_eq!(
        read("bob move e1 e5 game:3").unwrap().1,
        Command::Move {
            mv: "e1 e5".into(),
            game: Some(3)
        }
    );
    assert_eq!(
        read("bob board flip").unwrap().1,
        Command::Board {
            game: None,
            flip: true
        }
    );
    assert_eq!(
        read("bob decline draw game:2").unwrap().1,
        Command::DeclineDraw { game: Some(2) }
    );
    assert_eq!(
        read("bob /accept #4").unwrap().1,
        Command::Accept { challenge: Some(4) }
    );
    assert_eq!(
        read("bob import d1-d3 e5-e2 variant:copenhagen").unwrap().1,
        Command::Import {
            moves: "d1-d3 e5-e2".into(),
            variant: "copenhagen".parse().unwrap()
        }
    );
    assert!(matches!(
        read("bob accept four"),
        Err(ServiceError::BadOption { .. })
    ));
    assert!(matches!(
        read("bob frobnicate"),
        Err(ServiceError::UnknownCommand(..))
    ));
    let extra = read("bob rules tablut please").unwrap_err().to_string();
    assert!(extra.contains("/rules variant"), "{extra}");
    let missing = read("alice challenge").unwrap_err().to_string();
    assert!(
        missing.contains("/challenge opponent:@bob variant:copenhagen"),
        "{missing}"
    );
}

#[tokio::test]
async fn the_local_mode_imports_a_move_list() {
    let pool = crate::support::store(":memory:").await;
    let svc = Service::new(pool, Arc::new(TestClock::new(1_800_000_000)));
    let images = crate::support::scratch("import-pictures");
    let session = taflbot::local::Session::new(&*images);
    let (who, command) = parse_line("carol import d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2").unwrap();
    let said = execute(&svc, &who, command, &session).await.unwrap();
    assert!(
        said.starts_with("5 moves of Copenhagen Hnefatafl 11x11 replayed"),
        "{said}"
    );
    assert!(said.contains("3. g3-e3xe2"), "{said}");
    assert!(images.join("import.png").exists());
    // A byte-order mark before the list is no move; control characters are not shown raw.
    let (who, command) =
        parse_line("carol import \u{feff}d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2").unwrap();
    execute(&svc, &who, command, &session).await.unwrap();
    let (who, command) = parse_line("carol import d1-d3 e5-e2 g1-g3\u{7}\u{1b}[2J").unwrap();
    let said = execute(&svc, &who, command, &session)
        .await
        .unwrap_err()
        .to_string();
    assert!(!said.chars().any(char::is_control), "{said:?}");
    let (who, command) = parse_line("carol import d1-d3 e5-e2 g1-g3 f4-c4 g3-e3").unwrap();
    let wrong = execute(&svc, &who, command, &session).await.unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "the move list does not replay: move 5 (g3-e3): the list captures nothing but the move captures e2"
    );
}

#[test]
fn one_day_is_one_day() {
    let c = taflbot::service::Challenge {
        id: 7,
        challenger: local("alice"),
        challenged: local("bob"),
        variant: taflbot::rules::Variant::by_id("tablut").unwrap(),
        side: SideChoice::Random,
        days: 1,
        expires_at: 1_800_000_000,
        rated: false,
        continued: None,
    };
    let said = taflbot::service::text::challenge_made(&c, &taflbot::service::text::Plain);
    assert!(said.contains(", 1 day per move."), "{said}");
    assert!(said.contains("a friendly game of Tablut"), "{said}");
    assert!(said.ends_with("open until 2027-01-15 08:00 UTC."), "{said}");
}

/// A tour of every command and most refusals, as the local mode shows them, and the sentences of
/// every kind of news and direct message: no sentence a player reads has a run of spaces (a
/// wrapped string that lost its `\` continuation leaves one).
#[tokio::test]
async fn no_sentence_of_a_tour_of_the_commands_has_a_run_of_spaces() {
    let pool = crate::support::store(":memory:").await;
    let clock = Arc::new(TestClock::new(1_800_000_000));
    let svc = Service::new(pool, clock.clone());
    let images = crate::support::scratch("tour-pictures");
    let script = "\
alice help
alice help challenge
alice help decline draw
alice rules tablut
alice variants
alice challenge @bob variant:tyr-11 side:attackers days:3
bob decline
alice challenge @bob variant:tyr-11
carol challenge @dave variant:tablut days:4
carol challenge @dave variant:tablut
carol withdraw
alice challenge @carol variant:tyr-11 side:attackers
carol accept
alice move d1-d3
carol move e5-e9
carol move e5-e2
alice board flip
alice games
carol games player:@alice
alice takeback
alice takeback
carol takeback decline:true
carol draw
alice decline draw
carol draw
alice draw
alice record game:1
alice hint game:1
alice hint game:7
dave challenge @taflbot variant:brandubh side:attackers level:1
dave abort
dave challenge @bob variant:brandubh level:2
alice vacation
alice vacation on
alice vacation on
alice vacation off
alice notify dm:on
alice notify dm:off
alice leaderboard
alice leaderboard variant:brandubh
alice profile
alice profile player:@erin
alice import d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2
alice import d1-d3 e5-e2 g1-g3 f4-c4 g3-e3
erin resign game:1
alice frobnicate
alice move game:x
";
    let mut out = Vec::new();
    taflbot::local::run(
        &svc,
        script.as_bytes(),
        &mut out,
        &taflbot::local::Session::new(&*images),
    )
    .await
    .unwrap();
    let mut said: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    // The tour reached what it meant to: answers, news and refusals of every kind.
    for expected in [
        "The variants (20), by the id to type:",
        "tablut-linnaeus: Tablut (Linnaeus)",
        "declined challenge #1",
        "withdrew challenge #",
        "accepted: game #",
        "asks to take back their last turn",
        "declined to take back",
        "offers a draw",
        "declined the draw",
        "accepted the draw",
        "takes on taflbot",
        "called the game off",
        "You are on vacation",
        "direct message",
        "ratings here",
        "Profile of alice",
        "moves of Copenhagen Hnefatafl 11x11 replayed",
        "error: 4 days per move is not offered",
        "error: a level is for games against taflbot",
    ] {
        assert!(
            said.iter().any(|l| l.contains(expected)),
            "{expected}:\n{}",
            said.join("\n")
        );
    }
    // The sentences that only Discord's deliveries make.
    use taflbot::service::text::{self, Plain};
    let view = svc.game(1).await.unwrap();
    said.push(text::direct_messages_closed(&local("alice"), &Plain));
    for news in [
        taflbot::service::News::Started,
        taflbot::service::News::Reminder { to: local("alice") },
        taflbot::service::News::Timeout {
            late: local("carol"),
        },
        taflbot::service::News::Update,
    ] {
        said.push(text::post(&news, &view, &Plain));
        said.extend(text::direct_message(&news, &view, &local("alice"), &Plain));
    }
    // A board written as text is a grid, not a sentence: its lines (and its key) begin with a
    // space or a rank's number.
    let board = |l: &str| {
        l.starts_with(' ')
            || l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u8>().is_ok() && l.ends_with(w))
    };
    for line in said.iter().filter(|l| !board(l)) {
        assert!(!line.contains("  "), "a run of spaces: {line:?}");
    }
}

/// A mistyped command is answered with the nearest one, in both front ends' words; a word that is
/// near no command gets the plain refusal.
#[test]
fn a_mistyped_command_gets_did_you_mean() {
    let said = |line: &str| taflbot::local::parse_line(line).unwrap_err().to_string();
    assert_eq!(
        said("alice chalenge @bob variant:brandubh"),
        "there is no command \"chalenge\" (did you mean challenge?); help lists them"
    );
    assert!(said("alice reveiw").contains("(did you mean review?)"));
    assert!(said("alice withdrw").contains("(did you mean withdraw?)"));
    assert_eq!(
        said("alice frobnicate"),
        "there is no command \"frobnicate\"; help lists them"
    );
    let discord = taflbot::discord::commands::help_for("borad")
        .unwrap_err()
        .to_string();
    assert!(discord.contains("did you mean board?"), "{discord}");
}
