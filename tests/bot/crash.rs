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
    let dir = std::env::temp_dir().join(format!("taflbot-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for round in 0..6u64 {
        let db = dir.join(format!("crash-{round}.db"));
        let (text, script_moves) = script(round + 11);
        let mut rng = Rng::new(round * 7919);
        let stop_after = 3 + rng.below(script_moves.len().saturating_sub(3).max(1));
        // After the chosen acknowledgement, the kill comes at a random moment up to 3 ms later,
        // often in the middle of the next move's transaction.
        let delay = std::time::Duration::from_micros(rng.below(3000) as u64);
        let mut child = Command::new(env!("CARGO_BIN_EXE_taflbot"))
            .args([
                "local",
                "--db",
                db.to_str().unwrap(),
                "--images",
                dir.join("img").to_str().unwrap(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
        let mut acknowledged = 0;
        let reader = BufReader::new(child.stdout.take().unwrap());
        for line in reader.lines() {
            let Ok(line) = line else { break };
            if line.contains(" played ") {
                acknowledged += 1;
                if acknowledged >= stop_after {
                    std::thread::sleep(delay);
                    child.kill().unwrap();
                    break;
                }
            }
        }
        let _ = child.wait();
        let _ = writer.join();
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
    std::fs::remove_dir_all(&dir).unwrap();
}
