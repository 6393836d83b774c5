//! End-to-end tests of the Discord bot: the real serenity client and poise framework, connected to
//! a fake Discord on 127.0.0.1, with the game service on SQLite. Each test checks what the fake
//! received, and what the database holds.

use crate::support::{until, until_no_notice_pending};
use crate::{common, fake_discord};

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use fake_discord::{s, Failure, Fake, Member, Mode, Opt, GUILD};
use taflbot::discord::post::Retry;
use taflbot::discord::{Config, Running};
use taflbot::service::{Service, TestClock, DAY};

const ALICE: Member = Member {
    id: 111_111_111_111_111_111,
    name: "alice",
};
const BOB: Member = Member {
    id: 222_222_222_222_222_222,
    name: "bob",
};
const CAROL: Member = Member {
    id: 333_333_333_333_333_333,
    name: "carol",
};
const CHANNEL: u64 = 700_000_000_000_000_001;

fn quick() -> Retry {
    Retry {
        attempts: 4,
        first_wait: Duration::from_millis(20),
        max_wait: Duration::from_millis(80),
        timeout: Duration::from_millis(700),
    }
}

struct Harness {
    fake: Fake,
    bot: Option<Running>,
    service: Service,
    clock: Arc<TestClock>,
    db: PathBuf,
}

impl Harness {
    async fn start(name: &str) -> Harness {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_test_writer()
            .try_init();
        let dir = std::env::temp_dir().join(format!("taflbot-e2e-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("bot.db");
        let fake = Fake::start().await;
        let clock = Arc::new(TestClock::new(1_790_000_000));
        let service = open(&db, &clock).await;
        let mut h = Harness {
            fake,
            bot: None,
            service,
            clock,
            db,
        };
        h.connect().await;
        h
    }

    fn config(&self) -> Config {
        let mut config = Config::new("fake.bot.token");
        config.api_base = Some(self.fake.http_url.clone());
        config.guild_id = Some(GUILD);
        config.answers = quick();
        config.posts = quick();
        config.sweep_every = Duration::from_millis(100);
        config
    }

    /// Starts a bot (a new serenity client) on the database and waits until it is ready.
    async fn connect(&mut self) {
        let before = self.fake.identifies();
        let bot = taflbot::discord::start(self.config(), self.service.clone())
            .await
            .expect("the bot starts");
        self.bot = Some(bot);
        self.fake.registered().await;
        while self.fake.identifies() == before {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Stops the bot and starts a new one on the same database file.
    async fn restart(&mut self) {
        self.bot.take().unwrap().shutdown().await;
        self.service.pool().close().await;
        self.service = open(&self.db, &self.clock).await;
        self.connect().await;
    }

    async fn slash(
        &self,
        who: Member,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
    ) -> fake_discord::Call {
        self.fake
            .ask(self.fake.slash(who, channel, name, options))
            .await
    }

    async fn press(&self, who: Member, channel: u64, button: &str) -> fake_discord::Call {
        self.fake.ask(self.fake.press(who, channel, button)).await
    }

    /// alice challenges bob (alice attacks) and bob accepts by button: the game and its thread.
    async fn game(&self, variant: &str) -> (i64, u64) {
        let challenge = self
            .slash(
                ALICE,
                CHANNEL,
                "challenge",
                &[
                    ("opponent", Opt::User(BOB)),
                    ("variant", s(variant)),
                    ("side", Opt::Int(0)),
                ],
            )
            .await;
        let accept = challenge
            .buttons()
            .into_iter()
            .find(|b| b.starts_with("accept:"))
            .expect("an Accept button");
        let answer = self.press(BOB, CHANNEL, &accept).await;
        assert_eq!(answer.kind(), 7, "the challenge message is updated");
        let game = self
            .service
            .games(&taflbot::service::Person::new(BOB.id.to_string(), "bob"))
            .await
            .unwrap()
            .into_iter()
            .map(|g| g.id)
            .max()
            .unwrap();
        // The answer comes first; the thread, then the opening board in it, follow.
        let opening = format!("Game #{game}:");
        let posted = self
            .fake
            .wait_post("the opening board", |p| p.content.starts_with(&opening))
            .await;
        (game, posted.channel)
    }

    async fn moves_stored(&self, game: i64) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = ?")
            .bind(game)
            .fetch_one(self.service.pool())
            .await
            .unwrap()
    }

    /// Replaces a fresh game's start position (the service replays from it).
    async fn set_start(&self, game: i64, position: &str) {
        sqlx::query("UPDATE games SET start = ?, position = ? WHERE id = ? AND move_count = 0")
            .bind(position)
            .bind(position)
            .bind(game)
            .execute(self.service.pool())
            .await
            .unwrap();
    }

    /// A legal move for whoever is to move, and who that is.
    async fn a_move(&self, game: i64) -> (Member, String) {
        let view = self.service.game(game).await.unwrap();
        let next = view.waiting_for.unwrap();
        let who = [ALICE, BOB]
            .into_iter()
            .find(|m| m.id.to_string() == next.key)
            .unwrap();
        let (_, moves) = self
            .service
            .legal_moves(&next, Some(game), None)
            .await
            .unwrap();
        (who, moves[moves.len() / 2].clone())
    }

    async fn shutdown(mut self) {
        if let Some(bot) = self.bot.take() {
            bot.shutdown().await;
        }
        let _ = std::fs::remove_dir_all(self.db.parent().unwrap());
    }
}

async fn open(db: &std::path::Path, clock: &Arc<TestClock>) -> Service {
    let pool = taflbot::store::open(db.to_str().unwrap()).await.unwrap();
    Service::new(pool, clock.clone())
}

fn is_png(bytes: Option<&[u8]>) -> bool {
    bytes.is_some_and(|b| b.starts_with(b"\x89PNG\r\n\x1a\n") && b.len() > 1000)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_commands_are_registered_with_descriptions_and_completion() {
    let h = Harness::start("register").await;
    let call = h.fake.registered().await;
    assert!(
        call.path.ends_with(&format!("/guilds/{GUILD}/commands")),
        "{}",
        call.path
    );
    let commands = call.json.as_array().unwrap();
    let names: Vec<&str> = commands
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    for name in [
        "challenge",
        "accept",
        "decline",
        "cancel",
        "move",
        "endturn",
        "board",
        "games",
        "resign",
        "abort",
        "draw",
        "rules",
        "record",
        "import",
        "help",
    ] {
        assert!(names.contains(&name), "{name} is registered: {names:?}");
    }
    // Exactly the command table, no more.
    assert_eq!(names.len(), taflbot::commands::COMMANDS.len(), "{names:?}");
    for c in taflbot::commands::COMMANDS {
        assert!(names.contains(&c.name), "{} is registered", c.name);
    }
    for c in commands {
        assert!(!c["description"].as_str().unwrap().is_empty(), "{c}");
        for o in c["options"].as_array().into_iter().flatten() {
            assert!(!o["description"].as_str().unwrap().is_empty(), "{o}");
        }
    }
    let option = |command: &str, option: &str| {
        let c = commands.iter().find(|c| c["name"] == command).unwrap();
        c["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == option)
            .unwrap()
            .clone()
    };
    assert_eq!(option("move", "move")["autocomplete"], true);
    assert_eq!(option("move", "game")["autocomplete"], true);
    assert_eq!(option("challenge", "variant")["autocomplete"], true);
    assert_eq!(option("challenge", "opponent")["type"], 6);
    let side = option("challenge", "side");
    let sides: Vec<&str> = side["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(sides, ["attackers", "defenders", "random"]);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_accepted_by_button_opens_a_thread_and_the_moves_are_posted_there() {
    let h = Harness::start("flow").await;
    let challenge = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(BOB)),
                ("variant", s("tyr-11")),
                ("side", Opt::Int(0)),
                ("days", Opt::Int(3)),
            ],
        )
        .await;
    assert_eq!(challenge.kind(), 4);
    assert!(!challenge.private());
    assert!(
        challenge.content().starts_with(&format!(
            "<@{}>, <@{}> challenges you to a rated game of **TYR",
            BOB.id, ALICE.id
        )),
        "{}",
        challenge.content()
    );
    assert_eq!(challenge.pings(), [BOB.id.to_string()]);
    let buttons = challenge.buttons();
    assert_eq!(buttons.len(), 2);
    assert!(buttons[0].starts_with("accept:") && buttons[1].starts_with("decline:"));

    // A second challenge while this one is open is refused privately, pinging nobody.
    let again = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[("opponent", Opt::User(BOB)), ("variant", s("tablut"))],
        )
        .await;
    assert!(again.private());
    assert!(
        again
            .content()
            .contains("is still open: answer or withdraw it first"),
        "{}",
        again.content()
    );
    assert!(again.pings().is_empty());

    // Nobody but bob may answer.
    let stranger = h.press(CAROL, CHANNEL, &buttons[0]).await;
    assert!(stranger.private());
    assert_eq!(stranger.content(), "This is not your challenge.");
    let own = h.press(ALICE, CHANNEL, &buttons[1]).await;
    assert!(own.private());
    assert!(
        own.content().starts_with("This is your own challenge"),
        "{}",
        own.content()
    );

    let accepted = h.press(BOB, CHANNEL, &buttons[0]).await;
    assert_eq!(accepted.kind(), 7);
    assert!(
        accepted.buttons().is_empty(),
        "the buttons go once answered"
    );
    h.fake
        .wait_post("the opening board", |p| p.content.starts_with("Game #"))
        .await;
    let threads = h.fake.threads_of(CHANNEL);
    assert_eq!(threads.len(), 1, "one thread for the game");
    let thread = threads[0];
    assert!(
        accepted.content().starts_with("bob accepted: game #"),
        "{}",
        accepted.content()
    );
    // Answered first; the thread, once made, is named in the answer.
    h.fake
        .wait_call("the answer naming the thread", |c| {
            c.method == "PATCH"
                && c.path.ends_with("/messages/@original")
                && c.content().contains(&format!("<#{thread}>"))
        })
        .await;
    assert!(h.fake.thread(thread).unwrap().name.contains("alice vs bob"));
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.channel == thread)
        .await;
    assert!(is_png(opening.files.first().map(|f| f.1.as_slice())));
    let game: i64 = 1;
    let first = h.service.game(game).await.unwrap().waiting_for.unwrap();
    assert_eq!(opening.pings, std::slice::from_ref(&first.key));

    // Moves in the thread: each answered with the board, naming the next player.
    for _ in 0..4 {
        let (who, mv) = h.a_move(game).await;
        let before = h.moves_stored(game).await;
        let answer = h.slash(who, thread, "move", &[("move", s(&mv))]).await;
        assert_eq!(answer.kind(), 4);
        assert!(!answer.private());
        assert!(is_png(answer.png()), "the answer carries the board");
        assert!(
            answer
                .content()
                .contains(&format!("{} played {mv}", who.name)),
            "{}",
            answer.content()
        );
        let next = if who.id == ALICE.id { BOB } else { ALICE };
        assert_eq!(answer.pings(), [next.id.to_string()]);
        assert!(answer
            .content()
            .contains(&format!("<@{}>, your move.", next.id)));
        assert_eq!(h.moves_stored(game).await, before + 1);
    }
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_and_strangers_are_refused_privately_and_nothing_changes() {
    let h = Harness::start("refusals").await;
    let (game, thread) = h.game("tyr-11").await;
    let (who, _) = h.a_move(game).await;
    let other = if who.id == ALICE.id { BOB } else { ALICE };
    let stored = h.moves_stored(game).await;
    let posts = h.fake.posts().len();

    let person = |m: Member| taflbot::service::Person::new(m.id.to_string(), m.name);
    for (by, text) in [(who, "a1-a11"), (who, "e5-e"), (other, "d1-d3")] {
        let expected = h
            .service
            .play(&person(by), Some(game), None, text)
            .await
            .unwrap_err();
        let answer = h.slash(by, thread, "move", &[("move", s(text))]).await;
        assert!(answer.private(), "{text}");
        assert_eq!(
            answer.content(),
            taflbot::discord::commands::refusal(&expected)
        );
        assert!(answer.png().is_none());
    }
    let stranger = h
        .slash(
            CAROL,
            thread,
            "move",
            &[("move", s("d1-d3")), ("game", Opt::Int(game))],
        )
        .await;
    assert!(stranger.private());
    assert_eq!(
        stranger.content(),
        format!("You are not playing in game #{game}.")
    );
    let resign = h
        .slash(CAROL, thread, "resign", &[("game", Opt::Int(game))])
        .await;
    assert!(resign.private());
    assert_eq!(h.moves_stored(game).await, stored, "no move was stored");
    assert_eq!(h.fake.posts().len(), posts, "nothing was posted");
    assert!(h.service.game(game).await.unwrap().outcome.is_none());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_offers_at_most_25_legal_moves_that_match_what_was_typed() {
    let h = Harness::start("autocomplete").await;
    let (game, thread) = h.game("tyr-11").await;
    let (who, _) = h.a_move(game).await;
    let (_, legal) = h
        .service
        .legal_moves(
            &taflbot::service::Person::new(who.id.to_string(), who.name),
            Some(game),
            None,
        )
        .await
        .unwrap();
    assert!(legal.len() > 25);
    let choices = |call: &fake_discord::Call| -> Vec<String> {
        assert_eq!(call.kind(), 8, "an autocomplete answer");
        call.json["data"]["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["value"].as_str().unwrap().to_string())
            .collect()
    };
    let all = h
        .fake
        .ask(
            h.fake
                .autocomplete(who, thread, "move", &[("move", s(""))], "move"),
        )
        .await;
    let all = choices(&all);
    assert_eq!(all.len(), 25);
    assert!(all.iter().all(|m| legal.contains(m)));
    // Every piece that can move shows (up to 25) before any piece shows twice.
    let from = |m: &String| m.split('-').next().unwrap().to_string();
    let pieces: std::collections::BTreeSet<String> = legal.iter().map(from).collect();
    let shown: std::collections::BTreeSet<String> = all.iter().map(from).collect();
    assert_eq!(shown.len(), pieces.len().min(25));
    // Narrowed by the from-square typed so far.
    // Typed up to the dash, the from-square is exact (d1- is not d10-).
    let middle = &legal[legal.len() / 2];
    let from = &middle[..=middle.find('-').unwrap()];
    let typed = h
        .fake
        .ask(
            h.fake
                .autocomplete(who, thread, "move", &[("move", s(from))], "move"),
        )
        .await;
    let typed = choices(&typed);
    let expected: Vec<String> = legal
        .iter()
        .filter(|m| m.starts_with(from))
        .cloned()
        .collect();
    assert!(!expected.is_empty() && expected.len() <= 25);
    assert_eq!(typed, expected);
    let one = &legal[0];
    let exact = h
        .fake
        .ask(h.fake.autocomplete(
            who,
            thread,
            "move",
            &[("move", s(&one.replace('-', "")))],
            "move",
        ))
        .await;
    assert!(choices(&exact).contains(one));
    // The other player is told why there is nothing to choose.
    let other = if who.id == ALICE.id { BOB } else { ALICE };
    let waiting = h
        .fake
        .ask(
            h.fake
                .autocomplete(other, thread, "move", &[("move", s("d"))], "move"),
        )
        .await;
    let names: Vec<&str> = waiting.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 1);
    assert!(names[0].starts_with("It is not your turn"), "{names:?}");
    // Variants complete too.
    let variants = h
        .fake
        .ask(h.fake.autocomplete(
            ALICE,
            CHANNEL,
            "challenge",
            &[("variant", s("sea"))],
            "variant",
        ))
        .await;
    let ids = choices(&variants);
    assert_eq!(
        ids,
        [
            "sea-battle-9",
            "sea-battle-11",
            "sea-battle-13",
            "sea-battle-15"
        ]
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_berserk_chain_ends_with_the_end_turn_button() {
    let h = Harness::start("berserk").await;
    let (game, thread) = h.game("tyr-11").await;
    h.set_start(
        game,
        &common::position_string("tyr-11", "a", "tc1 Td5 te5 Tb8 ta8 Kh9"),
    )
    .await;
    let capture = h
        .slash(ALICE, thread, "move", &[("move", s("c1-c5"))])
        .await;
    assert!(
        capture.content().contains("alice played c1-c5xd5"),
        "{}",
        capture.content()
    );
    assert!(
        capture.content().contains("may capture again"),
        "{}",
        capture.content()
    );
    assert_eq!(capture.buttons(), [format!("endturn:{game}")]);
    assert_eq!(
        capture.pings(),
        [ALICE.id.to_string()],
        "the chain is alice's"
    );
    // bob cannot end alice's turn.
    let refused = h.press(BOB, thread, &format!("endturn:{game}")).await;
    assert!(refused.private());
    let ended = h.press(ALICE, thread, &format!("endturn:{game}")).await;
    assert!(
        ended.content().contains("alice ended the turn"),
        "{}",
        ended.content()
    );
    assert_eq!(ended.pings(), [BOB.id.to_string()]);
    assert!(is_png(ended.png()));
    assert_eq!(h.moves_stored(game).await, 2);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_draws_and_a_won_game_are_announced() {
    let h = Harness::start("endings").await;
    // A draw offered by command and accepted by button.
    let (game, thread) = h.game("tablut").await;
    // A stale Accept draw press, with no offer open, is refused and offers nothing.
    let stale = h.press(BOB, thread, &format!("drawyes:{game}")).await;
    assert!(stale.private());
    assert_eq!(
        stale.content(),
        format!("There is no draw offer to answer in game #{game}.")
    );
    assert!(h.service.game(game).await.unwrap().draw_offer.is_none());
    let offer = h.slash(ALICE, thread, "draw", &[]).await;
    assert!(
        offer.content().contains("alice offers a draw"),
        "{}",
        offer.content()
    );
    assert_eq!(offer.pings(), [BOB.id.to_string()]);
    assert_eq!(
        offer.buttons(),
        [format!("drawyes:{game}"), format!("drawno:{game}")]
    );
    let agreed = h.press(BOB, thread, &format!("drawyes:{game}")).await;
    assert!(
        agreed.content().contains("bob accepted the draw"),
        "{}",
        agreed.content()
    );
    assert!(
        agreed.content().contains("a draw: agreed"),
        "{}",
        agreed.content()
    );
    let view = h.service.game(game).await.unwrap();
    assert!(view.outcome.is_some_and(|o| o.winner.is_none()));

    // Called off before the first move.
    let (game, thread) = h.game("tyr-11").await;
    let aborted = h.slash(BOB, thread, "abort", &[]).await;
    assert!(
        aborted.content().starts_with(&format!(
            "bob called the game off. Game #{game} was aborted."
        )),
        "{}",
        aborted.content()
    );
    let too_late = {
        let (game, thread) = h.game("tyr-11").await;
        let (who, mv) = h.a_move(game).await;
        h.slash(who, thread, "move", &[("move", s(&mv))]).await;
        h.slash(ALICE, thread, "abort", &[]).await
    };
    assert!(too_late.private());
    assert!(
        too_late.content().contains("has begun: resign instead"),
        "{}",
        too_late.content()
    );

    // Resignation.
    let (game, thread) = h.game("tyr-11").await;
    let resigned = h.slash(BOB, thread, "resign", &[]).await;
    assert!(!resigned.private());
    assert!(
        resigned
            .content()
            .starts_with(&format!("bob resigned. Game #{game} is over: alice")),
        "{}",
        resigned.content()
    );
    assert_eq!(resigned.pings().len(), 2);
    let again = h
        .slash(ALICE, thread, "move", &[("move", s("d1-d3"))])
        .await;
    assert!(again.private());
    assert!(again.content().contains("is over"), "{}", again.content());

    // The king escapes: the game is won by the move, and announced.
    let (game, thread) = h.game("tyr-11").await;
    h.set_start(game, &common::position_string("tyr-11", "d", "Kc3 th8"))
        .await;
    let escape = h.slash(BOB, thread, "move", &[("move", s("c3-a3"))]).await;
    assert!(
        escape.content().contains("bob played c3-a3"),
        "{}",
        escape.content()
    );
    assert!(
        escape.content().contains("is over: bob (defenders) won"),
        "{}",
        escape.content()
    );
    assert!(is_png(escape.png()));
    assert_eq!(escape.pings().len(), 2, "both players hear of the result");
    assert!(h.service.game(game).await.unwrap().outcome.is_some());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_goes_on_after_the_bot_restarts() {
    let mut h = Harness::start("restart").await;
    let (game, thread) = h.game("sea-battle-9").await;
    let (who, mv) = h.a_move(game).await;
    h.slash(who, thread, "move", &[("move", s(&mv))]).await;
    h.restart().await;
    assert_eq!(h.fake.identifies(), 2, "a new client connected");
    let (who, mv) = h.a_move(game).await;
    let answer = h.slash(who, thread, "move", &[("move", s(&mv))]).await;
    assert!(
        answer.content().contains(&format!("played {mv}")),
        "{}",
        answer.content()
    );
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_answers_are_retried_and_the_move_is_kept() {
    let h = Harness::start("failures").await;
    let (game, thread) = h.game("tyr-11").await;

    // Two 500s, then the answer goes through: once.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 500,
        times: 2,
        mode: Mode::Refuse,
    });
    let (who, mv) = h.a_move(game).await;
    let answer = h.slash(who, thread, "move", &[("move", s(&mv))]).await;
    assert!(is_png(answer.png()));
    assert_eq!(h.moves_stored(game).await, 1);

    // A 429 is waited out.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 429,
        times: 1,
        mode: Mode::Refuse,
    });
    let (who, mv) = h.a_move(game).await;
    let answer = h.slash(who, thread, "move", &[("move", s(&mv))]).await;
    assert!(answer.content().contains(&mv));
    assert_eq!(h.moves_stored(game).await, 2);
    let refused: Vec<_> = h
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.path.ends_with("/callback") && c.status >= 429)
        .collect();
    assert_eq!(refused.len(), 3);

    // An answer that arrived although Discord said 500: the retry is refused as already
    // acknowledged, and the bot does not post it again.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 500,
        times: 1,
        mode: Mode::AfterWork,
    });
    let (who, mv) = h.a_move(game).await;
    let posts = h.fake.posts().len();
    let answer = h.slash(who, thread, "move", &[("move", s(&mv))]).await;
    assert!(answer.content().contains(&mv));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(h.fake.posts().len(), posts, "no second copy in the thread");
    assert_eq!(h.moves_stored(game).await, 3);

    // The answer fails every time: the board is posted in the thread instead, once, although
    // the first post also failed after arriving.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 500,
        times: 4,
        mode: Mode::Refuse,
    });
    h.fake.fail(Failure {
        method: "POST",
        path_contains: format!("/channels/{thread}/messages"),
        status: 502,
        times: 1,
        mode: Mode::AfterWork,
    });
    let (who, mv) = h.a_move(game).await;
    let rx = h
        .fake
        .interact(h.fake.slash(who, thread, "move", &[("move", s(&mv))]));
    let posted = h
        .fake
        .wait_post("the board posted instead", |p| {
            p.channel == thread && p.content.contains(&mv)
        })
        .await;
    assert!(is_png(posted.files.first().map(|f| f.1.as_slice())));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        h.fake
            .posts()
            .iter()
            .filter(|p| p.content.contains(&mv))
            .count(),
        1,
        "posted once"
    );
    drop(rx);
    assert_eq!(h.moves_stored(game).await, 4);

    // Discord is down for a while: the move is kept, and its news is delivered once Discord is
    // back.
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/callback".into(),
        status: 503,
        times: 4,
        mode: Mode::Refuse,
    });
    h.fake.fail(Failure {
        method: "POST",
        path_contains: "/messages".into(),
        status: 503,
        times: 6,
        mode: Mode::Refuse,
    });
    let (who, mv) = h.a_move(game).await;
    let _rx = h
        .fake
        .interact(h.fake.slash(who, thread, "move", &[("move", s(&mv))]));
    let late = h
        .fake
        .wait_post("the kept news", |p| {
            p.channel == thread && p.content.contains(&mv)
        })
        .await;
    assert!(late.content.contains(&format!("{} played {mv}", who.name)));
    assert!(
        late.files.iter().any(|(name, _)| name.ends_with(".png")),
        "a kept post keeps its picture"
    );
    assert_eq!(h.moves_stored(game).await, 5);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        h.fake
            .posts()
            .iter()
            .filter(|p| p.content.contains(&mv))
            .count(),
        1,
        "delivered once"
    );
    until_no_notice_pending(&h.service).await;
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_locked_and_deleted_threads_do_not_stop_a_game() {
    let h = Harness::start("threads").await;
    let (game, thread) = h.game("tyr-11").await;

    // Archived: a move made from the channel reopens the thread and is posted there.
    h.fake.archive(thread, false);
    let (who, mv) = h.a_move(game).await;
    let answer = h
        .slash(
            who,
            CHANNEL,
            "move",
            &[("move", s(&mv)), ("game", Opt::Int(game))],
        )
        .await;
    assert!(answer.private());
    assert!(
        answer.content().contains(&format!("<#{thread}>")),
        "{}",
        answer.content()
    );
    let post = h
        .fake
        .wait_post("the post in the reopened thread", |p| {
            p.content.contains(&mv)
        })
        .await;
    assert_eq!(post.channel, thread);
    assert!(!h.fake.thread(thread).unwrap().archived);

    // Locked: the channel takes the post.
    h.fake.archive(thread, true);
    let (who, mv) = h.a_move(game).await;
    h.slash(
        who,
        CHANNEL,
        "move",
        &[("move", s(&mv)), ("game", Opt::Int(game))],
    )
    .await;
    let post = h
        .fake
        .wait_post("the post in the channel", |p| p.content.contains(&mv))
        .await;
    assert_eq!(post.channel, CHANNEL);

    // Deleted: the channel takes it, and the game forgets the thread.
    h.fake.delete_channel(thread);
    let (who, mv) = h.a_move(game).await;
    h.slash(
        who,
        CHANNEL,
        "move",
        &[("move", s(&mv)), ("game", Opt::Int(game))],
    )
    .await;
    let post = h
        .fake
        .wait_post("the post after the thread went", |p| {
            p.content.contains(&mv)
        })
        .await;
    assert_eq!(post.channel, CHANNEL);
    assert_eq!(h.service.game(game).await.unwrap().thread, None);
    // From now on the game is answered in the channel itself.
    let (who, mv) = h.a_move(game).await;
    let answer = h.slash(who, CHANNEL, "move", &[("move", s(&mv))]).await;
    assert!(!answer.private());
    assert!(is_png(answer.png()));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_thread_permission_the_game_is_played_in_the_channel() {
    let h = Harness::start("nothreads").await;
    h.fake.forbid_threads(CHANNEL);
    let (game, place) = h.game("tablut").await;
    assert_eq!(place, CHANNEL);
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.channel == CHANNEL)
        .await;
    assert!(opening.content.starts_with(&format!("Game #{game}")));
    let (who, mv) = h.a_move(game).await;
    let answer = h.slash(who, CHANNEL, "move", &[("move", s(&mv))]).await;
    assert!(!answer.private());
    assert!(is_png(answer.png()));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_and_timeouts_are_posted_in_the_thread() {
    let h = Harness::start("deadlines").await;
    let (game, thread) = h.game("tyr-11").await;
    let next = h.service.game(game).await.unwrap().waiting_for.unwrap();
    h.clock.advance(2 * DAY + 1);
    let reminder = h
        .fake
        .wait_post("the reminder", |p| {
            p.channel == thread && p.content.contains("waiting for your move")
        })
        .await;
    assert_eq!(reminder.pings, std::slice::from_ref(&next.key));
    h.clock.advance(DAY);
    let timeout = h
        .fake
        .wait_post("the timeout", |p| {
            p.channel == thread && p.content.contains("ran out of time")
        })
        .await;
    assert_eq!(timeout.pings.len(), 2);
    assert!(h.service.game(game).await.unwrap().outcome.is_some());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_rules_games_and_record() {
    let h = Harness::start("looking").await;
    let help = h.slash(CAROL, CHANNEL, "help", &[]).await;
    assert!(help.private());
    assert!(help.content().contains("/challenge"));
    let rules = h
        .slash(CAROL, CHANNEL, "rules", &[("variant", s("sea-battle-11"))])
        .await;
    assert!(
        rules.content().contains("Sea Battle"),
        "{}",
        rules.content()
    );
    assert!(
        is_png(rules.png()),
        "{:?} {:?}",
        rules.json,
        rules
            .files
            .iter()
            .map(|f| (&f.0, f.1.len()))
            .collect::<Vec<_>>()
    );
    let unknown = h
        .slash(CAROL, CHANNEL, "rules", &[("variant", s("chess"))])
        .await;
    assert!(unknown.private());
    assert!(unknown
        .content()
        .starts_with("There is no variant \"chess\""));

    // An option of the wrong type (a choice is sent as its number) is refused privately.
    let unreadable = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(BOB)),
                ("variant", s("tablut")),
                ("side", s("attackers")),
            ],
        )
        .await;
    assert!(unreadable.private());
    assert!(
        unreadable.content().starts_with("I could not read"),
        "{}",
        unreadable.content()
    );

    // A game from aagenielsen.dk, replayed and shown.
    let corpus_game = "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2";
    let imported = h
        .slash(CAROL, CHANNEL, "import", &[("moves", s(corpus_game))])
        .await;
    assert!(!imported.private());
    assert!(
        imported
            .content()
            .starts_with("5 moves of Copenhagen Hnefatafl 11x11 replayed"),
        "{}",
        imported.content()
    );
    let names: Vec<&str> = imported.files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["game.txt", "game.gif", "board.png"]);
    assert!(String::from_utf8_lossy(&imported.files[0].1).contains("3. g3-e3xe2"));
    let wrong = h
        .slash(
            CAROL,
            CHANNEL,
            "import",
            &[("moves", s("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3"))],
        )
        .await;
    assert!(wrong.private());
    assert_eq!(wrong.content(), "The move list does not replay: move 5 (g3-e3): the list captures nothing but the move captures e2.");

    let (game, thread) = h.game("tyr-11").await;
    let (who, mv) = h.a_move(game).await;
    h.slash(who, thread, "move", &[("move", s(&mv))]).await;
    let games = h.slash(BOB, CHANNEL, "games", &[]).await;
    assert!(games.private());
    assert!(
        games.content().contains(&format!("#{game} TYR")),
        "{}",
        games.content()
    );
    let none = h.slash(CAROL, CHANNEL, "games", &[]).await;
    assert!(none.content().starts_with("You have no game in progress"));
    let record = h.slash(ALICE, thread, "record", &[]).await;
    let names: Vec<&str> = record.files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        names,
        [format!("game-{game}.txt"), format!("game-{game}.gif")]
    );
    let text = String::from_utf8(record.files[0].1.clone()).unwrap();
    assert!(text.contains(&mv), "{text}");
    assert!(record.files[1].1.starts_with(b"GIF89a"));
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
    let dir = std::env::temp_dir().join(format!("taflbot-e2e-{}-sigterm", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("bot.db");
    let fake = Fake::start().await;
    let thread = 650_000_000_000_000_001_u64;
    let game = {
        let pool = taflbot::store::open(db.to_str().unwrap()).await.unwrap();
        let service = Service::new(pool, Arc::new(taflbot::service::SystemClock));
        let person = |m: Member| taflbot::service::Person::new(m.id.to_string(), m.name);
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
    let answer = tokio::time::timeout(Duration::from_secs(20), rx)
        .await
        .unwrap()
        .unwrap();
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
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_is_one_sentence() {
    let dir = std::env::temp_dir().join(format!("taflbot-e2e-{}-token", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_work_is_deferred_and_then_answered() {
    let h = Harness::start("defer").await;
    let (game, thread) = h.game("tyr-11").await;
    let (who, mv) = h.a_move(game).await;
    // Another writer holds the database for 2.5 s: the move waits for it, longer than the bot
    // lets Discord wait without a word.
    let blocker = h
        .service
        .pool()
        .begin_with("BEGIN IMMEDIATE")
        .await
        .unwrap();
    let rx = h
        .fake
        .interact(h.fake.slash(who, thread, "move", &[("move", s(&mv))]));
    let deferred = h
        .fake
        .wait_call("the deferral", |c| {
            c.path.ends_with("/callback") && c.kind() == 5
        })
        .await;
    assert!(!deferred.private());
    tokio::time::sleep(Duration::from_millis(1000)).await;
    blocker.rollback().await.unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(20), rx)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(answer.method, "PATCH", "the deferred answer is edited in");
    assert!(answer.path.ends_with("/messages/@original"));
    assert!(
        answer.content().contains(&format!("played {mv}")),
        "{}",
        answer.content()
    );
    assert!(is_png(answer.png()));
    assert_eq!(h.moves_stored(game).await, 1);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_and_button_defers_when_the_work_runs_long() {
    let h = Harness::start("defer-all").await;
    let hold = || async {
        h.service
            .pool()
            .begin_with("BEGIN IMMEDIATE")
            .await
            .unwrap()
    };
    // The Accept button under a held database: a deferred update, then the message edited.
    let challenge = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[("opponent", Opt::User(BOB)), ("variant", s("tablut"))],
        )
        .await;
    let accept = challenge.buttons()[0].clone();
    let blocker = hold().await;
    let rx = h.fake.interact(h.fake.press(BOB, CHANNEL, &accept));
    h.fake
        .wait_call("the deferred update", |c| {
            c.path.ends_with("/callback") && c.kind() == 6
        })
        .await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    blocker.rollback().await.unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(20), rx)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(answer.method, "PATCH");
    assert!(
        answer.content().starts_with("bob accepted: game #"),
        "{}",
        answer.content()
    );

    // /resign by a stranger: deferred in public, refused in private, the public note taken away.
    let (game, thread) = h.game("tyr-11").await;
    let blocker = hold().await;
    let rx = h.fake.interact(
        h.fake
            .slash(CAROL, thread, "resign", &[("game", Opt::Int(game))]),
    );
    let deferral = |c: &fake_discord::Call| c.path.ends_with("/callback") && c.kind() == 5;
    let first = h.fake.wait_call("the deferral", deferral).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    blocker.rollback().await.unwrap();
    let refused = tokio::time::timeout(Duration::from_secs(20), rx)
        .await
        .unwrap()
        .unwrap();
    assert!(refused.private(), "{refused:?}");
    assert_eq!(
        refused.content(),
        format!("You are not playing in game #{game}.")
    );
    assert!(h
        .fake
        .calls()
        .iter()
        .any(|c| c.method == "DELETE" && c.path.ends_with("/messages/@original")));

    // /resign by a player: deferred, then the result edited in.
    let blocker = hold().await;
    let rx = h.fake.interact(
        h.fake
            .slash(BOB, thread, "resign", &[("game", Opt::Int(game))]),
    );
    h.fake
        .wait_call("another deferral", |c| deferral(c) && c.path != first.path)
        .await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    blocker.rollback().await.unwrap();
    let resigned = tokio::time::timeout(Duration::from_secs(20), rx)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(resigned.method, "PATCH");
    assert!(
        resigned.content().starts_with("bob resigned."),
        "{}",
        resigned.content()
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_is_answered_at_once_while_twenty_large_imports_run() {
    let h = Harness::start("imports").await;
    let moves = common::long_copenhagen_game(800).join(" ");
    assert!(moves.len() <= 6000, "within Discord's option length");
    let imports: Vec<_> = (0..20)
        .map(|_| {
            h.fake.interact(
                h.fake
                    .slash(CAROL, CHANNEL, "import", &[("moves", s(&moves))]),
            )
        })
        .collect();
    // Wait until the imports are at work (the first deferrals show it), then ask for help.
    h.fake
        .wait_call("an import deferred", |c| {
            c.path.ends_with("/callback") && c.kind() == 5
        })
        .await;
    let asked = std::time::Instant::now();
    let help = h.slash(ALICE, CHANNEL, "help", &[]).await;
    let waited = asked.elapsed();
    assert!(help.content().contains("/challenge"));
    assert!(waited < Duration::from_secs(1), "help took {waited:?}");
    for answer in imports {
        let answer = tokio::time::timeout(Duration::from_secs(120), answer)
            .await
            .expect("every import is answered")
            .unwrap();
        assert!(
            answer.content().starts_with("800 moves of Copenhagen"),
            "{}",
            answer.content()
        );
    }
    // Longer than an import takes: refused before any work.
    let too_long = vec!["a4-a5 a5-a4"; 501].join(" ");
    let refused = h
        .slash(CAROL, CHANNEL, "import", &[("moves", s(&too_long))])
        .await;
    assert!(refused.private());
    assert_eq!(
        refused.content(),
        "The move list has 1002 moves; an import takes at most 1000."
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_refused_for_good_is_given_up_not_retried_forever() {
    let h = Harness::start("given-up").await;
    let (game, thread) = h.game("tyr-11").await;
    // The bot was removed: the thread and the channel are gone for it.
    h.fake.delete_channel(thread);
    h.fake.delete_channel(CHANNEL);
    let tries = || {
        h.fake
            .calls()
            .iter()
            .filter(|c| c.method == "POST" && c.path.ends_with("/messages"))
            .count()
    };
    let before = tries();
    h.clock.advance(2 * DAY + 1);
    // The reminder is tried (the thread, then the channel), then given up.
    until("the notice to be given up", || async {
        let given_up: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM notices WHERE game_id = ? AND given_up_at IS NOT NULL",
        )
        .bind(game)
        .fetch_one(h.service.pool())
        .await
        .unwrap();
        given_up == 1
    })
    .await;
    let tried = tries() - before;
    assert!((1..=2).contains(&tried), "{tried} posts");
    // Many sweeps later (every 100 ms), and a day on, nothing more is tried.
    h.clock.advance(DAY / 2);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(tries() - before, tried, "no retries of a refused notice");
    assert!(h.service.pending_notices().await.unwrap().is_empty());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_lists_and_long_input_stay_within_discords_limits() {
    let h = Harness::start("limits").await;
    let person = |m: Member| taflbot::service::Person::new(m.id.to_string(), m.name);
    for _ in 0..60 {
        let c = h
            .service
            .challenge(
                &person(ALICE),
                &person(BOB),
                "copenhagen",
                taflbot::service::SideChoice::Attackers,
                None,
                Some(&CHANNEL.to_string()),
            )
            .await
            .unwrap();
        h.service
            .accept(&person(BOB), Some(c.id), None)
            .await
            .unwrap();
    }
    let games = h.slash(ALICE, CHANNEL, "games", &[]).await;
    let content = games.content();
    assert!(content.chars().count() <= 2000, "{}", content.len());
    assert!(content.starts_with("Your games:"), "{content}");
    assert!(content.ends_with("more."), "{content}");

    // A move of 5,000 characters: the refusal quotes at most 50 of them.
    let long = "z".repeat(5000);
    let refused = h
        .slash(
            ALICE,
            CHANNEL,
            "move",
            &[("move", s(&long)), ("game", Opt::Int(1))],
        )
        .await;
    assert!(refused.private());
    assert!(
        refused.content().chars().count() < 200,
        "{}",
        refused.content()
    );
    assert!(
        refused.content().contains("is not a square"),
        "{}",
        refused.content()
    );

    // Completing it: every choice within 100 characters.
    let done = h
        .fake
        .ask(h.fake.autocomplete(
            BOB,
            CHANNEL,
            "move",
            &[("move", s(&long)), ("game", Opt::Int(1))],
            "move",
        ))
        .await;
    for c in done.json["data"]["choices"].as_array().unwrap() {
        assert!(c["name"].as_str().unwrap().chars().count() <= 100, "{c}");
        assert!(c["value"].as_str().unwrap().chars().count() <= 100, "{c}");
    }
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_full_of_markup_shows_as_text_and_pings_no_one() {
    const MALLORY: Member = Member {
        id: 444_444_444_444_444_444,
        name: "<@333333333333333333> [win](https://example.com) **@everyone**",
    };
    let h = Harness::start("markup").await;
    let challenge = h
        .slash(
            MALLORY,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(BOB)),
                ("variant", s("tablut")),
                ("side", Opt::Int(0)),
            ],
        )
        .await;
    let content = challenge.content();
    // The name is shown escaped: no mention of carol, no link, no bold, no @everyone.
    assert!(!content.contains("<@333333333333333333>"), "{content}");
    assert!(!content.contains("](https"), "{content}");
    assert!(!content.contains("**@everyone**"), "{content}");
    assert!(
        content.contains("\\<@\u{200B}333333333333333333\\>"),
        "{content}"
    );
    assert_eq!(challenge.pings(), [BOB.id.to_string()]);
    let accept = challenge.buttons()[0].clone();
    h.press(BOB, CHANNEL, &accept).await;
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.content.starts_with("Game #"))
        .await;
    assert!(!opening.pings.contains(&CAROL.id.to_string()));
    // The reminder and the loss on time ping the players, never the name's "mention".
    h.clock.advance(2 * DAY + 1);
    let reminder = h
        .fake
        .wait_post("the reminder", |p| {
            p.content.contains("waiting for your move")
        })
        .await;
    assert_eq!(reminder.pings, [MALLORY.id.to_string()]);
    h.clock.advance(DAY);
    let timeout = h
        .fake
        .wait_post("the timeout", |p| p.content.contains("ran out of time"))
        .await;
    assert!(
        !timeout.content.contains("<@333333333333333333>"),
        "{}",
        timeout.content
    );
    let mut pinged = timeout.pings.clone();
    pinged.sort();
    assert_eq!(pinged, [BOB.id.to_string(), MALLORY.id.to_string()]);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_seen_only_in_its_own_server() {
    const OTHER: u64 = 800_000_000_000_000_999;
    let h = Harness::start("servers").await;
    let (game, thread) = h.game("tablut").await;
    let elsewhere = |mut interaction: serde_json::Value| {
        interaction["guild_id"] = serde_json::json!(OTHER.to_string());
        interaction
    };
    let refusal = format!("Game #{game} is played on another server, and is seen only there.");
    for command in ["board", "record", "resign"] {
        let asked = h
            .fake
            .ask(elsewhere(h.fake.slash(
                ALICE,
                CHANNEL + 1,
                command,
                &[("game", Opt::Int(game))],
            )))
            .await;
        assert!(asked.private(), "{command}");
        assert_eq!(asked.content(), refusal, "{command}");
        assert!(
            asked.files.is_empty(),
            "{command}: nothing of the game is shown"
        );
    }
    let listed = h
        .fake
        .ask(elsewhere(h.fake.slash(ALICE, CHANNEL + 1, "games", &[])))
        .await;
    assert!(
        listed
            .content()
            .starts_with("You have no game in progress."),
        "{}",
        listed.content()
    );
    // In its own server all is as before.
    let board = h
        .slash(ALICE, thread, "board", &[("game", Opt::Int(game))])
        .await;
    assert!(board.content().starts_with(&format!("Game #{game}")));
    assert!(h.service.game(game).await.unwrap().outcome.is_none());
    h.shutdown().await;
}

/// taflbot itself, as a user option names it.
const TAFLBOT: Member = Member {
    id: fake_discord::APP,
    name: "taflbot",
};

fn png_of(p: &fake_discord::Posted) -> Option<&[u8]> {
    p.files.first().map(|(_, bytes)| bytes.as_slice())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenging_taflbot_starts_a_game_it_answers_with_a_picture() {
    let h = Harness::start("versus").await;
    let answer = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(TAFLBOT)),
                ("variant", s("brandubh")),
                ("side", Opt::Int(0)),
                ("level", Opt::Int(1)),
            ],
        )
        .await;
    assert!(!answer.private());
    assert!(
        answer
            .content()
            .contains("takes on taflbot: game #1 (Brandubh 7x7) has begun, taflbot at level 1"),
        "{}",
        answer.content()
    );
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.content.starts_with("Game #1:"))
        .await;
    let thread = opening.channel;
    assert_ne!(thread, CHANNEL, "the game has its thread");
    assert!(is_png(png_of(&opening)));
    // alice attacks and moves; taflbot answers in the thread with the board, pinging her.
    let mine = h
        .slash(ALICE, thread, "move", &[("move", s("d2-c2"))])
        .await;
    assert!(
        mine.content().contains("played d2-c2"),
        "{}",
        mine.content()
    );
    assert!(
        mine.content().contains("taflbot is thinking."),
        "{}",
        mine.content()
    );
    assert!(mine.pings().is_empty(), "the bot is not pinged");
    let reply = h
        .fake
        .wait_post("taflbot's move", |p| {
            p.content.starts_with("taflbot played ")
        })
        .await;
    assert_eq!(reply.channel, thread);
    assert!(is_png(png_of(&reply)));
    assert!(
        reply
            .content
            .ends_with(&format!("<@{}>, your move.", ALICE.id)),
        "{}",
        reply.content
    );
    assert_eq!(reply.pings, [ALICE.id.to_string()]);
    assert_eq!(h.moves_stored(1).await, 2);
    // A hint, privately, in a game against the bot.
    let hint = h.slash(ALICE, thread, "hint", &[]).await;
    assert!(hint.private());
    assert!(
        hint.content().contains("taflbot would play"),
        "{}",
        hint.content()
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_bot_plays_where_it_is_to_move() {
    let mut h = Harness::start("versus-restart").await;
    // While no bot is connected, alice starts a game in which taflbot moves first.
    h.bot.take().unwrap().shutdown().await;
    let me = taflbot::service::Person::new(fake_discord::APP.to_string(), "taflbot");
    let alice = taflbot::service::Person::new(ALICE.id.to_string(), "alice");
    let view = h
        .service
        .scoped(taflbot::service::Scope::Server(GUILD.to_string()))
        .play_bot(
            &alice,
            &me,
            "tablut",
            taflbot::service::SideChoice::Defenders,
            None,
            Some(1),
            Some(&CHANNEL.to_string()),
        )
        .await
        .unwrap();
    assert_eq!(h.moves_stored(view.id).await, 0);
    h.connect().await;
    let moved = h
        .fake
        .wait_post("taflbot's first move", |p| {
            p.content.starts_with("taflbot played ")
        })
        .await;
    assert_eq!(moved.channel, CHANNEL);
    assert!(is_png(png_of(&moved)));
    assert_eq!(h.moves_stored(view.id).await, 1);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_hint_in_a_game_between_people_that_goes_on() {
    let h = Harness::start("no-hint").await;
    let (game, thread) = h.game("brandubh").await;
    let refused = h.slash(BOB, thread, "hint", &[]).await;
    assert!(refused.private());
    assert_eq!(
        refused.content(),
        format!(
            "No hints in game #{game}: hints are for games against the bot and for finished games."
        )
    );
    // Nor does a level make a challenge to a person.
    let level = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(CAROL)),
                ("variant", s("brandubh")),
                ("level", Opt::Int(2)),
            ],
        )
        .await;
    assert!(level.private());
    assert!(
        level.content().contains("a challenge to a person has none"),
        "{}",
        level.content()
    );
    h.shutdown().await;
}

#[tokio::test]
async fn a_rated_result_then_the_leaderboard_its_pages_and_a_profile_with_its_chart() {
    let h = Harness::start("ratings").await;
    let (game, thread) = h.game("tablut").await;
    let resigned = h.slash(BOB, thread, "resign", &[]).await;
    let said = resigned.content();
    assert!(said.contains(&format!("Game #{game} is over")), "{said}");
    assert!(said.contains("Ratings: alice 17"), "{said}");
    assert!(said.contains("bob 12"), "{said}");

    // Sixteen more players here, rated through the service, make a second page.
    let here = h
        .service
        .scoped(taflbot::service::Scope::Server(GUILD.to_string()));
    for i in 0..8 {
        let a = taflbot::service::Person::new(format!("90{i}"), format!("a{i}"));
        let d = taflbot::service::Person::new(format!("91{i}"), format!("d{i}"));
        let c = here
            .challenge(
                &a,
                &d,
                "tablut",
                taflbot::service::SideChoice::Attackers,
                None,
                None,
            )
            .await
            .unwrap();
        let id = here.accept(&d, Some(c.id), None).await.unwrap().id;
        here.resign(&d, Some(id), None).await.unwrap();
    }
    let board = h.slash(CAROL, CHANNEL, "leaderboard", &[]).await;
    let text = board.content();
    assert!(!board.private());
    assert!(
        text.starts_with("**Tablut (Cartier)** ratings here, page 1 of 2 (18 players):"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 16, "{text}");
    let next = board.buttons();
    assert_eq!(next.len(), 1, "{next:?}");
    let page2 = h.press(CAROL, CHANNEL, &next[0]).await;
    assert_eq!(page2.kind(), 7, "the page replaces the message");
    assert!(
        page2.content().contains("page 2 of 2"),
        "{}",
        page2.content()
    );
    assert!(page2.content().contains("\n16. "), "{}", page2.content());
    assert_eq!(page2.buttons().len(), 1, "only a button back");

    let profile = h
        .slash(CAROL, CHANNEL, "profile", &[("player", Opt::User(ALICE))])
        .await;
    let text = profile.content();
    assert!(text.starts_with("Profile of alice:"), "{text}");
    assert!(
        text.contains("Tablut (Cartier): 17") && text.contains("as attackers 1-0-0"),
        "{text}"
    );
    let chart = image::load_from_memory(profile.png().expect("the chart"))
        .unwrap()
        .to_rgb8();
    assert_eq!(chart.dimensions(), taflbot::render::CHART_SIZE);
    // Nobody rated in a variant: said so.
    let none = h
        .slash(CAROL, CHANNEL, "leaderboard", &[("variant", s("brandubh"))])
        .await;
    assert!(none.private());
    assert_eq!(
        none.content(),
        "Nobody here has a rating in Brandubh 7x7 yet."
    );
    h.shutdown().await;
}

#[tokio::test]
async fn turns_come_by_direct_message_and_closed_dms_fall_back_to_the_thread_once() {
    let h = Harness::start("dms").await;
    let on = h
        .slash(BOB, CHANNEL, "notify", &[("dm", Opt::Int(0))])
        .await;
    assert!(on.private());
    assert!(on
        .content()
        .starts_with("Your turns and reminders come by direct message"));
    let (game, thread) = h.game("tablut").await;
    // The game begins with alice to move: no message for bob yet.
    assert!(h.fake.dms_to(BOB.id).is_empty());
    h.slash(ALICE, thread, "move", &[("move", s("d1-d3"))])
        .await;
    let dm = h
        .fake
        .wait_post("bob's direct message", |p| {
            p.content
                .starts_with(&format!("Game #{game} (Tablut (Cartier)) against alice"))
        })
        .await;
    assert!(
        dm.content
            .contains(&format!("in <#{thread}> is waiting for your move")),
        "{}",
        dm.content
    );
    assert!(dm.content.contains("<t:"), "{}", dm.content);
    assert_eq!(h.fake.dms_to(BOB.id).len(), 1);
    // alice never asked for them.
    h.slash(BOB, thread, "move", &[("move", s("c5-c7"))]).await;
    assert!(h.fake.dms_to(ALICE.id).is_empty());

    // bob closes his direct messages: the next turn is said in the thread, once, and the
    // messages stop.
    h.fake.close_dms(BOB.id);
    h.slash(ALICE, thread, "move", &[("move", s("f1-f3"))])
        .await;
    let note = h
        .fake
        .wait_post("the note in the thread", |p| {
            p.channel == thread && p.content.contains("cannot send you direct messages")
        })
        .await;
    assert!(
        note.content.starts_with(&format!("<@{}>", BOB.id)),
        "{}",
        note.content
    );
    assert_eq!(note.pings, vec![BOB.id.to_string()]);
    h.slash(BOB, thread, "move", &[("move", s("g5-g7"))]).await;
    h.slash(ALICE, thread, "move", &[("move", s("a4-b4"))])
        .await;
    let notes = h
        .fake
        .posts_in(thread)
        .into_iter()
        .filter(|p| p.content.contains("cannot send you direct messages"))
        .count();
    assert_eq!(notes, 1);
    let tries = h
        .fake
        .calls()
        .iter()
        .filter(|c| c.path == "/users/@me/channels")
        .count();
    assert_eq!(
        tries, 2,
        "one message sent, one refused, then no more tries"
    );
    h.shutdown().await;
}
