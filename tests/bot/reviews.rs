//! Reviews of finished games: the turn that lost at once is a blunder with the better turn named,
//! a review is stored once made, and a game still going or from another server is refused.

use taflbot::engine::review::{Mark, BUDGET, MOST_TURNS};
use taflbot::engine::{think, Settings};
use taflbot::rules::random::Rng;
use taflbot::rules::{Game, Reason, Side, Variant};
use taflbot::service::{Scope, ServiceError, SideChoice};

use crate::support::{
    alice, bob, brandubh_game, carol, review_body, service_at, set_review_body, T0,
};

/// Whether the side to move can win with one move.
fn wins_at_once(game: &Game) -> bool {
    let side = game.position().turn();
    game.legal_moves().into_iter().any(|m| {
        let mut g = game.clone();
        g.play(m).is_ok() && g.outcome().is_some_and(|o| o.winner == Some(side))
    })
}

/// A Brandubh game: level 3 (the attackers) against level 1, until the attackers, in a position they have not lost
/// (the engine sees no forced loss on the review's budget), play a move that lets the king out;
/// he escapes at once. The moves as a player types them.
fn let_out() -> Vec<String> {
    (0..50)
        .find_map(let_out_with)
        .expect("a game where the attackers let the king out")
}

/// [`let_out`] with the defenders' chance drawn from `seed`; `None` when that game ends first.
fn let_out_with(seed: u64) -> Option<Vec<String>> {
    let brandubh = Variant::by_id("brandubh").unwrap();
    let mut game = Game::new(brandubh);
    let mut moves = Vec::new();
    let review_budget = Settings::nodes(BUDGET);
    loop {
        if game.outcome().is_some() || moves.len() > 200 {
            return None;
        }
        let attackers = game.position().turn() == Side::Attackers;
        let lost = think(&game, &review_budget)
            .unwrap()
            .won_in
            .is_some_and(|n| n < 0);
        let fatal = game.legal_moves().into_iter().find(|&m| {
            let mut g = game.clone();
            g.play(m).is_ok() && g.outcome().is_none() && wins_at_once(&g)
        });
        if let (true, false, Some(m)) = (attackers, lost, fatal) {
            moves.push(taflbot::notation::canonical(game.position(), m));
            game.play(m).unwrap();
            let escape = game
                .legal_moves()
                .into_iter()
                .find(|&m| {
                    let mut g = game.clone();
                    g.play(m).is_ok() && g.outcome().is_some()
                })
                .unwrap();
            moves.push(taflbot::notation::canonical(game.position(), escape));
            return Some(moves);
        }
        // The defenders play weakly (level 1), so that the attackers stand well meanwhile.
        let level = if attackers { 3 } else { 1 };
        let turn = think(&game, &Settings::level(level, seed + moves.len() as u64)).unwrap();
        for m in turn.moves() {
            moves.push(taflbot::notation::canonical(game.position(), m));
            game.play(m).unwrap();
        }
    }
}

#[tokio::test]
async fn the_move_that_let_the_king_out_is_a_blunder_with_the_better_turn_named() {
    let (svc, _) = service_at(":memory:", T0).await;
    let moves = let_out();
    let id = brandubh_game(&svc, &alice(), &bob()).await;
    // Still going: refused.
    let early = svc.review(&alice(), Some(id), None).await.unwrap_err();
    assert!(matches!(early, ServiceError::ReviewOfLiveGame(g) if g == id));
    assert_eq!(
        early.to_string(),
        format!(
            "game #{id} is still going: a review comes after it ends (a hint is the engine's help in a game against taflbot)"
        )
    );
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        svc.play(&who, Some(id), None, mv).await.unwrap();
    }
    let view = svc.game(id).await.unwrap();
    assert_eq!(view.outcome.unwrap().reason, Reason::KingEscaped);

    // Anyone may ask (carol did not play), and without a game number a player gets their latest.
    let r = svc.review(&carol(), Some(id), None).await.unwrap();
    assert!(r.fresh);
    assert_eq!(r.review.turns.len(), moves.len());
    let turns = &r.review.turns;
    let fatal = &turns[turns.len() - 2];
    assert_eq!(fatal.side, Side::Attackers);
    assert_eq!(fatal.played, [moves[moves.len() - 2].clone()]);
    assert_eq!(fatal.mark, Some(Mark::Blunder), "{fatal:?}");
    assert_eq!(fatal.after, 0.0, "the king escapes by force after it");
    let better = fatal.better.clone().expect("the better turn");
    assert_ne!(better, fatal.played);
    // The better turn keeps the king in.
    let brandubh = Variant::by_id("brandubh").unwrap();
    let mut before = Game::new(brandubh);
    for mv in &moves[..moves.len() - 2] {
        taflbot::notation::play_turn(&mut before, mv, taflbot::notation::TurnEnd::Whole).unwrap();
    }
    taflbot::notation::play_turn(
        &mut before,
        &better.join(" "),
        taflbot::notation::TurnEnd::Whole,
    )
    .unwrap();
    assert!(!wins_at_once(&before), "{better:?}");
    // The escape itself is the defenders' best: no mark; every mark's turn names a better one.
    assert_eq!(turns.last().unwrap().mark, None);
    assert!(turns.iter().all(|t| t.mark.is_none() == t.better.is_none()));
    assert!(r.review.marks(Side::Attackers)[2] >= 1);
    let accuracy = r.review.accuracy(Side::Attackers).unwrap();
    assert!((0.0..100.0).contains(&accuracy), "{accuracy}");
    let said = taflbot::service::text::review(&r, &taflbot::service::text::Plain);
    assert!(
        said.contains(&format!("Review of game #{id} (Brandubh 7x7)")),
        "{said}"
    );
    assert!(said.contains("??"), "{said}");
    assert!(said.chars().count() <= 2000);
    let chart = svc.review_chart(&alice(), &r).await.unwrap().unwrap();
    assert_eq!(&chart[1..4], b"PNG");

    // Asked again, it is read back, the same.
    let again = svc.review(&bob(), None, None).await.unwrap();
    assert!(!again.fresh);
    assert_eq!(again.review, r.review);
    // A damaged row is made again rather than failing.
    set_review_body(&svc, id, "garbage").await;
    let remade = svc.review(&alice(), Some(id), None).await.unwrap();
    assert!(remade.fresh);
    assert_eq!(remade.review, r.review);
    // So is one judged by other weights or another curve (a taught set since replaced).
    let body = review_body(&svc, id).await;
    let judge = body
        .split("\"judge\":\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert_eq!(judge.len(), 32, "{body}");
    set_review_body(&svc, id, &body.replace(judge, &"0".repeat(32))).await;
    let rejudged = svc.review(&bob(), Some(id), None).await.unwrap();
    assert!(rejudged.fresh);
    assert_eq!(rejudged.review, r.review);
}

#[tokio::test]
async fn reviews_are_refused_for_other_servers_and_for_nothing_to_review() {
    let (svc, _) = service_at(":memory:", T0).await;
    let nothing = svc.review(&alice(), None, None).await.unwrap_err();
    assert_eq!(
        nothing.to_string(),
        "you have no finished game here: name one with `game:`"
    );
    let here = svc.scoped(Scope::Server("1".into()));
    let id = brandubh_game(&here, &alice(), &bob()).await;
    here.resign(&alice(), Some(id), None).await.unwrap();
    let elsewhere = svc.scoped(Scope::Server("2".into()));
    let refused = elsewhere
        .review(&carol(), Some(id), None)
        .await
        .unwrap_err();
    assert!(
        matches!(refused, ServiceError::OtherServer(g) if g == id),
        "{refused}"
    );
    // In its own server it is reviewed: a game of no turns has no accuracy.
    let r = here.review(&carol(), Some(id), None).await.unwrap();
    assert!(r.review.turns.is_empty());
    assert_eq!(r.review.accuracy(Side::Attackers), None);
    // Asked without a game, a player gets their latest finished game of this server, though a
    // later one was played in another.
    let there = brandubh_game(&elsewhere, &alice(), &bob()).await;
    elsewhere.resign(&alice(), Some(there), None).await.unwrap();
    assert_eq!(here.review(&alice(), None, None).await.unwrap().game.id, id);
    assert_eq!(
        elsewhere.review(&bob(), None, None).await.unwrap().game.id,
        there
    );
    // In a direct message no server's game is seen.
    let direct = svc.scoped(Scope::Direct);
    let none = direct.review(&alice(), None, None).await.unwrap_err();
    assert!(matches!(none, ServiceError::NothingToReview), "{none}");
}

/// `turns` moves of Copenhagen that capture nothing, end nothing and never come back to a
/// position seen before, drawn from `seed`: a game as long as anyone cares to make it.
fn long_quiet_game(turns: usize, seed: u64) -> Vec<String> {
    let mut game = Game::new(Variant::by_id("copenhagen").unwrap());
    let mut seen = std::collections::HashSet::from([game.position().hash()]);
    let mut rng = Rng::new(seed);
    let mut moves = Vec::with_capacity(turns);
    while moves.len() < turns {
        let legal = game.legal_moves();
        let quiet = (0..legal.len())
            .map(|i| legal[(i + rng.below(legal.len())) % legal.len()])
            .find_map(|m| {
                let mut g = game.clone();
                let played = g.play(m).ok()?;
                let fresh = played.captures.is_empty()
                    && g.outcome().is_none()
                    && !seen.contains(&g.position().hash());
                fresh.then_some((m, g))
            })
            .expect("a quiet move to a new position");
        moves.push(taflbot::notation::canonical(game.position(), quiet.0));
        game = quiet.1;
        seen.insert(game.position().hash());
    }
    moves
}

/// No game holds the engine for long: a game of more turns than a review takes is refused, and
/// says how long it is and what a review takes.
#[tokio::test]
async fn a_game_longer_than_a_review_takes_is_refused() {
    let (svc, _) = service_at(":memory:", T0).await;
    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "copenhagen",
            SideChoice::Attackers,
            None,
            None,
        )
        .await
        .unwrap();
    let id = svc.accept(&bob(), Some(c.id), None).await.unwrap().id;
    let moves = long_quiet_game(MOST_TURNS + 1, 5);
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        svc.play(&who, Some(id), None, mv).await.unwrap();
    }
    svc.resign(&alice(), Some(id), None).await.unwrap();
    let refused = svc.review(&carol(), Some(id), None).await.unwrap_err();
    assert!(
        matches!(refused, ServiceError::ReviewTooLong { id: g, turns } if g == id && turns == MOST_TURNS + 1),
        "{refused}"
    );
    assert_eq!(
        refused.to_string(),
        format!(
            "game #{id} is too long to review: it has {} turns, and a review takes at most {MOST_TURNS}",
            MOST_TURNS + 1
        )
    );
}

#[tokio::test]
async fn a_game_asked_to_be_reviewed_by_several_at_once_is_searched_once() {
    let (svc, _) = service_at(":memory:", T0).await;
    let id = brandubh_game(&svc, &alice(), &bob()).await;
    let mut game = Game::new(Variant::by_id("brandubh").unwrap());
    for i in 0..4 {
        let m = game.legal_moves()[0];
        let mv = taflbot::notation::canonical(game.position(), m);
        game.play(m).unwrap();
        let who = if i % 2 == 0 { alice() } else { bob() };
        svc.play(&who, Some(id), None, &mv).await.unwrap();
    }
    svc.resign(&alice(), Some(id), None).await.unwrap();
    // Five players ask at once, before any review is stored.
    let askers: Vec<taflbot::service::Person> = (0..5)
        .map(|i| taflbot::service::Person::new(format!("r{i}"), format!("reader{i}")))
        .collect();
    let answers =
        futures_util::future::join_all(askers.iter().map(|p| svc.review(p, Some(id), None))).await;
    let reviews: Vec<_> = answers.into_iter().map(Result::unwrap).collect();
    let fresh = reviews.iter().filter(|r| r.fresh).count();
    assert_eq!(fresh, 1, "one search; the other four read what it stored");
    assert!(reviews.iter().all(|r| r.review == reviews[0].review));
}
