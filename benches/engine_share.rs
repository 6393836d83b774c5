//! The engine's fair share under a flood of hints, as a bench binary (`cargo bench --bench
//! engine_share`), through the real serenity client and the fake Discord of the end-to-end tests.
//!
//! One player (bob) plays taflbot at Copenhagen, level 4. His move is sent by `/move` and timed
//! until taflbot's answering move is posted in his thread: first with nothing else going on, then
//! right after 120 `/hint`s are sent at once by one other player (alice, in her own game against
//! the bot), then right after 120 sent by twenty players, six each. Before each round the hinting
//! players move, so that every hint is for a new position (a hint asked before is remembered and
//! costs nothing). Reports bob's reply times and how the hints were answered.

mod common;
#[path = "../tests/fake_discord/mod.rs"]
mod fake_discord;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_discord::{s, Call, Fake, Member, Opt};
use taflbot::service::{Person, Service, SideChoice, SystemClock, Terms};

const ROUNDS: usize = 5;
const FLOOD: usize = 120;
const BOT_LEVEL: u8 = 4;

fn person(m: Member) -> Person {
    Person::new(m.id.to_string(), m.name)
}

/// A game of `who` (attacking) against taflbot, in a thread of its own.
async fn versus_bot(service: &Service, who: Member, thread: u64) -> i64 {
    let terms = Terms {
        side: SideChoice::Attackers,
        ..Terms::new("copenhagen".parse().unwrap())
    };
    let bot = Person::new(fake_discord::APP.to_string(), "taflbot");
    let view = service
        .play_bot(&person(who), &bot, &terms, Some(BOT_LEVEL), None)
        .await
        .unwrap();
    service
        .set_thread(view.id, Some(&thread.to_string()))
        .await
        .unwrap();
    view.id
}

/// A move of `who` in their game against taflbot, timed until taflbot's answer is posted in its
/// thread.
async fn move_and_wait(
    fake: &Fake,
    service: &Service,
    who: Member,
    game: i64,
    thread: u64,
) -> Duration {
    let (_, moves) = service
        .legal_moves(&person(who), Some(game), None)
        .await
        .unwrap();
    let mv = moves[moves.len() / 2].clone();
    // Post ids grow: the answer is taflbot's first move posted after the latest one now.
    let last = fake
        .posts_in(thread)
        .iter()
        .filter(|p| p.content.starts_with("taflbot played "))
        .map(|p| p.id)
        .max()
        .unwrap_or(0);
    let sent = Instant::now();
    let answer = fake
        .ask(fake.slash(
            who,
            thread,
            "move",
            &[("move", s(&mv)), ("game", Opt::Int(game))],
        ))
        .await;
    assert!(answer.content().contains("played"), "{}", answer.content());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let answered = fake
            .posts_in(thread)
            .iter()
            .any(|p| p.content.starts_with("taflbot played ") && p.id > last);
        if answered {
            break;
        }
        if Instant::now() > deadline {
            panic!("no answer from taflbot in a minute: {:#?}", fake.posts());
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    sent.elapsed()
}

/// How the hints were answered: worked out, or refused (by reason), and when the last came.
#[derive(Default, Debug)]
struct Answers {
    hints: usize,
    underway: usize,
    pause: usize,
    busy: usize,
    other: usize,
    last: Duration,
}

async fn collect(sent: Instant, waiting: Vec<tokio::sync::oneshot::Receiver<Call>>) -> Answers {
    let mut a = Answers::default();
    for rx in waiting {
        let call = tokio::time::timeout(Duration::from_secs(900), rx)
            .await
            .expect("every hint is answered within an interaction's life")
            .unwrap();
        a.last = a.last.max(sent.elapsed());
        let text = call.content();
        if text.contains("taflbot would play") {
            a.hints += 1;
        } else if text.contains("still being worked out") {
            a.underway += 1;
        } else if text.contains("one hint every") {
            a.pause += 1;
        } else if text.contains("busy") {
            a.busy += 1;
        } else {
            a.other += 1;
            eprintln!("unexpected answer to a hint: {text}");
        }
    }
    a
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "engine share, {what}: bob's reply median {:.0} ms, max {:.0} ms over {} moves",
        ms(times[times.len() / 2]),
        ms(*times.last().unwrap()),
        times.len()
    );
}

async fn run(dir: &std::path::Path) {
    let fake = Fake::start().await;
    fake.keep_files(false);
    let pool = taflbot::store::open(dir.join("share.db").to_str().unwrap())
        .await
        .unwrap();
    let service = Service::new(pool, Arc::new(SystemClock));
    let bob = Member::numbered(0);
    let bob_thread = 600_000_000_000_000_000;
    let bob_game = versus_bot(&service, bob, bob_thread).await;
    // Twenty hinting players, each in a game of their own; the first is alice.
    let mut hinters = Vec::new();
    for i in 1..=20 {
        let thread = 600_000_000_000_000_000 + i as u64;
        let game = versus_bot(&service, Member::numbered(i), thread).await;
        hinters.push((Member::numbered(i), game, thread));
    }

    let bot = fake.connect(fake.config(), service.clone()).await;

    let mut quiet = Vec::new();
    for _ in 0..ROUNDS {
        quiet.push(move_and_wait(&fake, &service, bob, bob_game, bob_thread).await);
    }
    report("nothing else going on", quiet);

    for (title, askers) in [
        (format!("{FLOOD} hints from one player"), 1),
        (format!("{FLOOD} hints from twenty players, six each"), 20),
    ] {
        let mut times = Vec::new();
        let mut all = Answers::default();
        for _ in 0..ROUNDS {
            // A new position for each hinting player, so that no hint is remembered.
            for &(who, game, thread) in &hinters[..askers] {
                move_and_wait(&fake, &service, who, game, thread).await;
            }
            let sent = Instant::now();
            let waiting: Vec<_> = (0..FLOOD)
                .map(|i| {
                    let (who, game, thread) = hinters[i % askers];
                    fake.interact(fake.slash(who, thread, "hint", &[("game", Opt::Int(game))]))
                })
                .collect();
            times.push(move_and_wait(&fake, &service, bob, bob_game, bob_thread).await);
            let a = collect(sent, waiting).await;
            all.hints += a.hints;
            all.underway += a.underway;
            all.pause += a.pause;
            all.busy += a.busy;
            all.other += a.other;
            all.last = all.last.max(a.last);
            // Past the pause, so that each round starts alike.
            tokio::time::sleep(Duration::from_secs(taflbot::service::HINT_PAUSE as u64 + 1)).await;
        }
        report(&title, times);
        println!(
            "  hints over {ROUNDS} rounds: {} worked out, {} refused as one underway, {} in their pause, {} busy, {} other; the last answered after {:.0} ms",
            all.hints, all.underway, all.pause, all.busy, all.other, ms(all.last)
        );
    }
    bot.shutdown().await;
}

fn main() {
    common::bench_binary("share", |dir| async move { run(&dir).await });
}
