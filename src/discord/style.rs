//! How the service's sentences look on Discord: names escaped so they show as themselves (never a
//! mention, a link or markup), players pinged by id, times as timestamps each reader sees in their
//! own time zone.

use crate::discord::post::parse_id;
use crate::service::text::{invisible, Style};
use crate::service::Person;

/// The most of a name a message shows.
const NAME_CHARS: usize = 48;

pub struct DiscordStyle;

impl Style for DiscordStyle {
    fn name(&self, p: &Person) -> String {
        escape(&p.name)
    }

    fn mention(&self, p: &Person) -> String {
        match parse_id(&p.key) {
            Some(id) => format!("<@{id}>"),
            None => escape(&p.name),
        }
    }

    fn pings(&self) -> bool {
        true
    }

    fn time(&self, t: i64) -> String {
        format!("<t:{t}:f>")
    }

    fn time_and_distance(&self, t: i64) -> String {
        format!("<t:{t}:f> (<t:{t}:R>)")
    }

    fn strong(&self, text: &str) -> String {
        format!("**{text}**")
    }

    fn code(&self, text: &str) -> String {
        format!("`{}`", text.replace('`', "'"))
    }

    fn quote(&self, text: &str) -> String {
        // The author's own markdown is theirs to use; each line is set apart as a quote.
        text.lines()
            .map(|line| format!("> {line}"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn place(&self, id: &str) -> Option<String> {
        parse_id(id).map(|id| format!("<#{id}>"))
    }
}

/// Text from a user (a name) as Discord shows it literally: markdown characters escaped, `@`
/// and `<` kept from forming mentions, bidi and zero-width characters left out, line breaks
/// flattened, and at most [`NAME_CHARS`] shown. A name of nothing visible shows as `?`.
pub fn escape(text: &str) -> String {
    escape_up_to(text, NAME_CHARS)
}

/// Text from a user escaped as [`escape`] does, with at most `limit` characters shown.
pub fn escape_up_to(text: &str, limit: usize) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().filter(|&c| !invisible(c));
    for c in chars.by_ref().take(limit) {
        match c {
            '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '<' | '#' | '-' | '[' | ']' | '(' | ')'
            | ':' | '/' => {
                out.push('\\');
                out.push(c);
            }
            // A zero-width space after `@` keeps `@everyone` and `@here` from being read.
            '@' => out.push_str("@\u{200B}"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    if chars.next().is_some() {
        out.push('…');
    }
    if out.trim().is_empty() {
        return "?".to_string();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_show_as_themselves() {
        assert_eq!(escape("alice"), "alice");
        assert_eq!(escape("<@123>"), "\\<@\u{200B}123\\>");
        assert_eq!(escape("[x](https://a.b)"), "\\[x\\]\\(https\\:\\/\\/a.b\\)");
        assert_eq!(escape("**bold**\nnext"), "\\*\\*bold\\*\\* next");
        assert_eq!(escape(&"a".repeat(100)).chars().count(), NAME_CHARS + 1);
    }

    #[test]
    fn bidi_and_zero_width_characters_are_left_out_of_names() {
        // U+202E would show "alice" written backwards after it and turn the sentence around.
        assert_eq!(escape("bob\u{202E}ecila"), "bobecila");
        assert_eq!(
            escape("a\u{200B}l\u{200D}i\u{2066}c\u{2069}e\u{FEFF}"),
            "alice"
        );
        assert_eq!(escape("\u{200B}\u{202E}"), "?");
        // They do not count toward the characters shown.
        let padded = format!("{}{}", "\u{200B}".repeat(100), "alice");
        assert_eq!(escape(&padded), "alice");
    }
}
