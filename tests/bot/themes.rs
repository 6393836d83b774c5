//! Themes (/theme): a player's own for the pictures made for them, and a server's default, set by
//! its managers, for its game threads and for its players who chose none.

use taflbot::commands::{apply, Answer, Caller, Command};
use taflbot::local::parse_line;
use taflbot::render::Theme;
use taflbot::service::{text, Person, Scope, Service, ServiceError};

use crate::support::{alice, bob, brandubh_game, carol, service_at, T0};

/// The colour of a picture's top-left pixel: its frame, which each theme colours its own way.
fn frame(png: &[u8]) -> [u8; 3] {
    let image = image::load_from_memory(png).expect("a PNG").to_rgb8();
    image.get_pixel(0, 0).0
}

fn theme_of(png: &[u8]) -> Theme {
    let seen = frame(png);
    Theme::ALL
        .into_iter()
        .find(|t| t.colours().frame == seen)
        .unwrap_or_else(|| panic!("no theme has the frame {seen:?}"))
}

/// A line of the local mode, as alice types it.
fn line(typed: &str) -> Result<Command, ServiceError> {
    parse_line(&format!("alice {typed}")).map(|(_, command)| command)
}

async fn board_for(here: &Service, who: &Person, game: i64) -> Theme {
    let (_, png) = here.board(who, Some(game), None, false).await.unwrap();
    theme_of(&png)
}

#[test]
fn every_theme_has_a_frame_of_its_own() {
    for a in Theme::ALL {
        for b in Theme::ALL.into_iter().filter(|&b| b != a) {
            assert_ne!(a.colours().frame, b.colours().frame, "{a} and {b}");
        }
    }
}

#[tokio::test]
async fn a_players_theme_draws_their_pictures_and_the_servers_draws_its_threads() {
    let (svc, _) = service_at(":memory:", T0).await;
    let here = svc.scoped(Scope::Server("g1".into()));
    let game = brandubh_game(&here, &alice(), &bob()).await;
    assert_eq!(board_for(&here, &alice(), game).await, Theme::Classic);

    let set = here
        .set_theme(&alice(), Some(Theme::Contrast), false, false)
        .await
        .unwrap();
    assert_eq!((set.mine, set.server), (Some(Theme::Contrast), None));
    assert_eq!(set.theirs(), Theme::Contrast);
    assert_eq!(board_for(&here, &alice(), game).await, Theme::Contrast);
    assert_eq!(board_for(&here, &bob(), game).await, Theme::Classic);
    // A move's picture is the thread's, in the server's default, whoever moved.
    let played = here.play(&alice(), Some(game), None, "d1-d2").await;
    let played = match played {
        Ok(p) => p,
        Err(_) => {
            let (_, moves) = here.legal_moves(&alice(), Some(game), None).await.unwrap();
            here.play(&alice(), Some(game), None, &moves[0])
                .await
                .unwrap()
        }
    };
    assert_eq!(theme_of(&played.png), Theme::Classic);

    // Only a manager sets the server's default.
    let refused = here
        .set_theme(&bob(), Some(Theme::ColourBlind), true, false)
        .await;
    assert!(
        matches!(refused, Err(ServiceError::NotManager)),
        "{refused:?}"
    );
    let set = here
        .set_theme(&carol(), Some(Theme::ColourBlind), true, true)
        .await
        .unwrap();
    assert!(set.set_server);
    assert_eq!(set.server, Some(Theme::ColourBlind));
    assert_eq!(set.mine, None, "carol's own theme is untouched");
    // bob chose none: he has the server's; alice keeps her own; the thread has the server's.
    assert_eq!(board_for(&here, &bob(), game).await, Theme::ColourBlind);
    assert_eq!(board_for(&here, &alice(), game).await, Theme::Contrast);
    assert_eq!(
        theme_of(&svc.game_picture(game).await.unwrap()),
        Theme::ColourBlind
    );

    // Another server's games and players keep classic.
    let there = svc.scoped(Scope::Server("g2".into()));
    let other = brandubh_game(&there, &alice(), &bob()).await;
    assert_eq!(board_for(&there, &bob(), other).await, Theme::Classic);
    assert_eq!(
        theme_of(&svc.game_picture(other).await.unwrap()),
        Theme::Classic
    );
    // Outside a server there is no server's default to set.
    let direct = svc.scoped(Scope::Direct);
    let refused = direct
        .set_theme(&carol(), Some(Theme::Contrast), true, true)
        .await;
    assert!(
        matches!(refused, Err(ServiceError::NotInServer)),
        "{refused:?}"
    );
}

#[tokio::test]
async fn the_theme_command_reads_a_name_says_where_it_stands_and_needs_a_theme_for_the_server() {
    let (svc, _) = service_at(":memory:", T0).await;
    let caller = Caller::local(alice(), Person::new("0", "taflbot"));
    let said = |answer: Answer| match answer {
        Answer::Theme(setting) => text::theme(&setting, &text::Plain),
        other => panic!("not a theme: {other:?}"),
    };
    let shown = apply(&svc, &caller, line("theme").unwrap()).await.unwrap();
    assert_eq!(
        said(shown).lines().next().unwrap(),
        "Your pictures are drawn in classic (wood and ivory), the default."
    );
    for typed in ["theme set:colour-blind", "theme set:ColorBlind"] {
        let set = apply(&svc, &caller, line(typed).unwrap()).await.unwrap();
        assert!(
            said(set).starts_with("Your pictures are drawn in colour-blind (colours that every common kind of colour blindness tells apart), your choice."),
            "{typed}"
        );
    }
    let unknown = line("theme set:sepia").unwrap_err().to_string();
    assert!(unknown.contains("theme"), "{unknown}");
    let bare = line("theme server").unwrap_err().to_string();
    assert!(bare.contains("/theme set:contrast"), "{bare}");
}

// ----- on Discord, end to end -----

/// `/theme` on Discord: a choice of the three, shown to the caller alone; a member who does not
/// manage the server cannot set its default; the thread's next picture is drawn in the default a
/// manager set; `/moves` lists a player's moves from a square.
#[tokio::test]
async fn on_discord_a_player_and_a_manager_choose_themes_and_moves_are_listed() {
    use crate::fake_discord::{not_a_manager, s, Opt};
    use crate::support::{Harness, ALICE, BOB, CHANNEL};
    let h = Harness::start("themes").await;
    let (game, thread) = h.game("brandubh").await;
    // Discord numbers the choices: 1 is contrast.
    let mine = h
        .slash(BOB, CHANNEL, "theme", &[("set", Opt::Int(1))])
        .await;
    assert!(mine.private());
    assert!(
        mine.content()
            .starts_with("Your pictures are drawn in **contrast**"),
        "{}",
        mine.content()
    );
    let (_, board) = h
        .service
        .board(&crate::support::person(BOB), Some(game), None, false)
        .await
        .unwrap();
    assert_eq!(theme_of(&board), Theme::Contrast);
    let refused = h
        .fake
        .ask(not_a_manager(h.fake.slash(
            BOB,
            CHANNEL,
            "theme",
            &[("set", Opt::Int(2)), ("server", Opt::Bool(true))],
        )))
        .await;
    assert!(
        refused
            .content()
            .starts_with("Only someone who manages this server may do that."),
        "{}",
        refused.content()
    );
    let set = h
        .slash(
            ALICE,
            CHANNEL,
            "theme",
            &[("set", Opt::Int(2)), ("server", Opt::Bool(true))],
        )
        .await;
    assert!(
        set.content()
            .starts_with("This server's game threads are drawn in **colour-blind**"),
        "{}",
        set.content()
    );
    let moves = h.slash(ALICE, thread, "moves", &[("from", s("d1"))]).await;
    assert!(moves.private());
    assert!(
        moves
            .content()
            .starts_with(&format!("Your moves in game #{game}, from `d1`:")),
        "{}",
        moves.content()
    );
    let first = moves.content().lines().nth(1).unwrap().to_string();
    let mv = first.split(", ").next().unwrap().to_string();
    assert!(mv.starts_with("d1-"), "{first}");
    let played = h.play(ALICE, thread, &mv).await;
    assert_eq!(
        theme_of(played.png().expect("the board")),
        Theme::ColourBlind
    );
    h.shutdown().await;
}
