//! Team games on Discord, end to end: a server against taflbot, its members voting by `/vote`
//! (privately), the thread showing how many voted in one post edited as votes come, the window
//! closed by the captain, taflbot's answer after the tally; a fresh account's vote refused; and
//! two roles, where a member of neither is refused and one who left the server is not counted.

use crate::fake_discord::{not_a_manager, s, Member, Opt};
use crate::support::{Harness, ALICE, BOB, CAROL, CHANNEL, TAFLBOT};

const DAVE: Member = Member {
    id: 400_000_000_000_000_004,
    name: "dave",
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_votes_against_taflbot_in_its_thread() {
    let h = Harness::start("team-versus-bot").await;
    let started = h
        .slash(
            ALICE,
            CHANNEL,
            "teamgame start",
            &[
                ("variant", s("brandubh")),
                ("opponent", Opt::User(TAFLBOT)),
                ("side", Opt::Int(0)),
                ("level", Opt::Int(1)),
                ("hours", Opt::Int(2)),
            ],
        )
        .await;
    let said = started.content();
    assert!(
        said.contains("started team game #1 (Brandubh 7x7, taflbot at level 1)"),
        "{said}"
    );
    assert!(
        said.contains("Server 8"),
        "the team has the server's name: {said}"
    );
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.content.starts_with("Game #1:"))
        .await;
    let thread = opening.channel;
    assert_ne!(thread, CHANNEL);
    assert!(opening.pings.is_empty(), "a team is never pinged");

    // bob votes privately; the thread shows the count, never the move.
    let bob = h.slash(BOB, thread, "vote", &[("move", s("d2-e2"))]).await;
    assert!(bob.private());
    assert!(
        bob.content()
            .contains("You voted `d2-e2` for turn 1. of game #1"),
        "{}",
        bob.content()
    );
    let count = h
        .fake
        .wait_post("the count", |p| p.content.contains("1 vote so far"))
        .await;
    assert_eq!(count.channel, thread);
    assert!(!count.content.contains("d2-e2"));
    h.slash(CAROL, thread, "vote", &[("move", s("d1-c1"))])
        .await;
    h.slash(DAVE, thread, "vote", &[("move", s("d1-c1"))]).await;
    // An account made a day ago votes for nothing (the rule of rated play), and is told so.
    let day_ago_ms = (h.service.now() - taflbot::service::DAY) * 1000;
    let fresh = Member {
        id: ((day_ago_ms - 1_420_070_400_000) as u64) << 22,
        name: "fresh",
    };
    let refused = h
        .slash(fresh, thread, "vote", &[("move", s("resign"))])
        .await;
    assert!(refused.private());
    assert!(
        refused
            .content()
            .starts_with("Votes in team games are for accounts at least 7 days old"),
        "{}",
        refused.content()
    );
    // The same post, edited: one post for the window (a second made by a race is taken back).
    crate::support::until("one count of 3 votes", || async {
        let counts: Vec<_> = h
            .fake
            .posts_in(thread)
            .into_iter()
            .filter(|p| p.content.contains("so far"))
            .collect();
        counts.len() == 1 && counts[0].content.contains("3 votes so far")
    })
    .await;
    // An illegal vote is refused privately.
    let bad = h.slash(BOB, thread, "vote", &[("move", s("d1-d7"))]).await;
    assert!(bad.private());

    // bob is neither the captain nor a manager; alice (who started it) closes the window.
    let refused = h
        .fake
        .ask(not_a_manager(h.fake.slash(
            BOB,
            thread,
            "teamgame play",
            &[],
        )))
        .await;
    assert!(refused.private());
    assert!(
        refused
            .content()
            .contains("the server's managers, and the captain"),
        "{}",
        refused.content()
    );
    let closed = h.slash(ALICE, thread, "teamgame play", &[]).await;
    assert!(closed.private(), "{}", closed.content());
    let voted = h
        .fake
        .wait_post("the tally", |p| p.content.contains("voted **`1. d1-c1`**"))
        .await;
    assert_eq!(voted.channel, thread);
    assert!(
        voted
            .content
            .contains("**`1. d1-c1`** (2 of 3 votes; `d2-e2` 1)"),
        "{}",
        voted.content
    );
    assert!(!voted.files.is_empty(), "the board after the turn");
    let answer = h
        .fake
        .wait_post("taflbot's answer", |p| {
            p.content.starts_with("taflbot played ")
        })
        .await;
    assert!(
        answer.id > voted.id,
        "taflbot answers after the tally is shown"
    );
    assert_eq!(h.moves_stored(1).await, 2);

    let list = h.slash(BOB, CHANNEL, "teamgame list", &[]).await;
    assert!(
        list.content().contains("#1 Brandubh 7x7"),
        "{}",
        list.content()
    );
    let record = h.slash(BOB, CHANNEL, "teamgame record", &[]).await;
    assert!(
        record.content().contains("0 won, 0 drawn, 0 lost"),
        "{}",
        record.content()
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_roles_play_and_a_member_who_left_is_not_counted() {
    let h = Harness::start("team-roles").await;
    let (reds, blues) = (700_000_000_000_000_001, 700_000_000_000_000_002);
    h.fake.set_roles(BOB.id, &[reds]);
    h.fake.set_roles(CAROL.id, &[reds]);
    h.fake.set_roles(DAVE.id, &[blues]);
    let started = h
        .slash(
            ALICE,
            CHANNEL,
            "teamgame start",
            &[
                ("variant", s("brandubh")),
                ("attackers", Opt::Role(reds, "Reds")),
                ("defenders", Opt::UnmentionableRole(blues, "Blues")),
                ("ping", Opt::Bool(true)),
            ],
        )
        .await;
    assert!(
        started
            .content()
            .contains("Reds the attackers against Blues the defenders"),
        "{}",
        started.content()
    );
    // Blues may not be mentioned: the answer says its members will not be notified, and how to
    // change it; Reds may.
    assert!(
        started.content().contains(
            "Discord will notify nobody when taflbot pings @Blues, as the role is not mentionable."
        ),
        "{}",
        started.content()
    );
    assert!(
        !started.content().contains("@Reds"),
        "{}",
        started.content()
    );
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.content.starts_with("Game #1:"))
        .await;
    let thread = opening.channel;
    // alice holds neither role.
    let neither = h
        .slash(ALICE, thread, "vote", &[("move", s("d2-e2"))])
        .await;
    assert!(neither.private());
    assert!(
        neither
            .content()
            .contains("do not vote for either side of game #1"),
        "{}",
        neither.content()
    );
    // The blues wait for their window.
    let early = h.slash(DAVE, thread, "vote", &[("move", s("c4-c3"))]).await;
    assert!(
        early.content().contains("is not your side's"),
        "{}",
        early.content()
    );
    h.slash(BOB, thread, "vote", &[("move", s("d2-e2"))]).await;
    h.slash(CAROL, thread, "vote", &[("move", s("d2-e2"))])
        .await;
    // carol votes d1-c1 after all; then bob leaves the server: d1-c1 wins 1 to 0.
    h.slash(CAROL, thread, "vote", &[("move", s("d1-c1"))])
        .await;
    h.fake.leave(BOB.id);
    let closed = h.slash(ALICE, thread, "teamgame play", &[]).await;
    assert!(closed.private(), "{}", closed.content());
    let voted = h
        .fake
        .wait_post("the tally", |p| p.content.starts_with("Reds voted"))
        .await;
    assert!(
        voted.content.contains("`1. d1-c1`** (1 of 1 vote)"),
        "{}",
        voted.content
    );
    // The reds' voters were asked after: one member lookup each.
    let lookups = h
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.method == "GET" && c.path.contains("/members/"))
        .count();
    assert_eq!(lookups, 2);
    // The blues' window pings their role a quarter of its 24 hours before it closes.
    h.clock.advance(18 * 3600 + 60);
    let reminder = h
        .fake
        .wait_post("the reminder", |p| {
            p.content.starts_with(&format!("<@&{blues}>"))
        })
        .await;
    assert_eq!(reminder.channel, thread);
    assert!(reminder.content.contains("Blues"), "{}", reminder.content);
    // A member who does not manage the server may not call the game off; a manager may, at any
    // move, and the thread is told.
    let stranger = h
        .fake
        .ask(not_a_manager(h.fake.slash(
            DAVE,
            thread,
            "teamgame cancel",
            &[],
        )))
        .await;
    assert!(
        stranger
            .content()
            .contains("Only someone who manages this server may do that."),
        "{}",
        stranger.content()
    );
    let called = h.slash(ALICE, thread, "teamgame cancel", &[]).await;
    assert!(called.private());
    assert_eq!(called.content(), "Team game #1 is called off.");
    let told = h
        .fake
        .wait_post("the call-off", |p| {
            p.content.contains("called the game off")
        })
        .await;
    assert_eq!(told.channel, thread);
    assert!(told.pings.is_empty(), "{:?}", told.pings);
    h.shutdown().await;
}
