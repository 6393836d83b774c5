//! Examples for refusals: a command written out with a value for each option it needs, and the
//! command a mistyped one was near.

use super::{Kind, Spec, COMMANDS};
use crate::service::ServiceError;

impl Kind {
    /// A value of this kind for an example, by the option's name where the kind is free text.
    pub fn example(self, option: &str) -> &'static str {
        match self {
            Kind::Move => "d1-d3",
            Kind::Variant => "copenhagen",
            Kind::Game | Kind::Tournament => "12",
            Kind::Challenge | Kind::Days | Kind::Level => "3",
            Kind::Side => "defenders",
            Kind::Page => "2",
            Kind::Switch => "on",
            Kind::Flag => "true",
            Kind::User => "@bob",
            Kind::Format => "swiss",
            Kind::Count => "5",
            Kind::Puzzle => "7",
            Kind::Hour => "22",
            Kind::Role => "@Team",
            Kind::Theme => "contrast",
            Kind::Text => match option {
                "moves" | "move" => "d1-d3",
                "from" => "d2",
                "text" => "watch the corners",
                "server" => "700000000000000002",
                "line" => "h1-h3,f8-g8",
                "zone" => "Europe/Oslo",
                "quiet" => "22-07",
                "name" => "Winter-cup",
                "command" => "move",
                _ => "corners",
            },
        }
    }
}

/// The command written out with a value for each option it needs: `/move move:d1-d3`.
pub fn example(spec: &Spec) -> String {
    example_with(spec, None)
}

/// The command written out with a value for each option it needs and for `also`, an option it
/// needs only with others (`/theme set:contrast server:true`).
pub fn example_with(spec: &Spec, also: Option<&str>) -> String {
    let mut out = format!("/{}", spec.name);
    for o in spec
        .options
        .iter()
        .filter(|o| o.required || Some(o.name) == also)
    {
        out.push_str(&format!(" {}:{}", o.name, o.kind.example(o.name)));
    }
    out
}

/// The refusal of a command no row has, with the nearest command where one is close (a typo of
/// at most two letters, by optimal string alignment).
pub fn unknown_command(typed: &str) -> ServiceError {
    let names = COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()));
    let near = nearest(typed.trim().trim_start_matches('/'), names);
    ServiceError::UnknownCommand(typed.to_string(), near)
}

/// The name nearest to `typed` (in any case) where one is close: a typo of at most two letters
/// by optimal string alignment, in a word of more than two letters. The first of the nearest.
pub fn nearest<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = typed.to_lowercase();
    if lower.chars().count() <= 2 {
        return None;
    }
    names
        .into_iter()
        .map(|name| (strsim::osa_distance(&lower, name), name))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, name)| name)
}
