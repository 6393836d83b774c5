//! A move the service acknowledged survives the process being killed right after. A child process
//! (the local mode) plays a long game and prints each acknowledgement; it is killed with SIGKILL
//! at random moments; the database is then reopened and checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use taflbot::rules::random::{play_random, Rng};
use taflbot::rules::{Game, Side, Variant};

/// A script for the local mode: a challenge, its acceptance, then a whole random Tablut game.
fn script(seed: u64) -> (String, usize) {
    let mut game = Game::new(Variant::by_id("tablut").unwrap());
    let mut rng = Rng::new(seed);
    play_random(&mut game, &mut rng, 200);
    let mut out =
        String::from("alice challenge @bob variant:tablut side:attackers days:14\nbob accept\n");
    let mut index = 0;
    for turn in game.turns() {
        let who = if turn.side == Side::Attackers {
            "alice"
        } else {
            "bob"
        };
        for p in &turn.moves {
            index += 1;
            out.push_str(&format!(
                "{who} move {}\n",
                taflbot::notation::write_move(p.mv, &p.captures)
            ));
        }
    }
    (out, index)
}

#[test]
fn acknowledged_moves_survive_a_kill() {
    let dir = std::env::temp_dir().join(format!("taflbot-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for round in 0..6u64 {
        let db = dir.join(format!("crash-{round}.db"));
        let (text, total) = script(round + 11);
        let mut rng = Rng::new(round * 7919);
        let stop_after = 3 + rng.below(total.saturating_sub(3).max(1));
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
                    // Killed the moment the acknowledgement is read: no chance to tidy up.
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
            let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM moves")
                .fetch_one(&pool)
                .await
                .unwrap();
            let cached: i64 = sqlx::query_scalar("SELECT move_count FROM games WHERE id = 1")
                .fetch_one(&pool)
                .await
                .unwrap();
            (integrity, stored, cached)
        });
        assert_eq!(check.0, "ok", "round {round}");
        assert!(
            check.1 >= acknowledged as i64,
            "round {round}: {} moves stored, {acknowledged} acknowledged",
            check.1
        );
        assert_eq!(
            check.1, check.2,
            "round {round}: the cached count follows the moves"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
