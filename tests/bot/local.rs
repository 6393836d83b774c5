//! The local mode, run as a user runs it: a script piped in, its output checked.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn a_scripted_game_in_the_local_mode() {
    let dir = crate::support::scratch("local");
    let db = dir.join("local.db");
    let images = dir.join("pictures");
    let script = "\
alice challenge @bob variant:tyr-11 side:attackers days:3
bob accept
alice move d1-d3
bob move e5-e9
carol move d3-d2
bob move e5-e2
alice games
bob resign
alice record game:1
alice review game:1
";
    let out = local(&db, &images, script.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("bob, alice challenges you to a rated game of TYR 11x11"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("bob accepted: game #1 (TYR 11x11"),
        "{text}"
    );
    assert!(
        lines[2].starts_with(
            "Game #1: TYR 11x11 (Simple Tyr). alice plays the attackers, bob the defenders."
        ),
        "{text}"
    );
    assert!(
        text.contains("alice played 1. d1-d3. Game #1: bob (defenders) to move, deadline "),
        "{text}"
    );
    assert!(text.contains("error: the path is blocked at e6"), "{text}");
    assert!(
        text.contains("error: no game is waiting for your move"),
        "{text}"
    );
    assert!(
        text.contains("#1 TYR 11x11 (Simple Tyr) vs bob: your move, deadline "),
        "{text}"
    );
    assert!(
        text.contains("Game #1 is over: alice (attackers) won: resignation."),
        "{text}"
    );
    assert!(
        text.contains("[Result \"attackers_won\"]") && text.contains("1... e5-e2"),
        "{text}"
    );
    // No bare line of names (the pings of a game's end mean nothing without pings).
    let bare = ["alice", "bob", "alice bob", "bob alice"];
    assert!(!text.lines().any(|l| bare.contains(&l.trim())), "{text}");
    // The review: every turn with the defenders' chance, each side's accuracy, the chart saved.
    assert!(text.contains("Review of game #1 (TYR 11x11"), "{text}");
    assert!(text.contains("1. attackers d1-d3 (defenders "), "{text}");
    assert!(text.contains("alice (attackers): accuracy "), "{text}");
    // Each side's accuracy is said once (the file's own lines of it are left out here).
    assert!(!text.contains("The attackers: accuracy"), "{text}");
    assert!(
        text.contains("Every turn, with the winning chance of the defenders before and after:"),
        "{text}"
    );
    let chart = images.join("review-1.png");
    assert_eq!(&std::fs::read(&chart).unwrap()[1..4], b"PNG", "{text}");
    let picture = lines
        .iter()
        .find_map(|l| l.strip_prefix("picture: "))
        .expect("a picture path");
    assert_eq!(&std::fs::read(picture).unwrap()[1..4], b"PNG");

    // A line that is not UTF-8 is refused, and the script goes on; numbers are read as options.
    let out = local(
        &db,
        &images,
        b"carol challenge @dave variant:tablut\n\xff\xfe accept\ndave accept challenge:x\ndave accept challenge:2\n",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("dave, carol challenges you"), "{text}");
    assert!(lines[1].starts_with("error: "), "{text}");
    assert_eq!(
        lines[2], "error: \"x\" is not a challenge number (option challenge)",
        "{text}"
    );
    assert!(lines[3].starts_with("dave accepted: game #2"), "{text}");

    // The same database, a new process: the game is still there.
    let out = local(&db, &images, b"bob board game:1\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Game #1 is over: alice (attackers) won: resignation."),
        "{text}"
    );
    // On PostgreSQL, no SQLite file was made, where it was named or where the process ran.
    if crate::support::on_postgres() {
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(files, ["pictures"], "only the pictures are files");
    }
}

/// Runs the local mode on `db` with `input` piped in (on PostgreSQL in the run of the tests there:
/// `--db` is then a `postgres://` URL).
fn local(db: &std::path::Path, images: &std::path::Path, input: &[u8]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args([
            "local",
            "--db",
            &crate::support::database(db.to_str().unwrap()),
            "--images",
            images.to_str().unwrap(),
        ])
        .current_dir(db.parent().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(input)?;
            c.wait_with_output()
        })
        .unwrap()
}

#[test]
fn a_game_against_taflbot_in_the_local_mode() {
    let dir = crate::support::scratch("local-bot");
    let script = "\
alice challenge @taflbot brandubh side:attackers level:1
alice move d2-c2
alice hint
bob challenge @carol brandubh level:2
";
    let out = local(
        &dir.join("local.db"),
        &dir.join("pictures"),
        script.as_bytes(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("alice takes on taflbot: game #1 (Brandubh 7x7) has begun, taflbot at level 1. alice plays the attackers; you move first."),
        "{text}"
    );
    let mine = lines
        .iter()
        .position(|l| l.starts_with("alice played 1. d2-c2."))
        .expect(&text);
    assert_eq!(lines[mine + 1], "taflbot is thinking.", "{text}");
    // The board as text, its picture, then the bot's answer at once, with its board and picture.
    let board = &lines[mine + 2..mine + 2 + 9];
    assert_eq!(board[0].trim(), "a  b  c  d  e  f  g", "{text}");
    assert_eq!(board[6], "2  ·  · [●][·] ·  ·  ·  2", "{text}");
    let theirs = mine
        + lines[mine..]
            .iter()
            .position(|l| l.starts_with("taflbot played "))
            .expect(&text);
    assert!(lines[theirs - 1].starts_with("picture: "), "{text}");
    assert_eq!(lines[theirs + 1], "alice, your move.", "{text}");
    assert!(lines[theirs + 2].trim().starts_with("a  b"), "{text}");
    assert!(
        lines[theirs + 2..]
            .iter()
            .take(14)
            .any(|l| l.starts_with("picture: ")),
        "{text}"
    );
    assert!(text.contains("In game #1 taflbot would play "), "{text}");
    assert!(
        text.contains(
            "error: a level is for games against taflbot; a challenge to a person has none"
        ),
        "{text}"
    );
}

#[test]
fn an_images_folder_that_cannot_be_made_is_named() {
    let dir = crate::support::scratch("local-images");
    // A file where the folder should be.
    let images = dir.join("not-a-folder");
    std::fs::write(&images, b"x").unwrap();
    let out = local(&dir.join("local.db"), &images, b"");
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!(
            "cannot make the images folder {}",
            images.display()
        )),
        "{err}"
    );
}

/// The issue's own example: a round robin of four made, joined and started in the local mode
/// gives twelve games, each pair twice with the sides swapped; played out, its standings come
/// in the order of the results and its end names the winner.
#[test]
fn a_four_player_round_robin_in_the_local_mode() {
    let dir = crate::support::scratch("local-rr");
    let (db, images) = (dir.join("local.db"), dir.join("pictures"));
    let script = "\
alice tournament create variant:brandubh format:round-robin
bob tournament join
bob tournament join
carol tournament join
carol tournament start
dave tournament join
alice tournament start
";
    let out = local(&db, &images, script.as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("error: you are in tournament #1 already"),
        "{text}"
    );
    assert!(
        text.contains("error: only the creator of tournament #1, or someone who manages this server, may do that"),
        "{text}"
    );
    // Each game as announced: (game, attacker, defender).
    let games: Vec<(String, String, String)> = text
        .lines()
        .filter(|l| l.contains(" plays "))
        .filter_map(|l| l.strip_prefix("Game #"))
        .map(|l| {
            let (id, rest) = l.split_once(':').unwrap();
            let words: Vec<&str> = rest.split_whitespace().collect();
            let plays = words.iter().position(|w| *w == "plays").unwrap();
            let defender = words[plays + 3].trim_end_matches(',');
            (
                id.to_string(),
                words[plays - 1].to_string(),
                defender.to_string(),
            )
        })
        .collect();
    assert_eq!(games.len(), 12, "{text}");
    let names = ["alice", "bob", "carol", "dave"];
    for a in names {
        for d in names.iter().filter(|&&d| d != a) {
            let times = games.iter().filter(|g| g.1 == a && g.2 == *d).count();
            assert_eq!(times, 1, "{a} attacks {d} once: {games:?}");
        }
    }
    // The results: carol beats everyone, then alice, then dave; bob wins nothing. Seeds (by
    // joining, all unrated) were alice, bob, carol, dave: the standings follow the results.
    let order = ["carol", "alice", "dave", "bob"];
    let rank = |n: &str| order.iter().position(|o| *o == n).unwrap();
    let mut script = String::new();
    for (id, attacker, defender) in &games {
        let loser = if rank(attacker) > rank(defender) {
            attacker
        } else {
            defender
        };
        script.push_str(&format!("{loser} resign game:{id}\n"));
    }
    script.push_str("alice tournament standings\nalice tournament list\n");
    let out = local(&db, &images, script.as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("carol wins tournament #1"), "{text}");
    let standings = text
        .split("Tournament #1 Brandubh 7x7 round robin (finished: carol won):")
        .last()
        .unwrap();
    let lines: Vec<&str> = standings.lines().skip(1).take(4).collect();
    // Sonneborn-Berger by hand: carol's two wins each over alice (4 points), dave (2) and bob
    // (0) make 2x4 + 2x2 = 12; alice's over dave and bob 2x2 = 4; dave's over bob 0.
    assert_eq!(
        lines,
        [
            "1. carol 6 (SB 12.00, 6 won)",
            "2. alice 4 (SB 4.00, 4 won)",
            "3. dave 2 (SB 0.00, 2 won)",
            "4. bob 0 (SB 0.00, 0 won)",
        ],
        "{text}"
    );
    assert!(
        text.contains("#1 Brandubh 7x7 round robin: Brandubh 7x7, won by carol"),
        "{text}"
    );
    let crosstable = images.join("tournament-1.png");
    assert!(std::fs::metadata(&crosstable).unwrap().len() > 1000);
}

/// Puzzles imported by `taflbot import-puzzles`, then opened and solved in the local mode, the
/// board saved each time.
#[test]
fn puzzles_are_imported_and_solved_in_the_local_mode() {
    let dir = crate::support::scratch("local-puzzles");
    let db = dir.join("local.db");
    let _ = std::fs::remove_file(&db);
    let images = dir.join("pictures");
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/data/brandubh.csv");
    let db_url = crate::support::database(db.to_str().unwrap());
    let import = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_taflbot"))
            .args(["import-puzzles", "--db", &db_url])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let args = ["--variant", "brandubh", "--from", games, "--limit", "1"];
    assert_eq!(import(&args), "1 new puzzles stored\n");
    assert_eq!(import(&args), "0 new puzzles stored\n");
    // The first puzzle's solution, as the puzzle command prints it.
    let cut = Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args([
            "puzzles",
            "--variant",
            "brandubh",
            "--from",
            games,
            "--limit",
            "1",
        ])
        .output()
        .unwrap();
    let cut = String::from_utf8(cut.stdout).unwrap();
    let solution: Vec<&str> = cut.split(" | ").nth(1).unwrap().split(' ').collect();
    let mut script =
        String::from("alice solve e1-e5\nalice puzzle variant:brandubh\nalice solve z9\n");
    for (i, mv) in solution.iter().enumerate() {
        if i % 2 == 0 {
            script.push_str(&format!("alice solve {mv}\n"));
        }
    }
    script.push_str("alice profile\n");
    let out = local(&db, &images, script.as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("error: you have no puzzle open: /puzzle opens one"),
        "{text}"
    );
    assert!(text.contains("Puzzle #1. Brandubh 7x7"), "{text}");
    assert!(text.contains("error: "), "{text}");
    assert!(text.contains("puzzle #1 solved!"), "{text}");
    assert!(text.contains("Puzzles: "), "{text}");
    let board = images.join("puzzle-1.png");
    assert_eq!(&std::fs::read(board).unwrap()[1..4], b"PNG", "{text}");
}

#[test]
fn forecasts_notes_and_more_time_in_the_local_mode() {
    let dir = crate::support::scratch("local-fc");
    let script = "\
alice challenge @bob variant:tyr-11 side:attackers
bob accept
bob forecast line:d1-d3,f8-g8
alice move d1-d3
alice note text:corners
bob note
bob moretime days:2
";
    let out = local(
        &dir.join("local.db"),
        &dir.join("pictures"),
        script.as_bytes(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Kept. Your forecasts in game #1"), "{text}");
    // The move is told without calling bob, who answered at once.
    assert!(text.contains("alice played 1. d1-d3."), "{text}");
    assert!(!text.contains("bob, your move."), "{text}");
    assert!(
        text.contains("bob played 1... f8-g8, as forecast."),
        "{text}"
    );
    assert!(text.contains("Your note on game #1:\ncorners"), "{text}");
    assert!(text.contains("You keep no note on game #1."), "{text}");
    assert!(text.contains("bob gave alice 2 days more"), "{text}");
}

/// The local mode plays a vote game against taflbot: one "server", every player a member, the
/// starter its captain.
#[test]
fn a_team_game_against_taflbot_in_the_local_mode() {
    let dir = crate::support::scratch("local-team");
    let script = "\
alice teamgame start opponent:@taflbot variant:brandubh side:attackers level:1 hours:6
bob vote move:d2-e2
carol vote move:d1-c1
dave vote move:d1-c1
bob teamgame play
alice teamgame play
alice teamgame list
bob move c1-c2 game:1
";
    let out = local(
        &dir.join("local.db"),
        &dir.join("pictures"),
        script.as_bytes(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("alice started team game #1 (Brandubh 7x7, taflbot at level 1): The table the attackers against taflbot the defenders. Each turn is a window of 6 hours: vote with /vote."),
        "{text}"
    );
    assert!(text.contains("The table, your vote: /vote until"), "{text}");
    assert!(
        text.contains("You voted d2-e2 for turn 1. of game #1. Only you have voted so far"),
        "{text}"
    );
    assert!(
        text.contains("You and 2 others have voted so far"),
        "{text}"
    );
    assert!(
        text.contains(
            "error: only the server's managers, and the captain of game #1 for their own team, close its window early"
        ),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    let closed = lines
        .iter()
        .position(|l| *l == "The window of game #1 is closed.")
        .expect(&text);
    assert!(
        lines[closed + 1].starts_with("The table voted 1. d1-c1 (2 of 3 votes; d2-e2 1)."),
        "{text}"
    );
    // taflbot answers the team's turn.
    assert!(
        lines[closed..]
            .iter()
            .any(|l| l.starts_with("taflbot played ")),
        "{text}"
    );
    assert!(
        text.contains("#1 Brandubh 7x7 — The table v taflbot: The table to move"),
        "{text}"
    );
    // A team's game is not played with /move.
    assert!(
        text.contains("error: you are not playing in game #1"),
        "{text}"
    );
}
