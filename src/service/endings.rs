//! Endings by the players: resignation, a draw offered and accepted (or declined), and a game
//! called off before its first move. Losses on time are the sweeper's (`deadlines.rs`).

use super::finish::Ending;
use super::load::Loaded;
use super::rows::GameResult;
use super::{GameNews, News, Person, Service, ServiceError};

impl Service {
    /// Resigns a game; before each side has made a turn, calls it off instead (the news is then
    /// [`News::Aborted`]).
    pub async fn resign(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameNews, ServiceError> {
        let (mut tx, mut loaded, seat) = self.open_game(who, id, channel, false).await?;
        loaded.ensure_active()?;
        loaded.game.resign(seat)?;
        self.finish(&mut tx, &mut loaded, Ending::ByThePlayers, None)
            .await?;
        tx.commit().await?;
        Ok(GameNews {
            news: resigned(&loaded, who.clone()),
            view: loaded.view(),
        })
    }

    /// Offers a draw (the news is [`News::DrawOffered`]), or accepts the opponent's open offer
    /// ([`News::DrawAgreed`]: the game ended in a draw; before each side has made a turn,
    /// [`News::Aborted`]: it is called off).
    pub async fn draw(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameNews, ServiceError> {
        self.draw_or_offer(who, id, channel, true).await
    }

    /// Accepts the opponent's open draw offer, and only that (a stale Accept draw button must not
    /// become an offer of its own).
    pub async fn accept_draw(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameNews, ServiceError> {
        self.draw_or_offer(who, id, channel, false).await
    }

    async fn draw_or_offer(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        may_offer: bool,
    ) -> Result<GameNews, ServiceError> {
        let (mut tx, mut loaded, me) = self.open_active(who, id, channel).await?;
        let id = loaded.row.id;
        let agreed = matches!(loaded.row.draw_offer, Some(by) if by != me);
        if !agreed && !may_offer {
            return Err(ServiceError::NoDrawOffer(id));
        }
        if agreed {
            loaded.game.agree_draw()?;
            self.finish(&mut tx, &mut loaded, Ending::ByThePlayers, None)
                .await?;
        } else {
            if loaded.row.draw_offer == Some(me) {
                return Err(ServiceError::DrawAlreadyOffered(id));
            }
            sqlx::query("UPDATE games SET draw_offer = $1 WHERE id = $2")
                .bind(me)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            loaded.row.draw_offer = Some(me);
        }
        tx.commit().await?;
        let by = who.clone();
        Ok(GameNews {
            view: loaded.view(),
            news: if agreed && loaded.row.result == GameResult::Aborted {
                News::Aborted { by }
            } else if agreed {
                News::DrawAgreed { by }
            } else {
                News::DrawOffered { by }
            },
        })
    }

    /// Declines the opponent's open draw offer.
    pub async fn decline_draw(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameNews, ServiceError> {
        let (mut tx, mut loaded, me) = self.open_active(who, id, channel).await?;
        let id = loaded.row.id;
        match loaded.row.draw_offer {
            Some(by) if by != me => {}
            _ => return Err(ServiceError::NoDrawOffer(id)),
        }
        sqlx::query("UPDATE games SET draw_offer = NULL WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        loaded.row.draw_offer = None;
        Ok(GameNews {
            view: loaded.view(),
            news: News::DrawDeclined { by: who.clone() },
        })
    }

    /// Aborts a game before its first move: it ends with no result.
    pub async fn abort(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameNews, ServiceError> {
        let (mut tx, mut loaded, _) = self.open_game(who, id, channel, false).await?;
        let id = loaded.row.id;
        loaded.ensure_active()?;
        if loaded.row.move_count > 0 {
            return Err(ServiceError::CannotAbort(id));
        }
        if loaded.row.tournament_id.is_some() {
            return Err(ServiceError::TournamentGame(id));
        }
        let (done, _) = self
            .finish(&mut tx, &mut loaded, Ending::Aborted, None)
            .await?;
        if !done {
            return Err(ServiceError::CannotAbort(id));
        }
        tx.commit().await?;
        Ok(GameNews {
            view: loaded.view(),
            news: News::Aborted { by: who.clone() },
        })
    }

    /// The game `who` means, going on, in a write transaction, with `who`'s player id.
    pub(super) async fn open_active(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<(sqlx::Transaction<'static, sqlx::Any>, Loaded, i64), ServiceError> {
        let (tx, loaded, seat) = self.open_game(who, id, channel, false).await?;
        loaded.ensure_active()?;
        let me = loaded.row.player_ids()[seat];
        Ok((tx, loaded, me))
    }
}

/// The news of `by`'s resignation of the finished game `loaded`: [`News::Aborted`] where it was
/// called off (before each side had made a turn), else [`News::Resigned`].
pub(super) fn resigned(loaded: &Loaded, by: Person) -> News {
    if loaded.row.result == GameResult::Aborted {
        News::Aborted { by }
    } else {
        News::Resigned { by }
    }
}
