//! The command table's own checks: the help's lists, every row's reader, unique names.

use super::*;

/// The lists written into the help are the lists the service and the engine check.
#[test]
fn the_help_says_the_days_and_levels_that_are_checked() {
    let days: Vec<String> = crate::service::DAYS_PER_MOVE
        .iter()
        .map(u32::to_string)
        .collect();
    let (last, rest) = days.split_last().unwrap();
    assert_eq!(days_per_move!(), format!("{} or {last}", rest.join(", ")));
    assert_eq!(default_days!(), crate::service::DEFAULT_DAYS.to_string());
    let levels = crate::engine::LEVELS;
    assert_eq!(
        levels!(),
        format!("{} (weakest) to {}", levels.start(), levels.end())
    );
    assert_eq!(default_level!(), crate::engine::DEFAULT_LEVEL.to_string());
    use crate::service::{MAX_FORECAST_LINES, MAX_FORECAST_MOVES, MAX_MORE_TIME_DAYS};
    assert_eq!(forecast_lines!(), MAX_FORECAST_LINES.to_string());
    assert_eq!(forecast_moves!(), MAX_FORECAST_MOVES.to_string());
    assert_eq!(note_chars!(), crate::service::MAX_NOTE_CHARS.to_string());
    assert_eq!(more_time_days!(), MAX_MORE_TIME_DAYS.to_string());
    use crate::service::{DEFAULT_WINDOW_HOURS, MAX_WINDOW_HOURS, MIN_WINDOW_HOURS};
    assert_eq!(
        window_hours!(),
        format!("{MIN_WINDOW_HOURS} to {MAX_WINDOW_HOURS}")
    );
    assert_eq!(DEFAULT_WINDOW_HOURS, 24);
}

/// Every row reads its command from its needed options.
#[test]
fn every_row_has_a_reader() {
    use super::super::Value;
    use crate::service::Person;
    for spec in COMMANDS {
        let given: Vec<(String, Value)> = spec
            .options
            .iter()
            .filter(|o| o.required)
            .map(|o| {
                let value = match o.kind {
                    Kind::User => Value::User(Person::new("1", "someone")),
                    Kind::Variant => Value::Text("brandubh".into()),
                    Kind::Switch => Value::Text("on".into()),
                    Kind::Format => Value::Text("swiss".into()),
                    Kind::Count => Value::Int(2),
                    _ => Value::Text("e1-e5".into()),
                };
                (o.name.to_string(), value)
            })
            .collect();
        let read = Command::parse(spec.name, &given);
        assert!(read.is_ok(), "{}: {read:?}", spec.name);
    }
}

#[test]
fn names_and_aliases_are_unique() {
    let mut all: Vec<&str> = COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .collect();
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n);
}
