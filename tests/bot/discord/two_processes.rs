//! Two `taflbot run` processes, each running half of the shards, against one fake Discord and one
//! PostgreSQL: games go on in servers on both shards, and when one process is killed (SIGKILL)
//! while it holds due notices and taflbot's turn, the other delivers the notices and plays the
//! turn once its claims run out, and nothing is lost or posted twice.

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use taflbot::discord::Shards;
use taflbot::service::{Person, Scope, Service, SideChoice, SystemClock, Terms};

use crate::fake_discord::{in_guild, s, Failure, Fake, Member, Mode, Opt, APP, GUILD};
use crate::support::{
    a_move_in, game_in, moves_stored, person, scratch, told_played, until, ALICE, BOB, CHANNEL,
};
use crate::throwaway_pg;

/// The claims' lease in both processes: short, so that the test sees a takeover in seconds.
const LEASE_SECONDS: &str = "2";

/// A `taflbot run` process, killed when dropped (a failed test leaves none behind).
struct Bot {
    child: Child,
    log: std::path::PathBuf,
}

impl Bot {
    fn start(fake: &Fake, database: &str, shards: &str, dir: &std::path::Path) -> Bot {
        let log = dir.join(format!("bot-{}.log", shards.replace('/', "of")));
        let child = Command::new(env!("CARGO_BIN_EXE_taflbot"))
            .arg("run")
            .current_dir(dir)
            .env("DISCORD_TOKEN", "fake.bot.token")
            .env("DISCORD_API_BASE", &fake.http_url)
            .env("DISCORD_GUILD_ID", GUILD.to_string())
            .env("DATABASE_URL", database)
            .env("TAFLBOT_SHARDS", shards)
            .env("TAFLBOT_LEASE_SECONDS", LEASE_SECONDS)
            .env("RUST_LOG", "warn,taflbot=info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Bot { child, log }
    }

    fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill {signal}");
    }

    /// Pauses the process (SIGSTOP) at a moment when it neither holds nor waits for the
    /// database's write lock: paused inside a write it would hold the lock, and every other
    /// process's writes would wait, until it ran again. Nobody else may hold the lock meanwhile
    /// for long; `pool` is the test's own.
    async fn pause_between_writes(&self, pool: &sqlx::AnyPool) {
        for _ in 0..100 {
            self.signal("-STOP");
            // A statement already on its way to the server is answered meanwhile.
            tokio::time::sleep(Duration::from_millis(100)).await;
            let locks: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'")
                    .fetch_one(pool)
                    .await
                    .unwrap();
            if locks == 0 {
                return;
            }
            self.signal("-CONT");
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        panic!("the process was inside a write each time it was paused");
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server whose events Discord sends to `shard` of 2.
fn server_on(shard: u32) -> u64 {
    (0..4u64)
        .map(|i| GUILD + (i << 22))
        .find(|g| Shards::of_guild(*g, 2) == shard)
        .unwrap()
}

/// Sends `who`'s slash command from `guild` and waits for the answer.
async fn ask(
    fake: &Fake,
    guild: u64,
    who: Member,
    channel: u64,
    name: &str,
    options: &[(&str, Opt)],
) -> crate::fake_discord::Call {
    fake.ask(in_guild(fake.slash(who, channel, name, options), guild))
        .await
}

/// alice challenges bob in `guild`, bob accepts, and each plays a turn by `/move` in the game's
/// thread: the game and its thread.
async fn a_game_in(fake: &Fake, svc: &Service, guild: u64, channel: u64) -> (i64, u64) {
    let (game, thread) = game_in(fake, svc, guild, channel, "brandubh").await;
    for _ in 0..2 {
        let (who, mv) = a_move_in(svc, game).await;
        let answer = ask(fake, guild, who, thread, "move", &[("move", s(&mv))]).await;
        assert!(told_played(&answer.content(), &mv), "{}", answer.content());
    }
    (game, thread)
}

/// The notices of `game` not yet delivered, with whether a process holds each.
async fn pending(svc: &Service, game: i64) -> Vec<(i64, bool)> {
    sqlx::query_as::<_, (i64, Option<i64>)>(
        "SELECT id, claimed_until FROM notices WHERE game_id = $1 AND delivered_at IS NULL
         ORDER BY id",
    )
    .bind(game)
    .fetch_all(svc.pool())
    .await
    .unwrap()
    .into_iter()
    .map(|(id, claimed)| (id, claimed.is_some()))
    .collect()
}

/// How often the notice `id` was posted (the fake keeps one post per enforced nonce), and how many
/// of the calls that posted it were answered.
fn posted(fake: &Fake, id: i64) -> (usize, usize) {
    let nonce = format!("n{id}");
    let posts = fake
        .posts()
        .iter()
        .filter(|p| p.nonce.as_deref() == Some(nonce.as_str()))
        .count();
    let answered = fake
        .calls()
        .iter()
        .filter(|c| c.method == "POST" && c.json["nonce"] == nonce.as_str() && c.status == 200)
        .count();
    (posts, answered)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_the_shards_and_one_takes_over_what_a_killed_one_held() {
    let Some(pg) = throwaway_pg::cluster() else {
        return;
    };
    let database = pg.database();
    let dir = scratch("two-processes");
    let fake = Fake::start().await;
    let (lower, upper) = (server_on(0), server_on(1));
    let (lower_channel, upper_channel) = (CHANNEL, CHANNEL + 1);
    let first = Bot::start(&fake, &database, "0/2", &dir);
    let second = Bot::start(&fake, &database, "1/2", &dir);
    fake.registered().await;
    until("both shards identified", || async {
        let mut seen = fake.identified();
        seen.sort();
        seen == [[0, 2], [1, 2]]
    })
    .await;
    let pool = taflbot::store::open(&database).await.unwrap();
    let svc = Service::new(pool, Arc::new(SystemClock));

    // Games in a server on each shard, each answered by the process that runs it.
    let (lower_game, lower_thread) = a_game_in(&fake, &svc, lower, lower_channel).await;
    let (upper_game, upper_thread) = a_game_in(&fake, &svc, upper, upper_channel).await;
    assert_eq!(moves_stored(&svc, lower_game).await, 2);
    assert_eq!(moves_stored(&svc, upper_game).await, 2);
    let guilds: Vec<Option<String>> =
        sqlx::query_scalar("SELECT guild FROM games WHERE id IN ($1, $2) ORDER BY id")
            .bind(lower_game)
            .bind(upper_game)
            .fetch_all(svc.pool())
            .await
            .unwrap();
    assert_eq!(
        guilds,
        [Some(lower.to_string()), Some(upper.to_string())],
        "each game belongs to its server"
    );

    // The second process pauses; the first alone finds both games out of time. Its posts of the
    // results arrive at Discord, but it never hears back: it holds both notices when it dies.
    second.pause_between_writes(svc.pool()).await;
    for thread in [lower_thread, upper_thread] {
        fake.fail(Failure {
            method: "POST",
            path_contains: format!("/channels/{thread}/messages"),
            status: 0,
            times: 1000,
            mode: Mode::HangAfterWork,
        });
    }
    sqlx::query("UPDATE games SET deadline = $1 WHERE id IN ($2, $3)")
        .bind(chrono::Utc::now().timestamp() - 10)
        .bind(lower_game)
        .bind(upper_game)
        .execute(svc.pool())
        .await
        .unwrap();
    fake.wait_call("a result posted, never answered", |c| {
        c.status == 0 && c.path.contains("/messages")
    })
    .await;
    let mut held = Vec::new();
    for game in [lower_game, upper_game] {
        until("the first process holds the game's notice", || async {
            let p = pending(&svc, game).await;
            !p.is_empty() && p.iter().all(|(_, claimed)| *claimed)
        })
        .await;
        held.extend(pending(&svc, game).await.into_iter().map(|(id, _)| id));
    }

    // taflbot's turn in a new game: the first process claims and searches it, but cannot store it
    // while the test holds the database's write lock.
    first.pause_between_writes(svc.pool()).await;
    let taflbot_person = Person::new(APP.to_string(), "taflbot");
    let bot_game = svc
        .scoped(Scope::Server(lower.to_string()))
        .play_bot(
            &person(ALICE),
            &taflbot_person,
            &Terms {
                variant: taflbot::rules::Variant::by_id("brandubh").unwrap(),
                side: SideChoice::Defenders,
                days: None,
                rated: false,
                from: None,
            },
            Some(1),
            Some(&lower_channel.to_string()),
        )
        .await
        .unwrap()
        .id;
    let lock = taflbot::store::begin_write(svc.pool()).await.unwrap();
    first.signal("-CONT");
    until("the first process claims taflbot's turn", || async {
        let claimed: Option<i64> =
            sqlx::query_scalar("SELECT bot_claimed_until FROM games WHERE id = $1")
                .bind(bot_game)
                .fetch_one(svc.pool())
                .await
                .unwrap();
        claimed.is_some()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    first.signal("-KILL");
    lock.rollback().await.unwrap();
    assert_eq!(moves_stored(&svc, bot_game).await, 0, "nothing stored yet");

    // The second process goes on, and takes over once the claims run out.
    fake.heal();
    second.signal("-CONT");
    until("the second process plays taflbot's turn", || async {
        moves_stored(&svc, bot_game).await == 1
    })
    .await;
    for game in [lower_game, upper_game] {
        until("the second process delivers the game's notices", || async {
            pending(&svc, game).await.is_empty()
        })
        .await;
    }
    // taflbot's move is stored before its post is recorded as delivered.
    let delivered_move = || async {
        sqlx::query_scalar::<_, i64>(
            "SELECT id FROM notices WHERE game_id = $1 AND kind = 'moved'
               AND delivered_at IS NOT NULL",
        )
        .bind(bot_game)
        .fetch_optional(svc.pool())
        .await
        .unwrap()
    };
    until("taflbot's move is delivered", || async {
        delivered_move().await.is_some()
    })
    .await;
    let played = delivered_move().await.unwrap();
    // Each notice is in its thread once, and answered once: the first process's post of a held
    // notice arrived (it never heard back), and the second's carried the same nonce, so Discord
    // kept one.
    for id in held.iter().chain([&played]) {
        assert_eq!(posted(&fake, *id), (1, 1), "notice {id}");
    }
    let texts: Vec<String> = fake
        .posts()
        .into_iter()
        .filter(|p| [lower_thread, upper_thread].contains(&p.channel))
        .map(|p| p.content)
        .collect();
    assert_eq!(
        texts
            .iter()
            .filter(|t| t.contains("ran out of time"))
            .count(),
        2,
        "{texts:#?}"
    );
    // A move of taflbot's, once, and taflbot's game goes on: it is alice's turn.
    assert_eq!(
        svc.game(bot_game).await.unwrap().waiting_for.map(|p| p.key),
        Some(ALICE.id.to_string())
    );

    // The server on the second process's shard is still served.
    let board = ask(
        &fake,
        upper,
        BOB,
        upper_thread,
        "board",
        &[("game", Opt::Int(upper_game))],
    )
    .await;
    assert!(
        board.content().starts_with(&format!("Game #{upper_game}")),
        "{}\n{}",
        board.content(),
        second.log()
    );
    drop(first);
    drop(second);
    svc.pool().close().await;
}
