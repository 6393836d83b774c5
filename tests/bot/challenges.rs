//! Challenges: made, answered, lapsed, withdrawn and declined, a random side drawn once, and no
//! pestering; on Discord, answered by button, refused when one is open, and the game's thread
//! with the moves posted there.

use std::sync::Arc;

use taflbot::service::text::{self, Plain};
use taflbot::service::{Person, Service, ServiceError, SideChoice, TestClock, DAY};

use crate::fake_discord::{s, Member, Opt};
use crate::support::{
    alice, bob, carol, is_png, opponent, person, png_of, service_at, told_played, Harness, ALICE,
    BOB, CAROL, CHANNEL, T0,
};

async fn service(url: &str) -> (Service, Arc<TestClock>) {
    service_at(url, T0).await
}

/// Save the Standard's sides are Red and Gold in every message of a game: the challenge, the
/// game's news and its pictures' headers.
#[tokio::test]
async fn save_the_standard_names_its_sides_red_and_gold_from_the_challenge_on() {
    let (svc, _) = service(":memory:").await;
    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "standard-7",
            SideChoice::Attackers,
            None,
            Some("chan"),
        )
        .await
        .unwrap();
    let said = text::challenge_made(&c, &Plain);
    assert!(said.contains(": alice plays Red, "), "{said}");
    assert!(!said.contains("attackers"), "{said}");
    let view = svc.accept(&bob(), Some(c.id), None).await.unwrap();
    let begun = text::news(&taflbot::service::News::Started, &view, &Plain);
    assert!(
        !begun.contains("attackers") && !begun.contains("defenders"),
        "{begun}"
    );
    assert!(begun.contains("Red") && begun.contains("Gold"), "{begun}");
    // A challenge of the other kind keeps its own words.
    let c = svc
        .challenge(
            &carol(),
            &bob(),
            "brandubh",
            SideChoice::Defenders,
            None,
            None,
        )
        .await
        .unwrap();
    let said = text::challenge_made(&c, &Plain);
    assert!(said.contains(": carol plays the defenders, "), "{said}");
}

#[tokio::test]
async fn a_challenge_accepted_becomes_a_game_that_is_played() {
    let (svc, _) = service(":memory:").await;
    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "tyr-11",
            SideChoice::Attackers,
            Some(5),
            Some("chan"),
        )
        .await
        .unwrap();
    assert_eq!(c.days, 5);
    let view = svc.accept(&bob(), None, None).await.unwrap();
    assert_eq!(view.players.attackers.name, "alice");
    assert_eq!(view.waiting_for.as_ref().unwrap().name, "alice");
    assert_eq!(view.deadline, T0 + 5 * DAY);
    let played = svc
        .play(&alice(), None, Some("chan"), "d1-d3")
        .await
        .unwrap();
    assert_eq!(played.view.last_turn, vec!["d1-d3"]);
    let said = text::news(&played.news, &played.view, &Plain);
    assert!(
        said.starts_with("alice played 1. d1-d3. Game #1: bob (defenders) to move"),
        "{said}"
    );
    assert_eq!(&played.png[1..4], b"PNG");
    svc.play(&bob(), Some(view.id), None, "e5-e2")
        .await
        .unwrap();
    let (board, png) = svc
        .board(&carol(), Some(view.id), None, true)
        .await
        .unwrap();
    assert_eq!(board.turns, 2);
    assert!(!png.is_empty());
    let record = svc.record(&alice(), Some(view.id), None).await.unwrap();
    assert!(
        record.contains("[Attackers \"alice\"]") && record.contains("1... e5-e2"),
        "{record}"
    );
    let games = svc.games(&alice()).await.unwrap();
    assert_eq!(games.len(), 1);
    assert!(games[0].your_turn);
    assert_eq!(games[0].opponent.name, "bob");
}

#[tokio::test]
async fn challenges_lapse_after_a_week() {
    let (svc, clock) = service(":memory:").await;
    let c = svc
        .challenge(&alice(), &bob(), "tyr-11", SideChoice::Random, None, None)
        .await
        .unwrap();
    clock.advance(7 * DAY);
    svc.sweep().await.unwrap();
    let late = svc.accept(&bob(), Some(c.id), None).await.unwrap_err();
    assert_eq!(
        late.to_string(),
        format!("challenge #{} is no longer open (expired)", c.id)
    );
    let c2 = svc
        .challenge(&alice(), &bob(), "tyr-11", SideChoice::Random, None, None)
        .await
        .unwrap();
    assert_eq!(svc.withdraw(&alice(), Some(c2.id)).await.unwrap().id, c2.id);
    let gone = svc.accept(&bob(), Some(c2.id), None).await.unwrap_err();
    assert_eq!(
        gone.to_string(),
        format!("challenge #{} is no longer open (withdrawn)", c2.id)
    );
    clock.advance(taflbot::service::CHALLENGE_COOLDOWN);
    let c3 = svc
        .challenge(&alice(), &bob(), "tyr-11", SideChoice::Random, None, None)
        .await
        .unwrap();
    assert_eq!(svc.decline(&bob(), None).await.unwrap().id, c3.id);
    assert_eq!(
        svc.decline(&bob(), None).await.unwrap_err().to_string(),
        "you have no open challenge to answer"
    );
}

#[tokio::test]
async fn a_random_side_is_drawn_when_the_challenge_is_made_and_kept() {
    let (svc, clock) = service(":memory:").await;
    let mut attacked = [0, 0];
    for i in 0..64 {
        let challenger = Person::new(format!("c{i}"), format!("c{i}"));
        let c = svc
            .challenge(
                &challenger,
                &bob(),
                "tablut",
                SideChoice::Random,
                None,
                None,
            )
            .await
            .unwrap();
        let drawn: Option<i64> =
            sqlx::query_scalar("SELECT challenger_attacks FROM challenges WHERE id = $1")
                .bind(c.id)
                .fetch_one(svc.pool())
                .await
                .unwrap();
        let drawn = drawn.expect("drawn when the challenge is made") == 1;
        // Whenever it is accepted, the drawn side holds.
        clock.advance(1 + i64::from(i % 7));
        let view = svc.accept(&bob(), Some(c.id), None).await.unwrap();
        assert_eq!(view.players.attackers.key == challenger.key, drawn);
        attacked[usize::from(drawn)] += 1;
    }
    // Both sides come up (a fair coin fails this once in 2^63 runs).
    assert!(attacked[0] > 0 && attacked[1] > 0, "{attacked:?}");
}

#[tokio::test]
async fn challenges_cannot_be_used_to_pester() {
    let (svc, clock) = service(":memory:").await;
    let challenge = |from: Person, to: Person| {
        let svc = svc.clone();
        async move {
            svc.challenge(&from, &to, "tablut", SideChoice::Random, None, None)
                .await
        }
    };
    let first = challenge(alice(), bob()).await.unwrap();
    for (from, to) in [(alice(), bob()), (bob(), alice())] {
        let e = challenge(from, to).await.unwrap_err();
        assert!(
            matches!(e, ServiceError::ChallengeOpen(id) if id == first.id),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "challenge #{} between you two is still open: answer or withdraw it first",
                first.id
            )
        );
    }
    // Declined: not again at once, but after the cooldown.
    svc.decline(&bob(), Some(first.id)).await.unwrap();
    let e = challenge(alice(), bob()).await.unwrap_err();
    assert!(matches!(e, ServiceError::ChallengeCooldown(_)), "{e}");
    clock.advance(taflbot::service::CHALLENGE_COOLDOWN);
    challenge(alice(), bob()).await.unwrap();
    // At most five open at once.
    for i in 0..4 {
        challenge(alice(), Person::new(format!("p{i}"), format!("p{i}")))
            .await
            .unwrap();
    }
    let e = challenge(alice(), carol()).await.unwrap_err();
    assert_eq!(
        e.to_string(),
        "you have 5 open challenges, the most there may be: wait for answers or withdraw one"
    );
}

// ----- on Discord, end to end -----

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
    assert!(is_png(png_of(&opening)));
    let game: i64 = 1;
    let first = h.service.game(game).await.unwrap().waiting_for.unwrap();
    assert_eq!(opening.pings, std::slice::from_ref(&first.key));

    // Moves in the thread: each answered with the board, naming the next player.
    for _ in 0..4 {
        let (who, mv) = h.a_move(game).await;
        let before = h.moves_stored(game).await;
        let answer = h.play(who, thread, &mv).await;
        assert_eq!(answer.kind(), 4);
        assert!(!answer.private());
        assert!(is_png(answer.png()), "the answer carries the board");
        assert!(
            answer.content().contains(&format!("{} played", who.name))
                && told_played(&answer.content(), &mv),
            "{}",
            answer.content()
        );
        let next = opponent(who);
        assert_eq!(answer.pings(), [next.id.to_string()]);
        assert!(answer
            .content()
            .contains(&format!("<@{}>, your move.", next.id)));
        assert_eq!(h.moves_stored(game).await, before + 1);
    }
    h.shutdown().await;
}

/// The challenge commands by name, not by button: decline, cancel (withdraw) and accept, each
/// naming its challenge.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_answered_and_withdrawn_by_command() {
    async fn challenge(h: &Harness, who: Member, whom: Member) -> crate::fake_discord::Call {
        let options = [("opponent", Opt::User(whom)), ("variant", s("brandubh"))];
        h.slash(who, CHANNEL, "challenge", &options).await
    }
    let h = Harness::start("answered").await;
    let number = |c: &crate::fake_discord::Call| -> i64 {
        let text = c.content();
        let at = text.find("Challenge #").expect("a challenge number") + "Challenge #".len();
        text[at..]
            .split(|ch: char| !ch.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let to_bob = challenge(&h, ALICE, BOB).await;
    let declined = h
        .slash(
            BOB,
            CHANNEL,
            "decline",
            &[("challenge", Opt::Int(number(&to_bob)))],
        )
        .await;
    assert!(
        declined
            .content()
            .starts_with(&format!("bob declined challenge #{}", number(&to_bob))),
        "{}",
        declined.content()
    );
    let to_carol = challenge(&h, ALICE, CAROL).await;
    let withdrawn = h.slash(ALICE, CHANNEL, "cancel", &[]).await;
    assert_eq!(
        withdrawn.content(),
        format!("alice withdrew challenge #{}.", number(&to_carol))
    );
    let from_carol = challenge(&h, CAROL, BOB).await;
    let accepted = h
        .slash(
            BOB,
            CHANNEL,
            "accept",
            &[("challenge", Opt::Int(number(&from_carol)))],
        )
        .await;
    assert!(
        accepted.content().starts_with("bob accepted: game #"),
        "{}",
        accepted.content()
    );
    assert_eq!(h.service.games(&person(BOB)).await.unwrap().len(), 1);
    h.shutdown().await;
}
