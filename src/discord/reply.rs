//! What a message is before it is sent: its text (never over Discord's limit), the board or
//! other files, whom it pings, its buttons, and whether only the user sees it; made into each
//! of the shapes Discord takes (a response, a follow-up, an edit, a channel post).

use poise::serenity_prelude as serenity;
use serenity::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    EditInteractionResponse, Nonce, RoleId, UserId,
};

use super::button::Button;

/// A message to show: text, maybe the board, maybe buttons; public or for the user alone.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    pub text: String,
    pub files: Vec<(String, Vec<u8>)>,
    /// Users the message pings.
    pub mention: Vec<UserId>,
    /// A role the message pings (a team's, when its window is about to close).
    pub role: Option<RoleId>,
    pub buttons: Vec<Button>,
    pub private: bool,
}

impl Reply {
    pub fn text(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            ..Reply::default()
        }
    }

    /// Whether the message pings anyone (a user or a role).
    pub fn pings(&self) -> bool {
        !self.mention.is_empty() || self.role.is_some()
    }

    /// A private answer that only the user sees.
    pub fn private(text: impl Into<String>) -> Reply {
        Reply {
            private: true,
            ..Reply::text(text)
        }
    }

    pub fn file(mut self, name: &str, bytes: Vec<u8>) -> Reply {
        self.files.push((name.to_string(), bytes));
        self
    }

    pub fn board(self, png: Vec<u8>) -> Reply {
        self.file("board.png", png)
    }

    pub fn mention(mut self, users: impl IntoIterator<Item = UserId>) -> Reply {
        self.mention.extend(users);
        self
    }

    /// Pings the members of `role`, its mention put before the text.
    pub fn ping_role(mut self, role: RoleId) -> Reply {
        self.text = format!("<@&{role}> {}", self.text);
        self.role = Some(role);
        self
    }

    pub fn button(mut self, button: Button) -> Reply {
        self.buttons.push(button);
        self
    }

    /// The text as sent: never over Discord's 2,000 characters (a longer one is cut, and says so).
    fn content(&self) -> String {
        const MAX: usize = 2000;
        if self.text.chars().count() <= MAX {
            return self.text.clone();
        }
        let mut cut: String = self.text.chars().take(MAX - 1).collect();
        cut.push('…');
        cut
    }

    fn allowed_mentions(&self) -> CreateAllowedMentions {
        CreateAllowedMentions::new()
            .users(self.mention.iter().copied())
            .roles(self.role)
    }

    fn components(&self) -> Vec<CreateActionRow> {
        if self.buttons.is_empty() {
            return Vec::new();
        }
        let buttons = self
            .buttons
            .iter()
            .map(|b| {
                CreateButton::new(b.custom_id())
                    .label(b.label())
                    .style(b.style())
            })
            .collect();
        vec![CreateActionRow::Buttons(buttons)]
    }

    /// The files, each picture with the description it carries as its alt text.
    fn attachments(&self) -> Vec<CreateAttachment> {
        self.files
            .iter()
            .map(|(name, bytes)| {
                let file = CreateAttachment::bytes(bytes.clone(), name.as_str());
                match crate::render::description_of(bytes) {
                    Some(alt) => file.description(alt),
                    None => file,
                }
            })
            .collect()
    }

    pub(super) fn as_response(&self) -> CreateInteractionResponseMessage {
        CreateInteractionResponseMessage::new()
            .content(self.content())
            .ephemeral(self.private)
            .allowed_mentions(self.allowed_mentions())
            .components(self.components())
            .add_files(self.attachments())
    }

    pub(super) fn as_followup(&self) -> CreateInteractionResponseFollowup {
        CreateInteractionResponseFollowup::new()
            .content(self.content())
            .ephemeral(self.private)
            .allowed_mentions(self.allowed_mentions())
            .components(self.components())
            .add_files(self.attachments())
    }

    pub(super) fn as_edit(&self) -> EditInteractionResponse {
        let mut edit = EditInteractionResponse::new()
            .content(self.content())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components());
        for file in self.attachments() {
            edit = edit.new_attachment(file);
        }
        edit
    }

    pub(super) fn as_message(&self, nonce: &str) -> CreateMessage {
        CreateMessage::new()
            .content(self.content())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components())
            .add_files(self.attachments())
            .nonce(Nonce::String(nonce.to_string()))
            .enforce_nonce(true)
    }
}
