//! A move the service acknowledged survives the process being killed right after. A child process
//! (the local mode) plays a long game and prints each acknowledgement; it is killed with SIGKILL
//! at random moments; the database is then reopened and checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use taflbot::rules::random::{play_random, Rng};
use taflbot::rules::{Game, Side, Variant};

/// A script for the local mode: a challenge, its acceptance, then a whole random Tablut game; and
/// the game's moves in order.
fn script(seed: u64) -> (String, Vec<String>) {
    let mut game = Game::new(Variant::by_id("tablut").unwrap());
    let mut rng = Rng::new(seed);
    play_random(&mut game, &mut rng, 200);
    let mut out =
        String::from("alice challenge @bob variant:tablut side:attackers days:14\nbob accept\n");
    let mut moves = Vec::new();
    for turn in game.turns() {
        let who = if turn.side == Side::Attackers {
            "alice"
        } else {
            "bob"
        };
        for p in &turn.moves {
            let text = taflbot::notation::write_move(p.mv, &p.captures);
            out.push_str(&format!("{who} move {text}\n"));
            moves.push(text);
        }
    }
    (out, moves)
}

#[test]
fn acknowledged_moves_survive_a_kill() {
    let dir = crate::support::scratch("crash");
    for round in 0..6u64 {
        let db = dir.join(format!("crash-{round}.db"));
        let (text, script_moves) = script(round + 11);
        let mut rng = Rng::new(round * 7919);
        let stop_after = 3 + rng.below(script_moves.len().saturating_sub(3).max(1));
        // After the chosen acknowledgement, the kill comes at a random moment up to 3 ms later,
        // often in the middle of the next move's transaction.
        let delay = std::time::Duration::from_micros(rng.below(3000) as u64);
        let acknowledged = local_run(&db, text, Some((" played ", stop_after, delay)));
        let check = tokio::runtime::Runtime::new().unwrap().block_on(async {
            let pool = taflbot::store::open(db.to_str().unwrap()).await.unwrap();
            let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
                .fetch_one(&pool)
                .await
                .unwrap();
            let stored: Vec<String> =
                sqlx::query_scalar("SELECT text FROM moves WHERE game_id = 1 ORDER BY ply")
                    .fetch_all(&pool)
                    .await
                    .unwrap();
            let cached: i64 = sqlx::query_scalar("SELECT move_count FROM games WHERE id = 1")
                .fetch_one(&pool)
                .await
                .unwrap();
            (integrity, stored, cached)
        });
        assert_eq!(check.0, "ok", "round {round}");
        // Every acknowledged move is stored, in order, and the stored game is a prefix of the
        // script (a move in flight may or may not have landed).
        assert!(
            check.1.len() >= acknowledged,
            "round {round}: {} stored, {acknowledged} acknowledged",
            check.1.len()
        );
        assert_eq!(check.1[..], script_moves[..check.1.len()], "round {round}");
        assert_eq!(
            check.1.len() as i64,
            check.2,
            "round {round}: the cached count follows the moves"
        );
    }
}

/// Runs the local mode on `db` with `script`; with `kill_after`, kills it (SIGKILL) a moment
/// after the `n`th line of output containing `ack`. Says how many such lines it saw.
fn local_run(
    db: &std::path::Path,
    script: String,
    kill_after: Option<(&str, usize, std::time::Duration)>,
) -> usize {
    let mut child = Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args([
            "local",
            "--db",
            db.to_str().unwrap(),
            "--images",
            db.with_extension("img").to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(script.as_bytes());
    });
    let mut seen = 0;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let Ok(line) = line else { break };
        if let Some((ack, n, delay)) = kill_after {
            if line.contains(ack) {
                seen += 1;
                if seen >= n {
                    std::thread::sleep(delay);
                    child.kill().unwrap();
                    break;
                }
            }
        }
    }
    let _ = child.wait();
    let _ = writer.join();
    seen
}

/// What the database holds of tournament #1: its stage, its matches per round, its games by
/// status, and whether any pair of players met in two rounds.
async fn tournament_rows(db: &std::path::Path) -> (i64, Vec<(i64, i64)>, i64, i64, bool) {
    let pool = taflbot::store::open(db.to_str().unwrap()).await.unwrap();
    let stage: i64 = sqlx::query_scalar("SELECT stage FROM tournaments WHERE id = 1")
        .fetch_one(&pool)
        .await
        .unwrap();
    let rounds: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT round, COUNT(*) FROM tournament_matches WHERE tournament_id = 1
         GROUP BY round ORDER BY round",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let count = |status: &'static str| {
        let pool = pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT COUNT(*) FROM games WHERE tournament_id = 1 AND status = $1",
            )
            .bind(status)
            .fetch_one(&pool)
            .await
            .unwrap()
        }
    };
    let (finished, active) = (count("finished").await, count("active").await);
    let rematch: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM tournament_matches a JOIN tournament_matches b
           ON a.tournament_id = b.tournament_id AND a.round < b.round
          AND ((a.first = b.first AND a.second = b.second)
            OR (a.first = b.second AND a.second = b.first))
         WHERE a.tournament_id = 1",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    pool.close().await;
    (stage, rounds, finished, active, rematch > 0)
}

/// A Swiss of four, two rounds, played in the local mode and killed with SIGKILL at random
/// moments while the first round's games end (often inside the write that ends the last of them
/// and pairs the second round). After each kill the database holds the first round whole, the
/// second round paired once or not at all, and every acknowledged result; run again to the end,
/// the second round is paired exactly once, with no rematch.
#[test]
fn a_kill_mid_round_loses_nothing_and_pairs_the_next_round_once() {
    let dir = crate::support::scratch("crash-t");
    let players = ["alice", "bob", "carol", "dave"];
    // Every player tries to resign every first-round game: the first of its two players to try
    // loses it, and the others are told it is over.
    let mut resigns = String::new();
    for game in 1..=4 {
        for p in players {
            resigns.push_str(&format!("{p} resign game:{game}\n"));
        }
    }
    let setup = "\
alice tournament create variant:brandubh format:swiss rounds:2
bob tournament join
carol tournament join
dave tournament join
alice tournament start
";
    let runtime = tokio::runtime::Runtime::new().unwrap();
    for round in 0..8u64 {
        let db = dir.join(format!("tournament-{round}.db"));
        let mut rng = Rng::new(round * 104_729 + 3);
        let kill_after = 1 + rng.below(4);
        let delay = std::time::Duration::from_micros(rng.below(3000) as u64);
        let acknowledged = local_run(
            &db,
            format!("{setup}{resigns}"),
            Some((" resigned.", kill_after, delay)),
        );
        assert_eq!(acknowledged, kill_after, "round {round}");
        let (stage, rounds, finished, active, rematch) = runtime.block_on(tournament_rows(&db));
        assert!(
            finished >= acknowledged as i64,
            "round {round}: {finished} finished"
        );
        match stage {
            // The first round going on: nothing of the second.
            1 => {
                assert_eq!(rounds, [(1, 2)], "round {round}");
                assert_eq!(finished + active, 4, "round {round}");
                assert!(active > 0, "round {round}");
            }
            // The first round over and the second paired once, in one write.
            2 => {
                assert_eq!(rounds, [(1, 2), (2, 2)], "round {round}");
                assert_eq!((finished, active), (4, 4), "round {round}");
            }
            other => panic!("round {round}: stage {other}"),
        }
        assert!(!rematch, "round {round}");
        // Run again to the end of the first round.
        local_run(&db, resigns.clone(), None);
        let (stage, rounds, finished, active, rematch) = runtime.block_on(tournament_rows(&db));
        assert_eq!(stage, 2, "round {round}");
        assert_eq!(rounds, [(1, 2), (2, 2)], "round {round}");
        assert_eq!((finished, active), (4, 4), "round {round}");
        assert!(!rematch, "round {round}");
    }
}
