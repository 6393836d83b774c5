//! Every sentence a player reads, made from data: names, game numbers, moves, times. A front end
//! chooses only how the pieces look through a [`Style`]: Discord escapes names, pings by id and
//! shows times as timestamps each reader sees in their own zone; the local mode prints plain text
//! in UTC. (Why a move is illegal is the rules core's sentence, `rules/error.rs`.)
//!
//! - `mod.rs`: [`Style`], [`Plain`] and the small helpers (a sentence, days, a list that fits);
//! - `news.rs`: what happened in a game, as posted and as a direct message;
//! - `answers.rs`: the answers to commands (challenges, lists, profile, vacation, rules, hint...);
//! - `puzzles.rs`: puzzles opened and tried, and the daily puzzle;
//! - `teams.rs`: team games begun, votes kept, a server's team games and record;
//! - `tournaments.rs`: tournaments made, started, listed and stood, and their news;
//! - `refusal.rs`: why a use case refused, and `Display` for [`ServiceError`](super::ServiceError).
//!
//! Who is pinged or messaged is not decided here but by the news itself (`News::addressees`,
//! `News::calls_on`, in `notices.rs`).

mod answers;
mod news;
mod puzzles;
mod refusal;
mod reviews;
mod teams;
mod tournaments;

pub use answers::*;
pub use news::*;
pub use puzzles::*;
pub use refusal::*;
pub use reviews::*;
pub use teams::*;
pub use tournaments::*;

use super::Person;

/// How a front end shows the pieces of a sentence.
pub trait Style {
    /// A player's name, as text that shows as itself.
    fn name(&self, p: &Person) -> String;
    /// A player addressed: a ping where the front end has them, otherwise the name.
    fn mention(&self, p: &Person) -> String {
        self.name(p)
    }
    /// Whether [`Style::mention`] calls the player (a ping): a line of mentions alone, such as
    /// the two players called at a game's end, is said only where it does.
    fn pings(&self) -> bool {
        false
    }
    /// A moment (Unix seconds).
    fn time(&self, t: i64) -> String;
    /// A moment as a reader counts to it ("in 2 days"); plain text has only the moment.
    fn time_and_distance(&self, t: i64) -> String {
        self.time(t)
    }
    /// Emphasis.
    fn strong(&self, text: &str) -> String {
        text.to_string()
    }
    /// Text quoted as typed (a command, a position string).
    fn code(&self, text: &str) -> String {
        text.to_string()
    }
    /// A player's own words shown back to them (a note), set apart from the sentence.
    fn quote(&self, text: &str) -> String {
        text.to_string()
    }
    /// A channel or thread, when the front end has them.
    fn place(&self, _id: &str) -> Option<String> {
        None
    }
}

/// Plain text, times in UTC: the local mode, logs and `Display`.
pub struct Plain;

impl Style for Plain {
    fn name(&self, p: &Person) -> String {
        p.name.clone()
    }

    fn time(&self, t: i64) -> String {
        utc(t)
    }
}

/// A Unix time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc(t: i64) -> String {
    match chrono::DateTime::from_timestamp(t, 0) {
        Some(at) => at.format("%Y-%m-%d %H:%M UTC").to_string(),
        None => format!("{t} seconds after 1970"),
    }
}

/// Characters that change how the text around them reads without showing themselves: the bidi
/// embeddings, overrides and isolates (U+202E turns the rest of a line around), and the
/// zero-width spaces, joiners and marks. Names are shown without them.
pub fn invisible(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// A sentence from a phrase: capital first letter, full stop.
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

fn ids(list: &[i64]) -> String {
    list.iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "1 day", "3 days".
pub fn days(n: u32) -> String {
    counted(i64::from(n), "day", "days")
}

/// A count with its noun, singular for one: "1 round", "3 rounds".
pub fn counted(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The article a number takes when spoken: "an 8", "an 11", "an 18", "an 80", else "a".
pub fn article_of(n: u64) -> &'static str {
    let text = n.to_string();
    let eleven = text.len() % 3 == 2 && (text.starts_with("11") || text.starts_with("18"));
    if text.starts_with('8') || eleven {
        "an"
    } else {
        "a"
    }
}

/// A chance as a phrase with its article: "a 62 % chance", "an 80 % chance".
pub fn a_chance(chance: f64) -> String {
    let percent = (chance * 100.0).round().clamp(0.0, 100.0) as u64;
    format!("{} {percent} % chance", article_of(percent))
}

/// A heading and lines, one per row, cut to fit one message: the lines that do not fit are
/// counted in a last line.
pub fn listed(head: String, lines: impl ExactSizeIterator<Item = String>) -> String {
    let total = lines.len();
    let mut text = head;
    for (i, line) in lines.enumerate() {
        // Room is kept for the last line, which says how many are left out.
        if text.chars().count() + line.chars().count() + 40 > LIST_CHARS {
            text.push_str(&format!("\n…and {} more.", total - i));
            break;
        }
        text.push('\n');
        text.push_str(&line);
    }
    text
}

/// `items` joined by commas within `budget` characters: as many whole items as fit, then
/// "and N more", never an item cut in the middle.
pub fn joined_within(items: &[String], budget: usize) -> String {
    let mut text = String::new();
    for (i, item) in items.iter().enumerate() {
        let left = items.len() - i;
        let sep = if i == 0 { 0 } else { 2 };
        // Room is kept for the tail that says how many are left out.
        let tail = if left > 1 { 20 } else { 0 };
        if text.chars().count() + sep + item.chars().count() + tail > budget {
            if i == 0 {
                return format!("{left} players");
            }
            text.push_str(&format!(" and {left} more"));
            return text;
        }
        if i > 0 {
            text.push_str(", ");
        }
        text.push_str(item);
    }
    text
}

/// The most characters of a list in one message (Discord allows 2,000).
pub const LIST_CHARS: usize = 1900;

#[cfg(test)]
mod tests {
    #[test]
    fn a_joined_list_stops_at_whole_items_and_says_how_many_are_left() {
        let names: Vec<String> = (0..40).map(|i| format!("player\\_{i:02}")).collect();
        let text = super::joined_within(&names, 100);
        assert!(text.chars().count() <= 100, "{text}");
        assert!(text.starts_with("player\\_00, player\\_01"), "{text}");
        let shown = text.matches("player").count();
        assert!(
            text.ends_with(&format!(" and {} more", 40 - shown)),
            "{text}"
        );
        assert_eq!(
            super::joined_within(&names[..2], 100),
            "player\\_00, player\\_01"
        );
    }

    #[test]
    fn numbers_and_counts_take_the_article_and_the_number_they_are_spoken_with() {
        for (n, article) in [
            (8, "an"),
            (11, "an"),
            (18, "an"),
            (80, "an"),
            (86, "an"),
            (800, "an"),
            (1, "a"),
            (10, "a"),
            (62, "a"),
            (100, "a"),
            (110, "a"),
            (180, "a"),
        ] {
            assert_eq!(super::article_of(n), article, "{n}");
        }
        assert_eq!(super::a_chance(0.804), "an 80 % chance");
        assert_eq!(super::a_chance(0.5), "a 50 % chance");
        assert_eq!(super::counted(1, "round", "rounds"), "1 round");
        assert_eq!(super::counted(3, "round", "rounds"), "3 rounds");
        assert_eq!(super::days(1), "1 day");
    }
}
