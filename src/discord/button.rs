//! The buttons under the bot's messages: one enum, one `custom_id` format (`action:number`).

use poise::serenity_prelude::ButtonStyle;

use crate::commands::Command;
use crate::rules::Variant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// Accept challenge N.
    Accept(i64),
    /// Decline challenge N.
    Decline(i64),
    /// End the berserk chain in game N.
    EndTurn(i64),
    /// Accept the draw offered in game N.
    AcceptDraw(i64),
    /// Decline the draw offered in game N.
    DeclineDraw(i64),
    /// Agree to the takeback asked in game N.
    AcceptTakeback(i64),
    /// Decline the takeback asked in game N.
    DeclineTakeback(i64),
    /// A rematch of game N, which has ended.
    Rematch(i64),
    /// The review of game N, which has ended.
    Review(i64),
    /// Puzzle N opened for the presser (under a daily puzzle).
    Puzzle(i64),
    /// Accept team challenge N (from another server).
    TeamAccept(i64),
    /// Decline team challenge N.
    TeamDecline(i64),
    /// Page `page` of the leaderboard of `variant`; the button to the next page (`forward`) or
    /// the one before. Its id names the variant by its id, so that a row added to the variant
    /// table never changes what a button posted earlier shows.
    Page {
        variant: &'static Variant,
        page: usize,
        forward: bool,
    },
}

impl Button {
    fn action(self) -> (&'static str, i64) {
        match self {
            Button::Page { .. } => unreachable!("a page button has its own form"),
            Button::Accept(n) => ("accept", n),
            Button::Decline(n) => ("decline", n),
            Button::EndTurn(n) => ("endturn", n),
            Button::AcceptDraw(n) => ("drawyes", n),
            Button::DeclineDraw(n) => ("drawno", n),
            Button::AcceptTakeback(n) => ("backyes", n),
            Button::DeclineTakeback(n) => ("backno", n),
            Button::Rematch(n) => ("rematch", n),
            Button::Review(n) => ("review", n),
            Button::Puzzle(n) => ("puzzle", n),
            Button::TeamAccept(n) => ("teamyes", n),
            Button::TeamDecline(n) => ("teamno", n),
        }
    }

    pub fn custom_id(self) -> String {
        if let Button::Page { variant, page, .. } = self {
            return format!("page:{variant}:{page}");
        }
        let (action, n) = self.action();
        format!("{action}:{n}")
    }

    pub fn parse(custom_id: &str) -> Option<Button> {
        let (action, n) = custom_id.split_once(':')?;
        if action == "page" {
            let (variant, page) = n.split_once(':')?;
            // Buttons posted before ids were used name the variant by its place in the table.
            let variant = match variant.parse::<usize>() {
                Ok(index) => Variant::all().get(index)?,
                Err(_) => variant.parse().ok()?,
            };
            return Some(Button::Page {
                variant,
                page: page.parse().ok()?,
                // Only the page matters to a press.
                forward: true,
            });
        }
        let n: i64 = n.parse().ok()?;
        Some(match action {
            "accept" => Button::Accept(n),
            "decline" => Button::Decline(n),
            "endturn" => Button::EndTurn(n),
            "drawyes" => Button::AcceptDraw(n),
            "drawno" => Button::DeclineDraw(n),
            "backyes" => Button::AcceptTakeback(n),
            "backno" => Button::DeclineTakeback(n),
            "rematch" => Button::Rematch(n),
            "review" => Button::Review(n),
            "puzzle" => Button::Puzzle(n),
            "teamyes" => Button::TeamAccept(n),
            "teamno" => Button::TeamDecline(n),
            _ => return None,
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            Button::Accept(_) | Button::TeamAccept(_) => "Accept",
            Button::Decline(_) | Button::TeamDecline(_) => "Decline",
            Button::EndTurn(_) => "End turn",
            Button::AcceptDraw(_) => "Accept draw",
            Button::DeclineDraw(_) => "Decline draw",
            Button::AcceptTakeback(_) => "Take back",
            Button::DeclineTakeback(_) => "Decline takeback",
            Button::Rematch(_) => "Rematch",
            Button::Review(_) => "Review",
            Button::Puzzle(_) => "Solve",
            Button::Page { forward: true, .. } => "Next page",
            Button::Page { forward: false, .. } => "Previous page",
        }
    }

    pub fn style(self) -> ButtonStyle {
        match self {
            Button::Accept(_)
            | Button::AcceptDraw(_)
            | Button::AcceptTakeback(_)
            | Button::TeamAccept(_) => ButtonStyle::Success,
            Button::Decline(_)
            | Button::DeclineDraw(_)
            | Button::DeclineTakeback(_)
            | Button::TeamDecline(_) => ButtonStyle::Danger,
            Button::EndTurn(_) | Button::Page { .. } | Button::Review(_) => ButtonStyle::Secondary,
            Button::Rematch(_) | Button::Puzzle(_) => ButtonStyle::Primary,
        }
    }

    /// The command a press stands for.
    pub fn command(self) -> Command {
        match self {
            Button::Accept(n) => Command::Accept { challenge: Some(n) },
            Button::Decline(n) => Command::Decline { challenge: Some(n) },
            Button::EndTurn(n) => Command::EndTurn { game: Some(n) },
            Button::AcceptDraw(n) => Command::AcceptDraw { game: Some(n) },
            Button::DeclineDraw(n) => Command::DeclineDraw { game: Some(n) },
            Button::AcceptTakeback(n) => Command::AcceptTakeback { game: Some(n) },
            Button::DeclineTakeback(n) => Command::Takeback {
                game: Some(n),
                decline: true,
            },
            Button::Rematch(n) => Command::Rematch { game: Some(n) },
            Button::Review(n) => Command::Review { game: Some(n) },
            Button::TeamAccept(n) => Command::TeamAnswer {
                challenge: n,
                accept: true,
            },
            Button::TeamDecline(n) => Command::TeamAnswer {
                challenge: n,
                accept: false,
            },
            Button::Puzzle(n) => Command::Puzzle {
                variant: None,
                number: Some(n),
            },
            Button::Page { variant, page, .. } => Command::Leaderboard {
                variant: Some(variant),
                page: Some(page as i64),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_read_back() {
        for b in [
            Button::Accept(1),
            Button::Decline(22),
            Button::EndTurn(3),
            Button::AcceptDraw(4),
            Button::DeclineDraw(5),
            Button::AcceptTakeback(6),
            Button::DeclineTakeback(7),
            Button::Rematch(8),
            Button::Review(9),
            Button::Puzzle(10),
            Button::TeamAccept(11),
            Button::TeamDecline(12),
        ] {
            assert_eq!(Button::parse(&b.custom_id()), Some(b));
        }
        let fetlar = Variant::by_id("fetlar").unwrap();
        let page = Button::Page {
            variant: fetlar,
            page: 2,
            forward: true,
        };
        assert_eq!(page.custom_id(), "page:fetlar:2");
        assert_eq!(Button::parse(&page.custom_id()), Some(page));
        // An older button names the variant by its place in the table.
        let third = Button::parse("page:3:2");
        assert!(
            matches!(third, Some(Button::Page { variant, .. }) if variant == &Variant::all()[3])
        );
        assert_eq!(Button::parse("page:999:1"), None);
        assert_eq!(Button::parse("page:chess:1"), None);
        assert_eq!(Button::parse("accept:x"), None);
        assert_eq!(Button::parse("launch:1"), None);
    }
}
