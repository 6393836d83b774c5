//! The game service in general, on an in-memory database and on files, under a test clock: the
//! refusals' wording, which game a command means, a broken game set aside, notices delivered,
//! retried and given up, dates, and opening a database. A feature's own service tests are in its
//! file (`challenges.rs`, `moves.rs`, `endings.rs`, `deadlines.rs`, ...).

use std::sync::Arc;

use taflbot::service::text;
use taflbot::service::{NoticeKind, Service, ServiceError, SideChoice, TestClock, DAY};
use taflbot::store;

use crate::support::{alice, bob, carol, started, T0};

async fn service(url: &str) -> (Service, Arc<TestClock>) {
    crate::support::service_at(url, T0).await
}

#[tokio::test]
async fn refusals_say_what_was_wrong() {
    let (svc, _) = service(":memory:").await;
    let self_challenge = svc
        .challenge(&alice(), &alice(), "tyr-11", SideChoice::Random, None, None)
        .await;
    assert_eq!(
        self_challenge.unwrap_err().to_string(),
        "you cannot challenge yourself"
    );
    let days = svc
        .challenge(
            &alice(),
            &bob(),
            "tyr-11",
            SideChoice::Random,
            Some(4),
            None,
        )
        .await;
    assert_eq!(
        days.unwrap_err().to_string(),
        "4 days per move is not offered: choose 1, 2, 3, 5, 7, 10 or 14"
    );
    let variant = svc
        .challenge(&alice(), &bob(), "chess", SideChoice::Random, None, None)
        .await;
    assert!(matches!(variant, Err(ServiceError::UnknownVariant(_))));

    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "tyr-11",
            SideChoice::Defenders,
            None,
            None,
        )
        .await
        .unwrap();
    let own = svc.accept(&alice(), Some(c.id), None).await.unwrap_err();
    assert_eq!(
        own.to_string(),
        "this is your own challenge: only the challenged player answers it (/cancel withdraws it)"
    );
    let stranger = svc.accept(&carol(), Some(c.id), None).await.unwrap_err();
    assert_eq!(stranger.to_string(), "this is not your challenge");
    let id = svc.accept(&bob(), Some(c.id), None).await.unwrap().id;
    let again = svc.accept(&bob(), Some(c.id), None).await.unwrap_err();
    assert_eq!(
        again.to_string(),
        format!("challenge #{} is no longer open (accepted)", c.id)
    );

    // bob attacks: alice asked for the defenders.
    let stranger = svc
        .play(&carol(), Some(id), None, "d1-d3")
        .await
        .unwrap_err();
    assert_eq!(
        stranger.to_string(),
        format!("you are not playing in game #{id}")
    );
    let early = svc
        .play(&alice(), Some(id), None, "e5-e2")
        .await
        .unwrap_err();
    assert_eq!(
        early.to_string(),
        format!("it is not your turn in game #{id}: it is bob's move")
    );
    let illegal = svc.play(&bob(), Some(id), None, "d1-d9").await.unwrap_err();
    assert_eq!(illegal.to_string(), "the path is blocked at d4");
    let (view, _) = svc.board(&bob(), Some(id), None, false).await.unwrap();
    assert_eq!(view.turns, 0, "a refused move changes nothing");
    crate::support::a_turn_each(&svc, id).await;
    svc.resign(&alice(), Some(id), None).await.unwrap();
    let over = svc.play(&bob(), Some(id), None, "d1-d3").await.unwrap_err();
    assert_eq!(
        over.to_string(),
        format!("game #{id} is over: bob (attackers) won: resignation")
    );
    let over = svc.resign(&bob(), Some(id), None).await.unwrap_err();
    assert_eq!(
        over.to_string(),
        format!("game #{id} is over: bob (attackers) won: resignation")
    );
}

#[tokio::test]
async fn a_broken_game_is_set_aside_and_the_others_go_on() {
    let (svc, _) = service(":memory:").await;
    let broken = started(&svc).await;
    let fine = started(&svc).await;
    svc.play(&alice(), Some(broken), None, "d1-d3")
        .await
        .unwrap();
    svc.play(&alice(), Some(fine), None, "d1-d3").await.unwrap();
    sqlx::query("UPDATE moves SET text = 'k1-k9' WHERE game_id = $1")
        .bind(broken)
        .execute(svc.pool())
        .await
        .unwrap();
    // A new process (the corruption came from outside: a rules change, a damaged file).
    let svc = Service::new(svc.pool().clone(), Arc::new(TestClock::new(T0)));
    let err = svc
        .board(&bob(), Some(broken), None, false)
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("game #{broken} could not be loaded")),
        "{err}"
    );
    let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
        .bind(broken)
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(status, "broken");
    svc.play(&bob(), Some(fine), None, "e5-e2").await.unwrap();
    assert_eq!(
        svc.games(&bob()).await.unwrap().len(),
        1,
        "the broken game is out of the lists"
    );
}

#[test]
fn times_read_as_utc_dates() {
    assert_eq!(text::utc(0), "1970-01-01 00:00 UTC");
    assert_eq!(text::utc(1_800_000_000), "2027-01-15 08:00 UTC");
    assert_eq!(text::utc(951_782_400), "2000-02-29 00:00 UTC");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweeper_task_delivers_notices_until_stopped() {
    let (svc, clock) = service(":memory:").await;
    started(&svc).await;
    clock.advance(2 * DAY + 1);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let (sent, mut received) = tokio::sync::mpsc::unbounded_channel();
    let task = svc.spawn_sweeper(
        std::time::Duration::from_millis(10),
        stopped,
        move |notice| {
            let sent = sent.clone();
            async move { sent.send(notice).is_ok() }
        },
    );
    let notice = tokio::time::timeout(std::time::Duration::from_secs(5), received.recv())
        .await
        .expect("a notice within 5 s")
        .unwrap();
    assert_eq!(notice.kind, NoticeKind::Reminder);
    stop.send(true).unwrap();
    task.await.unwrap();
    assert!(
        svc.pending_notices().await.unwrap().is_empty(),
        "delivered notices are marked"
    );
}

#[tokio::test]
async fn without_a_game_number_the_game_is_found_or_the_choice_asked_for() {
    let (svc, _) = service(":memory:").await;
    let first = started(&svc).await;
    let out_of_turn = svc.play(&bob(), None, None, "e5-e2").await.unwrap_err();
    assert_eq!(
        out_of_turn.to_string(),
        format!("it is not your turn in game #{first}: it is alice's move")
    );
    let second = started(&svc).await;
    let several = svc.resign(&alice(), None, None).await.unwrap_err();
    assert_eq!(
        several.to_string(),
        format!("several of your games match (#{first}, #{second}): say which with game:")
    );
    // Where none of the player's games is played, all of them are meant.
    let elsewhere = svc
        .resign(&alice(), None, Some("another channel"))
        .await
        .unwrap_err();
    assert_eq!(elsewhere.to_string(), several.to_string());
    // A game's own thread names it.
    svc.set_thread(second, Some("thread-2")).await.unwrap();
    let view = svc
        .resign(&alice(), None, Some("thread-2"))
        .await
        .unwrap()
        .view;
    assert_eq!(view.id, second);
    let (only, moves) = svc.legal_moves(&alice(), None, None).await.unwrap();
    assert_eq!(only, first);
    let tyr = taflbot::rules::Variant::by_id("tyr-11").unwrap();
    assert_eq!(
        moves.len(),
        taflbot::rules::Position::start(tyr).legal_moves().len()
    );
    assert!(moves.iter().any(|m| m == "d1-d3"));
    let not_yours = svc
        .legal_moves(&bob(), Some(first), None)
        .await
        .unwrap_err();
    assert_eq!(
        not_yours.to_string(),
        format!("it is not your turn in game #{first}: it is alice's move")
    );
}

#[tokio::test]
async fn a_failing_notice_is_retried_less_and_less_often_then_given_up_and_pruned() {
    use taflbot::service::{Delivery, KEPT_FOR, MAX_DELIVERY_ATTEMPTS};
    let (svc, clock) = service(":memory:").await;
    let id = started(&svc).await;
    let notice = svc
        .leave_notice(id, &taflbot::service::News::Update)
        .await
        .unwrap();
    let mut waits = Vec::new();
    for _ in 0..MAX_DELIVERY_ATTEMPTS {
        let due = svc.pending_notices().await.unwrap();
        assert_eq!(due.len(), 1, "due again after its wait");
        svc.tried(notice.id, Delivery::Retry).await.unwrap();
        assert!(
            svc.pending_notices().await.unwrap().is_empty(),
            "not due at once"
        );
        let next: i64 = sqlx::query_scalar("SELECT next_try_at FROM notices WHERE id = $1")
            .bind(notice.id)
            .fetch_one(svc.pool())
            .await
            .unwrap();
        waits.push(next - svc.now());
        clock.set(next);
    }
    assert_eq!(&waits[..4], [60, 120, 240, 480]);
    assert_eq!(*waits.last().unwrap(), 6 * 3600, "{waits:?}");
    assert!(
        svc.pending_notices().await.unwrap().is_empty(),
        "given up after {MAX_DELIVERY_ATTEMPTS} tries"
    );
    // Kept a while for the record, then forgotten with old challenges.
    clock.advance(KEPT_FOR + taflbot::service::CHALLENGE_LIFETIME);
    svc.sweep().await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notices WHERE id = $1")
        .bind(notice.id)
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(left, 0);
    let challenges: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM challenges")
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(challenges, 0, "the answered challenge is forgotten");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_openers_of_a_new_database_all_start_and_sqlite_urls_keep_their_options() {
    let dir = crate::support::scratch("open");
    for round in 0..10 {
        let url = dir
            .join(format!("new-{round}.db"))
            .to_str()
            .unwrap()
            .to_string();
        let openers = (0..6).map(|_| store::open(&url));
        for opened in futures_util::future::join_all(openers).await {
            match opened {
                Ok(pool) => pool.close().await,
                Err(e) => panic!("round {round}: {e}"),
            }
        }
    }
    // A `sqlite:` URL's query is options, not part of the file's name.
    let url = format!("sqlite://{}/with-mode.db?mode=rwc", dir.to_str().unwrap());
    store::open(&url).await.unwrap().close().await;
    assert!(dir.join("with-mode.db").exists());
    assert!(std::fs::read_dir(&dir).unwrap().all(|f| !f
        .unwrap()
        .file_name()
        .to_string_lossy()
        .contains('?')));
    // A path is a path, whatever its characters (`sqlx` reads a URL's `?` and `%`).
    let odd = dir.join("a game? #1 100% ünïcode.db");
    store::open(odd.to_str().unwrap())
        .await
        .unwrap()
        .close()
        .await;
    assert!(odd.exists(), "{}", odd.display());
}

#[test]
fn a_postgres_url_is_shown_without_its_password() {
    let shown = store::shown("postgres://bot:s3cret@db.example:5432/taflbot");
    assert!(!shown.contains("s3cret"), "{shown}");
    assert!(shown.contains("bot@db.example:5432/taflbot"), "{shown}");
    assert_eq!(store::shown("taflbot.db"), "taflbot.db");
    assert!(!store::shown("postgres://bot:s3cret@[bad").contains("s3cret"));
}

/// The password never shows, whatever the URL's form: given as a query parameter (libpq's
/// `?password=`, which sqlx accepts), or under a scheme written in capitals (which was taken for a
/// SQLite path and shown whole).
#[test]
fn a_postgres_url_never_shows_its_password_in_any_form() {
    let forms = [
        "postgres://bot@db.example:5432/taflbot?password=s3cret",
        "postgres://bot@db.example:5432/taflbot?sslmode=disable&password=s3cret",
        "postgres://bot@db.example:5432/taflbot?PASSWORD=s3cret&passfile=/s3cret/pgpass",
        "postgresql://bot@db.example/taflbot?password=s3cret&application_name=taflbot",
        "Postgres://bot:s3cret@db.example:5432/taflbot",
        "POSTGRESQL://bot:s3cret@db.example:5432/taflbot?password=s3cret",
        "pOsTgReS://bot:s3cret@[bad",
    ];
    for url in forms {
        let shown = store::shown(url);
        assert!(!shown.contains("s3cret"), "{url} was shown as {shown}");
        assert_eq!(store::Engine::of(url), store::Engine::Postgres, "{url}");
    }
    // What is not secret is still shown, so the message says which database was meant.
    let shown = store::shown(forms[1]);
    assert_eq!(
        shown,
        "postgres://bot@db.example:5432/taflbot?sslmode=disable"
    );
    assert_eq!(
        store::shown(forms[3]),
        "postgresql://bot@db.example/taflbot?application_name=taflbot"
    );
    assert_eq!(
        store::shown(forms[4]),
        "postgres://bot@db.example:5432/taflbot"
    );
    // A SQLite path that merely mentions a password is a path, shown as given.
    assert_eq!(store::Engine::of("password.db"), store::Engine::Sqlite);
    assert_eq!(store::shown("password.db"), "password.db");
}
