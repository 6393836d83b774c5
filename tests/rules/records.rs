//! Game records and turn texts.

use taflbot::notation::{play_turn, read_record, split_moves, write_record, TurnEnd};
use taflbot::rules::{parse_position, write_position, Game, Outcome, Reason, Side, Variant};

fn game_from(variant: &str, position: &str) -> Game {
    Game::from_position(parse_position(Variant::by_id(variant).unwrap(), position).unwrap())
}

#[test]
fn a_record_reads_back_a_chain_ended_on_its_last_line() {
    let mut game = game_from("tyr-11", "10T/11/11/11/1tT8/4Tt5/11/11/7K3/3t7/11 a");
    play_turn(&mut game, "d2-d6", TurnEnd::MayStayOpen).unwrap();
    assert!(game.position().chain().is_some());
    let open = write_record(&game, &[]);
    assert!(open.trim_end().ends_with("1. d2-d6xe6 ..."), "{open}");
    let back = read_record(&open).unwrap();
    assert_eq!(back.game.position(), game.position());

    game.end_turn().unwrap();
    let ended = write_record(&game, &[]);
    assert!(ended.trim_end().ends_with("1. d2-d6xe6"), "{ended}");
    let back = read_record(&ended).unwrap();
    assert_eq!(
        write_position(back.game.position()),
        write_position(game.position())
    );
    assert_eq!(back.game.position().turn(), Side::Defenders);
}

#[test]
fn a_record_carries_its_tags_and_result() {
    let text = "[Variant \"tyr-11\"]\n[Attackers \"al \\\"the axe\\\"\"]\n[Defenders \"bo\"]\n[Result \"defenders_won\"]\n[Reason \"resignation\"]\n\n1. d1-d3\n1... e5-e2\n";
    let record = read_record(text).unwrap();
    assert_eq!(record.tag("Attackers"), Some("al \"the axe\""));
    assert_eq!(
        record.game.outcome(),
        Some(Outcome::win(Side::Defenders, Reason::Resignation))
    );
    let again = write_record(
        &record.game,
        &[("Attackers", "al \"the axe\""), ("Defenders", "bo")],
    );
    assert_eq!(again, text);
}

#[test]
fn a_record_that_lies_is_refused() {
    let wrong_result =
        "[Variant \"tyr-11\"]\n[Result \"draw\"]\n[Reason \"repetition\"]\n\n1. d1-d3\n";
    assert_eq!(
        read_record(wrong_result).unwrap_err().to_string(),
        "the record says the result is draw, but its moves give ongoing"
    );
    let wrong_number = "[Variant \"tyr-11\"]\n\n1. d1-d3\n2. e5-e2\n";
    assert_eq!(
        read_record(wrong_number).unwrap_err().to_string(),
        "line 4: this is the defenders' turn, so it is numbered N..."
    );
    let illegal = "[Variant \"tyr-11\"]\n\n1. d1-d3\n1... e5-e9\n";
    assert_eq!(
        read_record(illegal).unwrap_err().to_string(),
        "line 4: e5-e9: the path is blocked at e6"
    );
    assert_eq!(
        read_record("1. d1-d3").unwrap_err().to_string(),
        "the record has no [Variant \"...\"] tag"
    );
    assert_eq!(
        read_record("[Variant \"chess\"]").unwrap_err().to_string(),
        "unknown variant \"chess\""
    );
}

#[test]
fn announced_captures_written_apart_stay_with_their_move() {
    assert_eq!(split_moves("e5-e8 xe9 e8-e3"), vec!["e5-e8 xe9", "e8-e3"]);
    assert_eq!(split_moves("e1 e5"), vec!["e1 e5"]);
    assert_eq!(split_moves("d4-d8 d8-b8"), vec!["d4-d8", "d8-b8"]);
}

#[test]
fn an_unreadable_turn_changes_nothing() {
    let mut game = game_from("tyr-11", "10T/11/11/11/1tT8/4Tt5/11/11/7K3/3t7/11 a");
    play_turn(&mut game, "d2-d6", TurnEnd::MayStayOpen).unwrap();
    let before = write_position(game.position());
    assert!(play_turn(&mut game, "zz", TurnEnd::Whole).is_err());
    assert_eq!(
        write_position(game.position()),
        before,
        "the open chain is still open"
    );
}
