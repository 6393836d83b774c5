//! Tournaments through the service: a round robin of four plays its twelve games and stands in
//! the order of its results; a knockout of five runs with its byes; a Swiss pairs each round as
//! the last game of the one before ends, never a rematch; a player who leaves forfeits; and each
//! wrong request is refused with nothing changed.

use std::collections::HashSet;

use taflbot::rules::Variant;
use taflbot::service::{
    Format, Person, Scope, Service, ServiceError, TournamentTerms, TournamentView,
};

use taflbot::service::DAY;

use crate::support::{a_turn_each, alice, bob, carol, service_at, turns, T0};

fn person(n: usize) -> Person {
    match n {
        0 => alice(),
        1 => bob(),
        2 => carol(),
        3..=6 => Person::new(
            format!("u{}", n + 1),
            ["dave", "erin", "frank", "gwen"][n - 3],
        ),
        n => Person::new(format!("u{}", n + 1), format!("player{n}")),
    }
}

fn terms(format: Format) -> TournamentTerms<'static> {
    TournamentTerms {
        variant: Variant::by_id("brandubh").unwrap(),
        format,
        name: None,
        days: None,
        rated: true,
        rounds: None,
        players: None,
    }
}

/// A tournament of `n` players (alice creates it, the others join in order) in `format`.
async fn with_players(svc: &Service, format: Format, n: usize) -> TournamentView {
    let t = svc
        .create_tournament(&alice(), &terms(format), Some("chan"))
        .await
        .unwrap();
    for i in 1..n {
        svc.join_tournament(&person(i), Some(t.id)).await.unwrap();
    }
    svc.tournament(Some(t.id)).await.unwrap()
}

/// The games of the tournament still going, with their players (attacker, defender).
async fn going(svc: &Service) -> Vec<(i64, Person, Person)> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM games WHERE tournament_id IS NOT NULL AND status = 'active' ORDER BY id",
    )
    .fetch_all(svc.pool())
    .await
    .unwrap();
    let mut out = Vec::new();
    for id in ids {
        let v = svc.game(id).await.unwrap();
        out.push((id, v.players.attackers.clone(), v.players.defenders.clone()));
    }
    out
}

/// Plays a game to a result: a turn each, then the loser resigns.
async fn won_by(svc: &Service, game: i64, winner: &Person) {
    a_turn_each(svc, game).await;
    let v = svc.game(game).await.unwrap();
    let loser = if &v.players.attackers == winner {
        v.players.defenders.clone()
    } else {
        v.players.attackers.clone()
    };
    svc.resign(&loser, Some(game), None).await.unwrap();
}

/// The winner of a tournament, which must have finished.
async fn winner(svc: &Service, id: i64) -> Option<Person> {
    let done = svc.tournament(Some(id)).await.unwrap();
    assert_eq!(done.status.as_str(), "finished");
    done.winner
}

/// The players in standing order, with their half points.
async fn table(svc: &Service, id: i64) -> Vec<(String, u32)> {
    let table = svc.tournament_standings(Some(id)).await.unwrap();
    table
        .lines
        .into_iter()
        .map(|l| (l.person.name, l.line.points))
        .collect()
}

#[tokio::test]
async fn a_four_player_round_robin_plays_twelve_games_and_stands_in_the_order_of_its_results() {
    let (svc, _) = service_at(":memory:", T0).await;
    let t = with_players(&svc, Format::RoundRobin, 4).await;
    assert_eq!(t.players.len(), 4);
    let started = svc
        .start_tournament(&alice(), Some(t.id), false)
        .await
        .unwrap();
    assert_eq!(started.games.len(), 12);
    assert!(started.byes.is_empty());
    // Each pair twice, once on each side.
    let games = going(&svc).await;
    let sides: HashSet<(String, String)> = games
        .iter()
        .map(|(_, a, d)| (a.name.clone(), d.name.clone()))
        .collect();
    assert_eq!(sides.len(), 12);
    for a in 0..4 {
        for d in 0..4 {
            let pair = (person(a).name, person(d).name);
            assert_eq!(sides.contains(&pair), a != d, "{pair:?}");
        }
    }
    // Who wins: dave beats everyone, carol all but dave, bob only alice.
    let rank = |p: &Person| {
        ["dave", "carol", "bob", "alice"]
            .iter()
            .position(|n| *n == p.name)
    };
    for (id, a, d) in games {
        let winner = if rank(&a) < rank(&d) { a } else { d };
        won_by(&svc, id, &winner).await;
    }
    assert_eq!(
        table(&svc, t.id).await,
        [
            ("dave".to_string(), 12),
            ("carol".to_string(), 8),
            ("bob".to_string(), 4),
            ("alice".to_string(), 0)
        ]
    );
    assert_eq!(
        winner(&svc, t.id).await.map(|p| p.name),
        Some("dave".to_string())
    );
}

#[tokio::test]
async fn ten_players_play_in_two_groups_and_the_group_winners_meet_in_a_final() {
    let (svc, _) = service_at(":memory:", T0).await;
    let t = with_players(&svc, Format::RoundRobin, 10).await;
    let started = svc
        .start_tournament(&alice(), Some(t.id), false)
        .await
        .unwrap();
    // Two groups of five (seeds 0 3 4 7 8 and 1 2 5 6 9): ten matches each.
    assert_eq!(started.games.len(), 40);
    // The one who joined first wins each game.
    let order = |p: &Person| (0..10).position(|i| person(i) == *p);
    for (id, a, d) in going(&svc).await {
        let winner = if order(&a) < order(&d) { a } else { d };
        won_by(&svc, id, &winner).await;
    }
    // The group winners: alice (seed 0) and bob (seed 1).
    let final_round = going(&svc).await;
    let finalists: HashSet<String> = final_round
        .iter()
        .flat_map(|(_, a, d)| [a.name.clone(), d.name.clone()])
        .collect();
    assert_eq!(
        finalists,
        HashSet::from(["alice".to_string(), "bob".to_string()])
    );
    assert_eq!(svc.tournament(Some(t.id)).await.unwrap().stage, 2);
    for (id, _, _) in final_round {
        won_by(&svc, id, &bob()).await;
    }
    assert_eq!(winner(&svc, t.id).await, Some(bob()));
}

#[tokio::test]
async fn a_five_player_knockout_runs_with_its_byes() {
    let (svc, _) = service_at(":memory:", T0).await;
    let t = with_players(&svc, Format::Knockout, 5).await;
    let started = svc
        .start_tournament(&alice(), Some(t.id), false)
        .await
        .unwrap();
    // Seeds by rating, all 1500: the order of joining. Seeds 0, 1 and 2 sit the round out;
    // 3 (dave) meets 4 (erin).
    let byes: Vec<String> = started.byes.iter().map(|p| p.name.clone()).collect();
    assert_eq!(byes, ["alice", "bob", "carol"]);
    assert_eq!(started.games.len(), 2);
    for (id, _, _) in going(&svc).await {
        won_by(&svc, id, &person(4)).await;
    }
    // Round 2: alice (seed 0) meets erin, bob meets carol.
    let round2 = going(&svc).await;
    let pairs: HashSet<(String, String)> = round2
        .iter()
        .map(|(_, a, d)| {
            let mut pair = [a.name.clone(), d.name.clone()];
            pair.sort();
            (pair[0].clone(), pair[1].clone())
        })
        .collect();
    assert_eq!(
        pairs,
        HashSet::from([
            ("alice".to_string(), "erin".to_string()),
            ("bob".to_string(), "carol".to_string())
        ])
    );
    for (id, a, d) in round2 {
        // erin goes on; bob and carol split their match, each winning as the attacker in games
        // of the same length.
        let winner = if a.name == "erin" || d.name == "erin" {
            person(4)
        } else {
            a.clone()
        };
        won_by(&svc, id, &winner).await;
    }
    let final_round = going(&svc).await;
    assert_eq!(final_round.len(), 2, "the final");
    let finalists: HashSet<String> = final_round
        .iter()
        .flat_map(|(_, a, d)| [a.name.clone(), d.name.clone()])
        .collect();
    // bob and carol each won as attackers in games of the same length: the higher seed, bob.
    assert_eq!(
        finalists,
        HashSet::from(["erin".to_string(), "bob".to_string()])
    );
    for (id, _, _) in final_round {
        won_by(&svc, id, &person(4)).await;
    }
    assert_eq!(
        winner(&svc, t.id).await.map(|p| p.name),
        Some("erin".to_string())
    );
}

#[tokio::test]
async fn a_swiss_pairs_each_round_when_the_last_game_of_the_one_before_ends() {
    let (svc, _) = service_at(":memory:", T0).await;
    let t = with_players(&svc, Format::Swiss, 6).await;
    svc.start_tournament(&alice(), Some(t.id), false)
        .await
        .unwrap();
    let mut met = HashSet::new();
    for round in 1..=3 {
        let games = going(&svc).await;
        assert_eq!(games.len(), 6, "round {round}: three matches of two games");
        assert_eq!(svc.tournament(Some(t.id)).await.unwrap().stage, round);
        for (_, a, d) in &games {
            let mut pair = [a.key.clone(), d.key.clone()];
            pair.sort();
            met.insert(pair);
        }
        // The first game of each match goes to its attacker; the second is not over yet, so
        // the round is not.
        let (first_half, second_half) = games.split_at(3);
        for (id, a, _) in first_half {
            won_by(&svc, *id, a).await;
        }
        assert_eq!(svc.tournament(Some(t.id)).await.unwrap().stage, round);
        for (id, a, _) in second_half {
            won_by(&svc, *id, a).await;
        }
    }
    // Three rounds of three matches: nine pairs, none twice.
    assert_eq!(met.len(), 9);
    assert!(going(&svc).await.is_empty());
    let done = svc.tournament(Some(t.id)).await.unwrap();
    assert_eq!((done.status.as_str(), done.stage), ("finished", 3));
    let points: u32 = table(&svc, t.id).await.iter().map(|(_, p)| p).sum();
    assert_eq!(points, 18 * 2, "eighteen games of two half points each");
}

#[tokio::test]
async fn a_player_who_leaves_after_the_start_forfeits_the_games_still_going() {
    let (svc, _) = service_at(":memory:", T0).await;
    let t = with_players(&svc, Format::RoundRobin, 3).await;
    svc.start_tournament(&alice(), Some(t.id), false)
        .await
        .unwrap();
    assert_eq!(going(&svc).await.len(), 6);
    let gone = svc.leave_tournament(&carol(), Some(t.id)).await.unwrap();
    let said = taflbot::service::text::tournament_done(
        &carol(),
        &gone,
        taflbot::service::TournamentDone::Left,
        &taflbot::service::text::Plain,
    );
    assert!(
        said.ends_with("their games still going are lost by forfeit, rated as the tournament is."),
        "{said}"
    );
    // carol's four games are lost by forfeit, rated as the tournament is (leaving is no way out
    // of a rating loss); alice and bob play on.
    let left = going(&svc).await;
    assert_eq!(left.len(), 2);
    let forfeits: Vec<(String, i64)> = sqlx::query_as(
        "SELECT reason, rated FROM games WHERE tournament_id = $1 AND status = 'finished'",
    )
    .bind(t.id)
    .fetch_all(svc.pool())
    .await
    .unwrap();
    assert_eq!(forfeits, vec![("forfeit".to_string(), 1); 4]);
    let brandubh = Variant::by_id("brandubh").unwrap();
    let hers = svc.rating(&carol(), brandubh).await.unwrap().unwrap();
    assert!(hers.rating < 1400.0, "{hers:?}");
    let alices = svc.rating(&alice(), brandubh).await.unwrap().unwrap();
    assert!(alices.rating > 1500.0, "{alices:?}");
    let view = svc.tournament(Some(t.id)).await.unwrap();
    assert!(view
        .players
        .iter()
        .any(|e| e.person == carol() && e.withdrawn));
    // A forfeited game still reads back and replays.
    let (game, _, _) = sqlx::query_as::<_, (i64, i64, i64)>(
        "SELECT id, attacker, defender FROM games WHERE reason = 'forfeit' LIMIT 1",
    )
    .fetch_one(svc.pool())
    .await
    .unwrap();
    assert!(svc.game(game).await.unwrap().outcome.is_some());
    for (id, a, _) in left {
        won_by(&svc, id, &a).await;
    }
    assert_ne!(winner(&svc, t.id).await, Some(carol()));
    // carol took nothing: her forfeits count for the others' points only.
    let standings = table(&svc, t.id).await;
    assert_eq!(standings.last().unwrap(), &("carol".to_string(), 0));
}

#[tokio::test]
async fn wrong_requests_are_refused_and_change_nothing() {
    let (svc, _) = service_at(":memory:", T0).await;
    let here = svc.scoped(Scope::Server("g1".into()));
    let t = here
        .create_tournament(&alice(), &terms(Format::RoundRobin), Some("chan"))
        .await
        .unwrap();
    // An account too new for rated play cannot join a rated tournament: its games are rated.
    let newcomer = here.join_tournament_as(&person(9), None, true).await;
    assert!(
        matches!(&newcomer, Err(ServiceError::TooNewToRate(p)) if *p == person(9)),
        "{newcomer:?}"
    );
    here.join_tournament(&bob(), None).await.unwrap();
    assert!(matches!(
        here.join_tournament(&bob(), None).await,
        Err(ServiceError::AlreadyJoined(id)) if id == t.id
    ));
    assert!(matches!(
        here.start_tournament(&alice(), None, false).await,
        Err(ServiceError::TooFewPlayers { have: 2, need: 3 })
    ));
    here.join_tournament(&carol(), None).await.unwrap();
    assert!(matches!(
        here.start_tournament(&bob(), None, false).await,
        Err(ServiceError::NotOrganiser(_))
    ));
    // Another server's view of it.
    let there = svc.scoped(Scope::Server("g2".into()));
    assert!(matches!(
        there.join_tournament(&person(3), Some(t.id)).await,
        Err(ServiceError::TournamentElsewhere(_))
    ));
    assert!(matches!(
        there.join_tournament(&person(3), None).await,
        Err(ServiceError::NoSuchTournament(None))
    ));
    assert_eq!(here.tournament(None).await.unwrap().players.len(), 3);
    // Someone who manages the server may start it.
    let started = here.start_tournament(&bob(), None, true).await.unwrap();
    assert!(matches!(
        here.join_tournament(&person(3), None).await,
        Err(ServiceError::NoSuchTournament(None))
    ));
    assert!(matches!(
        here.join_tournament(&person(3), Some(t.id)).await,
        Err(ServiceError::TournamentStarted(_))
    ));
    // A tournament game is not called off.
    let game = started.games[0];
    let v = here.game(game).await.unwrap();
    assert!(matches!(
        here.abort(&v.players.attackers, Some(game), None).await,
        Err(ServiceError::TournamentGame(g)) if g == game
    ));
    // The limits of a public server: two open or running tournaments a member, five a server.
    for _ in 0..2 {
        here.create_tournament(&person(3), &terms(Format::Swiss), None)
            .await
            .unwrap();
    }
    assert!(matches!(
        here.create_tournament(&person(3), &terms(Format::Swiss), None)
            .await,
        Err(ServiceError::TooManyTournamentsOfYours(2))
    ));
    for _ in 0..2 {
        here.create_tournament(&person(4), &terms(Format::Swiss), None)
            .await
            .unwrap();
    }
    assert!(matches!(
        here.create_tournament(&person(5), &terms(Format::Swiss), None)
            .await,
        Err(ServiceError::TooManyTournaments(5))
    ));
    let big = TournamentTerms {
        players: Some(33),
        ..terms(Format::Knockout)
    };
    assert!(matches!(
        there.create_tournament(&person(4), &big, None).await,
        Err(ServiceError::TournamentSize(33))
    ));
}

/// An open tournament never started lapses after two weeks, in the sweep, and gives its place
/// back; a running one does not.
#[tokio::test]
async fn an_open_tournament_never_started_lapses() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let here = svc.scoped(Scope::Server("g1".into()));
    let idle = here
        .create_tournament(&person(3), &terms(Format::Swiss), None)
        .await
        .unwrap();
    let running = with_players(&here, Format::RoundRobin, 3).await;
    here.start_tournament(&alice(), Some(running.id), false)
        .await
        .unwrap();
    here.create_tournament(&person(3), &terms(Format::Swiss), None)
        .await
        .unwrap();
    clock.advance(taflbot::service::LAPSES_AFTER_DAYS * DAY - 1);
    svc.sweep().await.unwrap();
    assert_eq!(
        here.tournament(Some(idle.id))
            .await
            .unwrap()
            .status
            .as_str(),
        "open"
    );
    assert!(matches!(
        here.create_tournament(&person(3), &terms(Format::Swiss), None)
            .await,
        Err(ServiceError::TooManyTournamentsOfYours(2))
    ));
    clock.advance(1);
    svc.sweep().await.unwrap();
    assert_eq!(
        here.tournament(Some(idle.id))
            .await
            .unwrap()
            .status
            .as_str(),
        "cancelled"
    );
    // The started one was played out (its games ran out of time meanwhile), not called off.
    assert_eq!(
        here.tournament(Some(running.id))
            .await
            .unwrap()
            .status
            .as_str(),
        "finished"
    );
    // Its place is free again.
    here.create_tournament(&person(3), &terms(Format::Swiss), None)
        .await
        .unwrap();
}

/// The WTF's rule: a player who lost on time in more than half of their finished games (two at
/// least) is withdrawn, and their games still going are forfeited, unrated. Losing one game of
/// one on time is not enough.
#[tokio::test]
async fn a_player_lost_on_time_in_most_of_their_games_is_withdrawn() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let dave = person(3);
    let t = with_players(&svc, Format::RoundRobin, 4).await;
    svc.start_tournament(&alice(), Some(t.id), false)
        .await
        .unwrap();
    // The games without dave are decided; in dave's, it is dave to move, and in one of them
    // (game `late`) his deadline comes first: the others' opponents moved a day later.
    let mut dave_games = Vec::new();
    for (id, a, d) in going(&svc).await {
        if a != dave && d != dave {
            won_by(&svc, id, &a).await;
        } else {
            dave_games.push((id, a == dave));
        }
    }
    assert_eq!(dave_games.len(), 6);
    let first = dave_games.iter().find(|(_, attacks)| *attacks).unwrap().0;
    clock.advance(DAY);
    for &(id, attacks) in &dave_games {
        if id == first {
            continue;
        }
        // dave defends: his opponent makes the first turn. dave attacks: a turn each.
        turns(&svc, id, if attacks { 2 } else { 1 }).await;
    }
    // dave's first deadline passes: one game of one lost on time, not withdrawn yet.
    clock.set(T0 + 3 * DAY + 1);
    svc.sweep().await.unwrap();
    let lost: Vec<(i64, String)> = sqlx::query_as(
        "SELECT id, reason FROM games WHERE tournament_id = $1 AND reason IS NOT NULL
           AND (attacker = (SELECT id FROM players WHERE key = $2)
             OR defender = (SELECT id FROM players WHERE key = $2))",
    )
    .bind(t.id)
    .bind(&dave.key)
    .fetch_all(svc.pool())
    .await
    .unwrap();
    assert_eq!(lost, [(first, "timeout".to_string())]);
    let withdrawn =
        |view: &TournamentView| view.players.iter().any(|e| e.person == dave && e.withdrawn);
    assert!(!withdrawn(&svc.tournament(Some(t.id)).await.unwrap()));
    // The rest pass: the second loss on time withdraws him (two of two), and the four games
    // left are forfeited, unrated, as the sweep finds them.
    clock.set(T0 + 4 * DAY + 1);
    svc.sweep().await.unwrap();
    let view = svc.tournament(Some(t.id)).await.unwrap();
    assert!(withdrawn(&view));
    let reasons: Vec<(String, i64)> = sqlx::query_as(
        "SELECT reason, rated FROM games WHERE tournament_id = $1
           AND (attacker = (SELECT id FROM players WHERE key = $2)
             OR defender = (SELECT id FROM players WHERE key = $2)) ORDER BY reason",
    )
    .bind(t.id)
    .bind(&dave.key)
    .fetch_all(svc.pool())
    .await
    .unwrap();
    let count = |r: &str| reasons.iter().filter(|(reason, _)| reason == r).count();
    assert_eq!((count("timeout"), count("forfeit")), (2, 4), "{reasons:?}");
    assert!(reasons
        .iter()
        .filter(|(r, _)| r == "forfeit")
        .all(|(_, rated)| *rated == 0));
    // Every game is over: the tournament ends without him.
    assert!(going(&svc).await.is_empty());
    assert_eq!(view.status.as_str(), "finished");
    assert_ne!(view.winner, Some(dave.clone()));
    assert_eq!(
        table(&svc, t.id).await.last().unwrap(),
        &("dave".to_string(), 0)
    );
}

/// A knockout player who wins their match and then leaves does not go on: the player they beat
/// takes their place in the next round.
#[tokio::test]
async fn a_knockout_winner_who_leaves_gives_way_to_the_player_they_beat() {
    let (svc, _) = service_at(":memory:", T0).await;
    let t = with_players(&svc, Format::Knockout, 4).await;
    svc.start_tournament(&alice(), Some(t.id), false)
        .await
        .unwrap();
    // Seeds 0-3 by joining: alice meets dave, bob meets carol.
    let round1 = going(&svc).await;
    assert_eq!(round1.len(), 4);
    let in_match = |g: &(i64, Person, Person), p: &Person| &g.1 == p || &g.2 == p;
    for g in round1.iter().filter(|g| in_match(g, &alice())) {
        won_by(&svc, g.0, &alice()).await;
    }
    // alice has won her match and leaves while bob and carol still play.
    svc.leave_tournament(&alice(), Some(t.id)).await.unwrap();
    for g in round1.iter().filter(|g| in_match(g, &bob())) {
        won_by(&svc, g.0, &bob()).await;
    }
    let finalists: HashSet<String> = going(&svc)
        .await
        .iter()
        .flat_map(|(_, a, d)| [a.name.clone(), d.name.clone()])
        .collect();
    assert_eq!(
        finalists,
        HashSet::from(["bob".to_string(), "dave".to_string()])
    );
}

/// A round that is byes alone has no game to end it: the tournament moves on at once. Here both
/// players of one knockout semi-final leave, so the final is a bye and the other semi-final's
/// winner wins the tournament as their match ends.
#[tokio::test]
async fn a_round_of_byes_alone_moves_on_at_once() {
    let (svc, _) = service_at(":memory:", T0).await;
    let t = with_players(&svc, Format::Knockout, 4).await;
    svc.start_tournament(&alice(), Some(t.id), false)
        .await
        .unwrap();
    svc.leave_tournament(&bob(), Some(t.id)).await.unwrap();
    svc.leave_tournament(&carol(), Some(t.id)).await.unwrap();
    for (id, _, _) in going(&svc).await {
        won_by(&svc, id, &alice()).await;
    }
    assert!(going(&svc).await.is_empty());
    assert_eq!(winner(&svc, t.id).await, Some(alice()));
}
