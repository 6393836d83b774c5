//! The command line, run as a user runs it.

use std::process::{Command, Output};

use serde_json::Value;

fn taflbot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// One side-swapped pair of Brandubh in the arena between players `a` and `b` (with `extra`
/// arguments), which must run; what it prints.
fn brandubh_pair(a: &str, b: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "arena",
        "--variant",
        "brandubh",
        "--a",
        a,
        "--b",
        b,
        "--pairs",
        "1",
    ];
    args.extend_from_slice(extra);
    let out = taflbot(&args);
    assert!(out.status.success(), "{out:?}");
    stdout(&out)
}

fn json(out: &Output) -> Value {
    serde_json::from_str(&stdout(out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

#[test]
fn variants_lists_every_variant() {
    let out = taflbot(&["variants", "--json"]);
    assert!(out.status.success());
    let list = json(&out);
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    for id in [
        "tyr-11",
        "tyr-commanders-17",
        "odin-15",
        "sea-battle-9",
        "tablut",
        "standard-13",
    ] {
        assert!(ids.contains(&id), "{id}");
    }
    assert!(stdout(&taflbot(&["variants"])).contains("Sea Battle 13x13"));
}

#[test]
fn moves_prints_one_canonical_move_per_line() {
    let out = taflbot(&["moves", "--variant", "tablut"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 80);
    assert!(lines.contains(&"d1-d4"));
    let out = taflbot(&[
        "moves",
        "--variant",
        "tyr-commanders-11",
        "--position",
        "11/11/11/11/11/3t7/3c7/11/11/5K5/11 a",
    ]);
    let text = stdout(&out);
    assert!(text.lines().any(|l| l == "d5^d7"), "{text}");
}

#[test]
fn perft_counts_each_depth() {
    let out = taflbot(&["perft", "--variant", "tablut", "3"]);
    assert_eq!(stdout(&out), "1 80\n2 4400\n3 353200\n");
}

#[test]
fn replay_reports_turns_captures_and_the_result() {
    let out = taflbot(&[
        "replay",
        "--variant",
        "tyr-11",
        "--json",
        "d1-d3",
        "e5-e2",
        "h1-h3",
    ]);
    assert!(out.status.success());
    let v = json(&out);
    assert_eq!(v["variant"], "tyr-11");
    assert_eq!(v["turns"].as_array().unwrap().len(), 3);
    assert_eq!(v["turns"][0]["moves"][0], "d1-d3");
    assert_eq!(v["to_move"], "defenders");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["reason"], Value::Null);
    assert!(v["position"].as_str().unwrap().ends_with(" d"));
}

#[test]
fn replay_plays_a_berserk_chain_as_one_turn() {
    // Attacker c1 takes d5 (against e5) and then b8 (against a8) in one turn.
    let start = "11/11/7K3/tT9/11/11/3Tt6/11/11/11/2t8 a";
    let out = taflbot(&[
        "replay",
        "--variant",
        "tyr-11",
        "--position",
        start,
        "--json",
        "c1-c5 c5-c8",
        "h9-h10",
    ]);
    let v = json(&out);
    assert!(out.status.success(), "{v}");
    assert_eq!(
        v["turns"][0]["moves"],
        serde_json::json!(["c1-c5xd5", "c5-c8xb8"])
    );
    assert_eq!(v["turns"][0]["captures"], serde_json::json!(["d5", "b8"]));
    assert_eq!(v["to_move"], "attackers");

    // A capture not continued ends the turn when the next argument begins.
    let out = taflbot(&[
        "replay",
        "--variant",
        "tyr-11",
        "--position",
        start,
        "--json",
        "c1-c5",
        "h9-h10",
    ]);
    let v = json(&out);
    assert!(out.status.success(), "{v}");
    assert_eq!(v["turns"][1]["moves"], serde_json::json!(["h9-h10"]));
}

#[test]
fn replay_refuses_an_illegal_turn_with_its_number() {
    let out = taflbot(&["replay", "--variant", "tyr-11", "--json", "d1-d3", "f4-f9"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["error"]["turn"], 2);
    assert_eq!(v["error"]["text"], "f4-f9");
    assert_eq!(v["error"]["message"], "the path is blocked at f5");

    let out = taflbot(&["replay", "--variant", "tyr-11", "--json", "zz"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["error"]["turn"], 1);
}

#[test]
fn replay_refuses_turns_after_the_end() {
    let start = "11/11/11/11/11/11/11/11/11/2K8/7t3 d";
    let out = taflbot(&[
        "replay",
        "--variant",
        "tyr-11",
        "--position",
        start,
        "--json",
        "c2-a2",
        "h1-h2",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["error"]["turn"], 2);
    assert_eq!(v["error"]["message"], "the game is over");

    let out = taflbot(&[
        "replay",
        "--variant",
        "tyr-11",
        "--position",
        start,
        "--json",
        "c2-a2",
    ]);
    let v = json(&out);
    assert_eq!(v["status"], "defenders_won");
    assert_eq!(v["reason"], "king_escaped");
    assert_eq!(
        v["to_move"], "attackers",
        "the move was made: the turn passed"
    );
}

#[test]
fn replay_handles_save_the_standard_turns() {
    let out = taflbot(&[
        "replay",
        "--variant",
        "standard-7",
        "--json",
        "a11-b11",
        "d14-e14 a5-b5",
        "d6-e6",
    ]);
    let v = json(&out);
    assert!(out.status.success(), "{v}");
    assert_eq!(v["to_move"], "gold");
    assert_eq!(v["slot"], "attacking");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(
        v["turns"][1]["moves"],
        serde_json::json!(["d14-e14", "a5-b5"])
    );

    let out = taflbot(&[
        "replay",
        "--variant",
        "standard-7",
        "--json",
        "a11-b11",
        "d14-e14",
        "d6-e6",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["error"]["turn"], 2);
    assert_eq!(
        v["error"]["message"],
        "the turn is not over: the attacking slot still needs a move"
    );
}

#[test]
fn bad_input_gets_one_clear_line() {
    let out = taflbot(&["moves", "--variant", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("there is no variant \"chess\"; the variants are tyr-11"),
        "{err}"
    );

    let out = taflbot(&["moves", "--variant", "tablut", "--position", "9/9 a"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim(),
        "taflbot: the position is not legal for tablut: the position is 9x2, but this variant's board is 9x9"
    );
}

#[test]
fn render_writes_a_png_and_a_gif() {
    let dir = crate::support::scratch("render");
    let png = dir.join("board.png");
    let out = taflbot(&[
        "render",
        "--variant",
        "tablut",
        "--replay",
        "d1-d3",
        "e3-h3",
        "--theme",
        "contrast",
        "--flip",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let gif = dir.join("game.gif");
    let out = taflbot(&[
        "render",
        "--variant",
        "tyr-11",
        "--replay",
        "d1-d3",
        "--gif",
        "--out",
        gif.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(&std::fs::read(&gif).unwrap()[..3], b"GIF");
    let out = taflbot(&[
        "render",
        "--variant",
        "tyr-11",
        "--theme",
        "neon",
        "--out",
        gif.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("unknown theme \"neon\"; the themes are classic, contrast"));
}

#[test]
fn render_reads_the_format_from_the_file_name_and_refuses_a_bad_turn_like_replay() {
    let dir = crate::support::scratch("render-ext");
    let gif = dir.join("end.gif");
    let out = taflbot(&[
        "render",
        "--variant",
        "tablut",
        "--out",
        gif.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(&std::fs::read(&gif).unwrap()[..3], b"GIF");
    let out = taflbot(&[
        "render",
        "--variant",
        "tyr-11",
        "--replay",
        "d1-d3",
        "f8-f9",
        "--out",
        gif.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "taflbot: turn 2 (\"f8-f9\"): f9 is occupied"
    );
}

#[test]
fn import_reads_an_aagenielsen_move_list_into_a_record() {
    let dir = crate::support::scratch("cli-import");
    let file = dir.join("game.txt");
    std::fs::write(&file, "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Ongoing\n").unwrap();
    let out = taflbot(&["import", "--variant", "copenhagen", file.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "[Variant \"copenhagen\"]\n[Result \"ongoing\"]\n\n1. d1-d3\n1... e5-e2\n2. g1-g3\n2... f4-c4\n3. g3-e3xe2\n"
    );
    std::fs::write(&file, "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3").unwrap();
    let wrong = taflbot(&["import", file.to_str().unwrap()]);
    // A list that does not replay is a failure (1), not a usage error (2).
    assert_eq!(wrong.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&wrong.stderr),
        "taflbot: move 5 (g3-e3): the list captures nothing but the move captures e2\n"
    );
}

#[test]
fn ai_prints_a_whole_turn_as_replay_takes_it() {
    let out = taflbot(&["ai", "--variant", "brandubh", "--depth", "3", "--json"]);
    assert!(out.status.success(), "{}", stdout(&out));
    let v = json(&out);
    let turn: Vec<&str> = v["turn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(turn.len(), 1);
    assert_eq!(v["depth"], 3);
    assert!(v["nodes"].as_u64().unwrap() > 40);
    assert!(v["nps"].as_u64().is_some());
    assert_eq!(v["pv"][0].as_str(), Some(turn[0]));
    assert!(v["score"].is_i64() && v["mate_in"].is_null(), "{v}");
    let replayed = taflbot(&["replay", "--variant", "brandubh", turn[0]]);
    assert!(replayed.status.success());

    // A berserk chain is one turn of several moves (the king is boxed in, a man of his is free;
    // how far the engine takes the chain is its judgement).
    let chain = taflbot(&[
        "ai",
        "--variant",
        "tyr-11",
        "--position",
        "8t2/1T5tTt1/6tTKTt/7tTt1/8t2/2t2t5/2T2T5/t10/11/6Tt3/11 a",
        "--depth",
        "4",
        "--json",
    ]);
    let v = json(&chain);
    let moves = v["turn"].as_array().unwrap();
    assert!(moves.len() >= 2, "{v}");
    let words: Vec<&str> = moves.iter().map(|m| m.as_str().unwrap()).collect();
    let again = taflbot(&[
        "replay",
        "--variant",
        "tyr-11",
        "--position",
        "8t2/1T5tTt1/6tTKTt/7tTt1/8t2/2t2t5/2T2T5/t10/11/6Tt3/11 a",
        "--json",
        &words.join(" "),
    ]);
    assert_eq!(json(&again)["to_move"], "defenders", "{}", stdout(&again));

    // A win in one is announced as such.
    let win = taflbot(&[
        "ai",
        "--variant",
        "tablut",
        "--position",
        "9/9/9/9/9/9/2K6/9/t8 d",
        "--json",
    ]);
    let v = json(&win);
    assert_eq!(v["mate_in"], 1, "{v}");
    assert!(v["score"].is_null());
}

#[test]
fn ai_refuses_a_finished_game_and_a_bad_position_in_json() {
    let over = taflbot(&[
        "ai",
        "--variant",
        "tablut",
        "--position",
        "9/9/9/9/9/9/9/9/K7t d",
        "--json",
    ]);
    assert_eq!(over.status.code(), Some(1));
    let v = json(&over);
    assert!(
        v["error"].as_str().unwrap().starts_with("the game is over"),
        "{v}"
    );
    let bad = taflbot(&["ai", "--variant", "tablut", "--position", "9/9 a", "--json"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(json(&bad)["error"].as_str().is_some());
    let level = taflbot(&["ai", "--variant", "tablut", "--level", "7"]);
    assert_eq!(level.status.code(), Some(2));
}

#[test]
fn arena_scores_the_same_on_one_thread_or_several() {
    let args = |threads: &str| {
        let out = taflbot(&[
            "arena",
            "--variant",
            "brandubh,tablut",
            "--a",
            "2",
            "--b",
            "greedy",
            "--pairs",
            "3",
            "--threads",
            threads,
        ]);
        assert!(out.status.success(), "{out:?}");
        // Each line ends with the time taken, which differs from run to run.
        stdout(&out)
            .lines()
            .map(|l| l.rsplit_once(" in ").unwrap().0.to_string())
            .collect::<Vec<_>>()
    };
    let one = args("1");
    assert_eq!(one.len(), 2);
    assert!(
        one[0].starts_with("brandubh") && one[0].contains("6 games"),
        "{one:?}"
    );
    assert_eq!(one, args("3"));
}

#[test]
fn an_arena_match_played_in_parts_adds_up_to_the_whole() {
    // Won, won attacking, drawn, unfinished, unfinished with a and with b far ahead, lost, and
    // lost attacking, from a line such as "brandubh 2 games (pairs 4 to 4):   1 won (0
    // attacking), 0 drawn (0 unfinished: 0 with a far ahead, 0 with b), 1 lost (1 attacking): ..."
    let tally = |first: &str, pairs: &str| -> ([u32; 8], String) {
        let out = taflbot(&[
            "arena",
            "--variant",
            "brandubh",
            "--a",
            "random",
            "--b",
            "greedy",
            "--pairs",
            pairs,
            "--first-pair",
            first,
        ]);
        assert!(out.status.success(), "{out:?}");
        let line = stdout(&out).lines().next().unwrap().to_string();
        let counts = line
            .split_once(':')
            .unwrap()
            .1
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| !w.is_empty())
            .take(8)
            .map(|w| w.parse().unwrap())
            .collect::<Vec<u32>>();
        (counts.try_into().unwrap(), line)
    };
    let (whole, line) = tally("0", "4");
    assert!(!line.contains("pairs"), "{line}");
    let (head, _) = tally("0", "3");
    let (rest, line) = tally("3", "1");
    assert!(line.contains("2 games (pairs 4 to 4)"), "{line}");
    // The fourth pair is not played as the first would be (the part starts where it says).
    assert_ne!(rest, tally("0", "1").0, "{line}");
    let sum: Vec<u32> = head.iter().zip(rest).map(|(a, b)| a + b).collect();
    assert_eq!(sum, whole.to_vec(), "{line}");
    assert_eq!(whole[0] + whole[2] + whole[6], 8);
    assert!(whole[4] + whole[5] <= whole[3], "{line}");
    assert!(whole[1] <= whole[0] && whole[7] <= whole[6], "{line}");
}

#[test]
fn a_setting_out_of_its_range_is_one_sentence_naming_it() {
    for (name, value, says) in [
        (
            "TAFLBOT_LEASE_SECONDS",
            "0",
            "TAFLBOT_LEASE_SECONDS must be a number of seconds from 1 to 3600, not \"0\"",
        ),
        (
            "TAFLBOT_VACATION_DAYS",
            "a fortnight",
            "TAFLBOT_VACATION_DAYS must be a number of days from 0 to 366, not \"a fortnight\"",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_taflbot"))
            .args(["local", "--db", ":memory:"])
            .env(name, value)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim(),
            format!("taflbot: {says}")
        );
    }
}

/// `taflbot puzzles` cuts puzzles from the corpus as JSON lines, whose position and solution
/// `taflbot replay` reads back to a win for the side to move; `taflbot review` marks the turns.
#[test]
fn puzzles_print_positions_replay_solves_and_review_reads_a_game() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/data/copenhagen.csv");
    let out = taflbot(&["puzzles", "--from", corpus, "--limit", "2", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for p in &lines {
        assert_eq!(p["variant"], "copenhagen");
        let theme = p["theme"].as_str().unwrap();
        assert!(
            ["king escape", "king capture", "encirclement", "material"].contains(&theme),
            "{theme}"
        );
        let position = p["position"].as_str().unwrap();
        let solution: Vec<&str> = p["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(solution.len() % 2, 1);
        let solver = if position.ends_with(" a") {
            "attackers"
        } else {
            "defenders"
        };
        let mut args = vec![
            "replay",
            "--variant",
            "copenhagen",
            "--position",
            position,
            "--json",
        ];
        args.extend(&solution);
        let replayed = json(&taflbot(&args));
        assert_eq!(replayed["status"], format!("{solver}_won"), "{replayed}");
    }
    let missing = taflbot(&["puzzles", "--from", "/nonexistent/games.csv"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read /nonexistent/games.csv"));

    let review = taflbot(&[
        "review",
        "--variant",
        "brandubh",
        "--json",
        "d1-e1",
        "c4-c7",
    ]);
    let r = json(&review);
    assert_eq!(r["turns"].as_array().unwrap().len(), 2);
    assert_eq!(r["turns"][0]["turn"], "d1-e1");
    assert!(r["accuracy"]["attackers"].as_f64().is_some());
}

#[test]
fn selfplay_writes_positions_that_tune_fits_a_family_to() {
    use taflbot::engine::weights::{family_index, read, FAMILIES};
    use taflbot::engine::Eval;
    use taflbot::rules::Family;
    let dir = crate::support::scratch("teach");
    let data = dir.join("positions.tsv");
    let weights = dir.join("weights.txt");
    let _ = std::fs::remove_file(&data);
    let (data_arg, weights_arg) = (data.to_str().unwrap(), weights.to_str().unwrap());
    let played = taflbot(&[
        "selfplay",
        "--variant",
        "brandubh",
        "--games",
        "6",
        "--nodes",
        "300",
        "--out",
        data_arg,
    ]);
    assert!(played.status.success(), "{played:?}");
    assert!(
        stdout(&played).starts_with("brandubh: 6 games"),
        "{}",
        stdout(&played)
    );
    let text = std::fs::read_to_string(&data).unwrap();
    assert!(text.lines().count() > 20);
    // The games are written in the order of their seeds: the same file on several threads.
    let threaded = dir.join("threaded.tsv");
    let _ = std::fs::remove_file(&threaded);
    let again = taflbot(&[
        "selfplay",
        "--variant",
        "brandubh",
        "--games",
        "6",
        "--nodes",
        "300",
        "--threads",
        "3",
        "--out",
        threaded.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(std::fs::read_to_string(&threaded).unwrap(), text);
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert_eq!(fields[0], "brandubh");
        assert!(["defenders", "attackers", "draw", "unfinished"].contains(&fields[2]));
        assert!(
            fields[3] == "-" || fields[3].parse::<i32>().is_ok(),
            "{line}"
        );
    }
    // The Brandubh games of the corpus beside them.
    let tuned = taflbot(&[
        "tune",
        "--positions",
        data_arg,
        "--games",
        "brandubh=data/brandubh.csv",
        "--family",
        "brandubh",
        "--epochs",
        "30",
        "--out",
        weights_arg,
    ]);
    assert!(tuned.status.success(), "{tuned:?}");
    assert!(
        stdout(&tuned).starts_with("brandubh: "),
        "{}",
        stdout(&tuned)
    );
    let fitted = read(&std::fs::read_to_string(&weights).unwrap()).unwrap();
    let classic = read(Eval::Classic.text()).unwrap();
    // Only the family fitted changed; an attacker's man still weighs a hundred.
    for family in FAMILIES {
        let i = family_index(family);
        assert_eq!(
            fitted.rows[i] == classic.rows[i],
            family != Family::Brandubh,
            "{family:?}"
        );
    }
    assert_eq!(fitted.rows[family_index(Family::Brandubh)].values[1], 100);
    // A network trained beside the row on the same positions, and played by the arena.
    let net = dir.join("brandubh.net");
    let net_arg = net.to_str().unwrap();
    let trained = taflbot(&[
        "net",
        "--variant",
        "brandubh",
        "--positions",
        data_arg,
        "--games",
        "brandubh=data/brandubh.csv",
        "--epochs",
        "2",
        "--out",
        net_arg,
    ]);
    assert!(trained.status.success(), "{trained:?}");
    assert!(
        stdout(&trained).starts_with("brandubh: "),
        "{}",
        stdout(&trained)
    );
    let read_back = taflbot::engine::net::Net::read(&std::fs::read_to_string(&net).unwrap());
    assert_eq!(read_back.unwrap().variant().id, "brandubh");
    let played = brandubh_pair(
        "trial:nodes:300",
        "taught:nodes:300",
        &["--trial-net", net_arg],
    );
    assert!(played.contains("2 games"), "{played}");
    let none = taflbot(&[
        "net",
        "--variant",
        "copenhagen",
        "--positions",
        data_arg,
        "--out",
        net_arg,
    ]);
    assert_eq!(none.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no positions of copenhagen"));
    // A file that is not a positions file is refused with where.
    std::fs::write(&data, "brandubh\tnonsense\n").unwrap();
    let refused = taflbot(&["tune", "--positions", data_arg, "--out", weights_arg]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains(":1: expected four fields"));
}

/// A used-only fit moves only the terms its starting row weighs, and each file names the set it
/// was fitted from.
#[test]
fn tune_used_only_keeps_the_unused_terms_at_zero_and_names_where_it_started() {
    use taflbot::engine::weights::{family_index, read, Group};
    use taflbot::engine::Eval;
    use taflbot::rules::Family;
    let dir = crate::support::scratch("used-only");
    let (first, second) = (dir.join("first.txt"), dir.join("second.txt"));
    let fit = |from: &str, out: &std::path::Path| {
        let out = taflbot(&[
            "tune",
            "--family",
            "brandubh",
            "--games",
            "brandubh=data/brandubh.csv",
            "--from",
            from,
            "--used-only",
            "--epochs",
            "30",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{out:?}");
    };
    fit("classic", &first);
    let text = std::fs::read_to_string(&first).unwrap();
    assert!(
        text.contains("from the `classic` set, fitting brandubh"),
        "{text}"
    );
    let i = family_index(Family::Brandubh);
    let classic = &read(Eval::Classic.text()).unwrap().rows[i];
    let fitted = &read(&text).unwrap().rows[i];
    assert_ne!(fitted, classic, "the corpus moves the weights it uses");
    for (t, (was, now)) in classic.values.iter().zip(&fitted.values).enumerate() {
        let bias = t == Group::Bias.at();
        assert!(*was != 0 || *now == 0 || bias, "term {t} was unused: {now}");
    }
    fit(first.to_str().unwrap(), &second);
    let text = std::fs::read_to_string(&second).unwrap();
    let named = format!("from the weights in {}, fitting", first.display());
    assert!(text.contains(&named), "{text}");
}

#[test]
fn arena_players_name_their_weights_and_their_time_or_nodes() {
    let out = brandubh_pair("taught:nodes:400", "classic:2", &[]);
    assert!(out.starts_with("brandubh"), "{out}");
    // A player by time plays too.
    brandubh_pair("time:5", "greedy", &[]);
    for bad in ["taught:random", "time:0", "classic:9", "nodes:many"] {
        let out = taflbot(&["arena", "--variant", "brandubh", "--a", bad, "--b", "1"]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("unknown player"),
            "{bad}"
        );
    }
}

/// Every option of every subcommand has help, every subcommand an example, and none shows a
/// default no one would type.
#[test]
fn every_option_has_help_and_every_subcommand_an_example() {
    let mut command = taflbot::cli::command();
    command.build();
    let mut missing = Vec::new();
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let after = sub
            .get_after_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        if !after.contains("Example: taflbot") && !after.contains("Example: DISCORD_TOKEN") {
            missing.push(format!("{}: no example", sub.get_name()));
        }
        for arg in sub.get_arguments() {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            if arg.get_help().is_none() {
                missing.push(format!("{} --{id}: no help", sub.get_name()));
            }
            for default in arg.get_default_values() {
                let shown = default.to_string_lossy();
                let huge = shown.len() >= 10 && shown.chars().all(|c| c.is_ascii_digit());
                assert!(!huge, "{} --{id} shows {shown}", sub.get_name());
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    let run = taflbot(&["run", "--help"]);
    let help = String::from_utf8_lossy(&run.stdout);
    for variable in [
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "TAFLBOT_SHARDS",
        "RUST_LOG",
        "NO_COLOR",
    ] {
        assert!(help.contains(variable), "{variable}: {help}");
    }
}

/// A failure exits 1, a usage error 2; `copy-db` from a file that is not there creates nothing.
#[test]
fn failures_exit_1_usage_errors_2_and_copy_db_creates_no_source() {
    let dir = crate::support::scratch("cli-exits");
    let source = dir.join("no-such.db");
    let target = dir.join("copy.db");
    let out = taflbot(&[
        "copy-db",
        "--from",
        source.to_str().unwrap(),
        "--to",
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("does not exist"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!source.exists() && !target.exists());
    let usage = taflbot(&["copy-db", "--from", "a.db"]);
    assert_eq!(usage.status.code(), Some(2));
    let suggested = taflbot(&["varients"]);
    assert_eq!(suggested.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&suggested.stderr).contains("variants"));
    let jpeg = taflbot(&[
        "render",
        "--variant",
        "brandubh",
        "--out",
        dir.join("x.jpg").to_str().unwrap(),
    ]);
    assert_eq!(jpeg.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&jpeg.stderr).contains(".png"),
        "{}",
        String::from_utf8_lossy(&jpeg.stderr)
    );
    assert!(!dir.join("x.jpg").exists());
}

/// copy-db given libpq's keyword form, or a URL of another scheme, as either end refuses it
/// with exit 1, names no password, and makes no file named after it (it once copied a whole
/// database into a SQLite file called `host=… password=…`).
#[test]
fn copy_db_refuses_an_address_it_does_not_read_and_never_shows_its_password() {
    let dir = crate::support::scratch("copy-db-addresses");
    let run = |from: &str, to: &str| {
        Command::new(env!("CARGO_BIN_EXE_taflbot"))
            .current_dir(&*dir)
            .args(["copy-db", "--from", from, "--to", to])
            .output()
            .unwrap()
    };
    let made = Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .current_dir(&*dir)
        .args(["local", "--db", "source.db"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(made.status.success());
    let keywords = "host=127.0.0.1 port=5432 user=taflbot password=S3cretPW dbname=t4k";
    let other = "mysql://taflbot:S3cretPW@127.0.0.1/t4k";
    for (from, to) in [
        ("source.db", keywords),
        (keywords, "target.db"),
        ("source.db", other),
    ] {
        let out = run(from, to);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(said.contains("taflbot does not read"), "{said}");
        assert!(!said.contains("S3cretPW"), "{said}");
    }
    let mut files: Vec<String> = std::fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| !f.starts_with("source.db") && !f.starts_with("taflbot-images"))
        .collect();
    files.sort();
    assert!(files.is_empty(), "{files:?}");
}

/// Self-play kept as games (`.games`, bytes), a wide network trained on them, and the arena
/// playing with it as the trial set's whole evaluation.
#[test]
fn selfplay_keeps_games_that_wide_trains_a_network_on() {
    let dir = crate::support::scratch("wide");
    let games = dir.join("brandubh.games");
    let text = dir.join("brandubh.tsv");
    let net = dir.join("brandubh.wide");
    for path in [&games, &text] {
        let _ = std::fs::remove_file(path);
        let played = taflbot(&[
            "selfplay",
            "--variant",
            "brandubh",
            "--games",
            "30",
            "--nodes",
            "300",
            "--opening",
            "2",
            "--spread",
            "6",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(played.status.success(), "{played:?}");
    }
    let bytes = std::fs::read(&games).unwrap();
    assert!(bytes.starts_with(b"taflbot games 1\n"));
    let lines = std::fs::read_to_string(&text).unwrap().lines().count();
    assert!(bytes.len() * 5 < std::fs::read(&text).unwrap().len());
    let train = |positions: &std::path::Path| {
        let out = taflbot(&[
            "wide",
            "--variant",
            "brandubh",
            "--positions",
            positions.to_str().unwrap(),
            "--games",
            "brandubh=data/brandubh.csv",
            "--epochs",
            "2",
            "--lambda",
            "0.5",
            "--out",
            net.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{out:?}");
        let report = stdout(&out);
        let written = std::fs::read(&net).unwrap();
        (report, written)
    };
    // The same games, kept as text or as bytes, train the same network.
    let (report, from_games) = train(&games);
    assert!(
        report.starts_with(&format!("brandubh: {lines} lines read")),
        "{report}"
    );
    let (_, from_text) = train(&text);
    assert_eq!(from_games, from_text);
    // `tune` reads both as well, to the same fit.
    let fits: Vec<String> = [&games, &text]
        .iter()
        .map(|positions| {
            let out = dir.join("fit.txt");
            let tuned = taflbot(&[
                "tune",
                "--positions",
                positions.to_str().unwrap(),
                "--family",
                "brandubh",
                "--epochs",
                "5",
                "--out",
                out.to_str().unwrap(),
            ]);
            assert!(tuned.status.success(), "{tuned:?}");
            std::fs::read_to_string(&out).unwrap()
        })
        .collect();
    assert_eq!(fits[0], fits[1]);
    let wide = taflbot::engine::wide::Wide::read(&from_games).unwrap();
    assert_eq!(wide.variant().id, "brandubh");
    let played = brandubh_pair(
        "trial:nodes:300",
        "taught:nodes:300",
        &["--trial-net", net.to_str().unwrap()],
    );
    assert!(played.contains("2 games"), "{played}");
    // A games file cut short is refused with where.
    std::fs::write(&games, &bytes[..bytes.len() - 3]).unwrap();
    let refused = taflbot(&[
        "wide",
        "--variant",
        "brandubh",
        "--positions",
        games.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("brandubh.games: game 30: the games file ends inside a game"),
        "{said}"
    );
}
