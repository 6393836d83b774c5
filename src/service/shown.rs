//! A kept notice made ready to show, decided once for both front ends: what is said (with the
//! style each front end writes in), which picture goes with it, and whom it may ping. Discord
//! posts it where the game is played; the local mode prints it and saves the picture. Neither
//! decides anything of its own about a notice.

use super::tournaments::Crosstable;
use super::{text, GameView, News, Notice, Person, Service, ServiceError};
use crate::rules::Side;
use text::Style;

/// What a kept notice shows.
pub enum Shown {
    Game(Box<KeptGameNews>),
    Tournament(Box<TournamentNews>),
}

/// A game's news with the game as it stands now.
pub struct KeptGameNews {
    pub news: News,
    pub view: GameView,
    /// The board now, for news of the board (a move, the start); none when it could not be drawn
    /// (the news is still shown).
    pub board: Option<Vec<u8>>,
}

/// A tournament's standings after a result, and its winner at the end.
pub struct TournamentNews {
    pub table: Crosstable,
    /// The result that ended the tournament: its winner is named (and pinged) by this news only.
    pub ended: bool,
    /// The crosstable's picture; none when it could not be drawn.
    pub crosstable: Option<Vec<u8>>,
}

impl KeptGameNews {
    /// What is said: the news, then who is called to move.
    pub fn text(&self, s: &dyn Style) -> String {
        text::post(&self.news, &self.view, s)
    }

    /// A game begun with no thread yet (a tournament's) is given one before its news.
    pub fn wants_thread(&self) -> bool {
        self.news == News::Started && self.view.thread.is_none()
    }

    /// What the thread of the server that plays `side` shows, in a game between two servers:
    /// each sees only its own team's votes (the other's window shows as the turn it played) and
    /// reminders; the rest is the same news. Nothing where this news is not for that thread.
    pub fn seen_by(&self, side: Side) -> Option<KeptGameNews> {
        let ours = |p: &Person| self.view.players[side].key == p.key;
        let news = match &self.news {
            News::Reminder { to } if !ours(to) => return None,
            // Numbered from the game as it stands, as the board shown with it is drawn.
            News::Voted { by, tally } if !ours(by) => News::Moved {
                by: by.clone(),
                text: crate::notation::numbered_last(self.view.turns, tally.winner()?),
            },
            news => news.clone(),
        };
        let mut view = self.view.clone();
        view.seen_from = Some(side);
        if let Some(second) = view.second.clone().filter(|s| s.side == side) {
            // The second server's thread is where this view is shown.
            view.channel = second.channel;
            view.thread = second.thread;
        }
        Some(KeptGameNews {
            news,
            view,
            board: self.board.clone(),
        })
    }
}

impl TournamentNews {
    pub fn text(&self, s: &dyn Style) -> String {
        text::tournament_news(&self.table, self.ended, s)
    }

    /// Whom the post may ping: the winner, once, by the news that ended it.
    pub fn pinged(&self) -> Option<&Person> {
        self.table.view.winner.as_ref().filter(|_| self.ended)
    }
}

impl Service {
    /// The notice made ready to show. A database error means "try again later"; any other
    /// means its game or tournament cannot be shown at all.
    pub async fn notice_shown(&self, notice: &Notice) -> Result<Shown, ServiceError> {
        if let Some(tournament) = notice.tournament() {
            let table = self.tournament_standings(Some(tournament)).await?;
            let crosstable = match self.crosstable_picture(&table).await {
                Ok(png) => Some(png),
                Err(e) => {
                    tracing::warn!(notice = notice.id, error = %e, "tournament news without its crosstable");
                    None
                }
            };
            return Ok(Shown::Tournament(Box::new(TournamentNews {
                table,
                ended: notice.ends_tournament(),
                crosstable,
            })));
        }
        let view = self.game(notice.game_id).await?;
        let news = notice.news();
        let board = if news.shows_board() {
            match self.game_picture(view.id).await {
                Ok(png) if !png.is_empty() => Some(png),
                Ok(_) => None,
                Err(e) => {
                    tracing::warn!(notice = notice.id, error = %e, "a kept notice without its picture");
                    None
                }
            }
        } else {
            None
        };
        Ok(Shown::Game(Box::new(KeptGameNews { news, view, board })))
    }
}
