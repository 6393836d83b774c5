//! The bot stopped and started: a new client on the same database goes on with the game; the
//! program itself finishes the move in flight on SIGTERM, never shows its token, and says in one
//! sentence that a token was refused.

use std::sync::Arc;
use std::time::Duration;

use taflbot::service::{Service, TestClock};

use crate::fake_discord::{s, Failure, Fake, Mode, Opt, GUILD};
use crate::support::{
    answer_within_20s, is_png, open, person, scratch, told_played, Harness, ALICE, BOB, CHANNEL,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_goes_on_after_the_bot_restarts() {
    let mut h = Harness::start("restart").await;
    let (game, thread) = h.game("sea-battle-9").await;
    let (who, mv) = h.a_move(game).await;
    h.play(who, thread, &mv).await;
    h.restart().await;
    assert_eq!(h.fake.identifies(), 2, "a new client connected");
    let (who, mv) = h.a_move(game).await;
    let answer = h.play(who, thread, &mv).await;
    assert!(told_played(&answer.content(), &mv), "{}", answer.content());
    assert_eq!(h.moves_stored(game).await, 2);
    let board = h.slash(ALICE, thread, "board", &[]).await;
    assert!(is_png(board.png()));
    assert!(
        board.content().starts_with(&format!("Game #{game}")),
        "{}",
        board.content()
    );
    h.shutdown().await;
}

// ----- the program itself -----

/// Runs `taflbot run` against the fake with the given token.
fn bot_process(fake: &Fake, db: &std::path::Path, token: &str) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .arg("run")
        .env("DISCORD_TOKEN", token)
        .env("DISCORD_API_BASE", &fake.http_url)
        .env("DISCORD_GUILD_ID", GUILD.to_string())
        .env("DATABASE_URL", db)
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for a child to end (at most 30 s) and returns its status and its output.
async fn ended(child: std::process::Child) -> (std::process::ExitStatus, String) {
    let out = tokio::time::timeout(
        Duration::from_secs(30),
        tokio::task::spawn_blocking(move || child.wait_with_output().unwrap()),
    )
    .await
    .expect("the bot stopped")
    .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status, text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_the_move_in_flight_finish_and_the_token_is_never_shown() {
    let dir = scratch("sigterm");
    let db = dir.join("bot.db");
    let fake = Fake::start().await;
    let thread = 650_000_000_000_000_001_u64;
    let game = {
        let pool = taflbot::store::open(db.to_str().unwrap()).await.unwrap();
        let service = Service::new(pool, Arc::new(taflbot::service::SystemClock));
        let c = service
            .challenge(
                &person(ALICE),
                &person(BOB),
                "tablut",
                taflbot::service::SideChoice::Attackers,
                Some(14),
                Some(&CHANNEL.to_string()),
            )
            .await
            .unwrap();
        let view = service
            .accept(&person(BOB), Some(c.id), None)
            .await
            .unwrap();
        service
            .set_thread(view.id, Some(&thread.to_string()))
            .await
            .unwrap();
        service.pool().close().await;
        view.id
    };
    let token = "NzkyNzE1NDU0MTk2MDg4ODQy.X-hvzA.Ovy4MCQywSkoMRRclStW4xAYK7I";
    let child = bot_process(&fake, &db, token);
    fake.registered().await;
    while fake.identifies() == 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The answer hangs once, so the move is still in flight when SIGTERM comes.
    fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 0,
        times: 1,
        mode: Mode::Hang,
    });
    let start = taflbot::rules::Position::start(taflbot::rules::Variant::by_id("tablut").unwrap());
    let mv = taflbot::notation::canonical(&start, start.legal_moves()[0]);
    let rx = fake.interact(fake.slash(
        ALICE,
        thread,
        "move",
        &[("move", s(&mv)), ("game", Opt::Int(game))],
    ));
    fake.wait_call("the hanging answer", |c| {
        c.path.ends_with("/callback") && c.status == 0
    })
    .await;
    let pid = child.id().to_string();
    assert!(std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let answer = answer_within_20s(rx).await;
    assert!(
        answer.content().contains("alice played"),
        "{}",
        answer.content()
    );
    let (status, output) = ended(child).await;
    assert!(status.success(), "{status}: {output}");
    assert!(output.contains("stopping"), "{output}");
    assert!(
        !output.contains(token) && !output.contains("Ovy4MCQ"),
        "the token leaked: {output}"
    );
    let service = open(&db, &Arc::new(TestClock::new(1_790_000_000))).await;
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
        .fetch_one(service.pool())
        .await
        .unwrap();
    assert_eq!(stored, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_is_one_sentence() {
    let dir = scratch("token");
    let fake = Fake::start().await;
    fake.fail(Failure {
        method: "GET",
        path_contains: "/users/@me".into(),
        status: 401,
        times: 1,
        mode: Mode::Refuse,
    });
    let child = bot_process(&fake, &dir.join("bot.db"), "not.a.token");
    let (status, output) = ended(child).await;
    assert!(!status.success());
    assert_eq!(
        output.trim(),
        "taflbot: Discord refused DISCORD_TOKEN: check the bot token in the Developer Portal"
    );
}
