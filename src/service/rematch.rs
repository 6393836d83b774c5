//! A rematch: the same terms as a finished game with the sides swapped, offered to the opponent
//! as a challenge (the challenge limits apply), or against taflbot begun at once.

use super::{Challenge, GameView, Person, Service, ServiceError, SideChoice, Terms};
use crate::rules::Side;

/// What a rematch began.
#[derive(Clone, Debug)]
pub enum Rematch {
    /// A challenge to the opponent, for them to answer.
    Offered(Challenge),
    /// A new game against taflbot.
    AgainstBot(Box<GameView>),
}

impl Service {
    /// `who` asks for a rematch of game `id`, which must be over: the same variant, days per move
    /// and rating as it had, `who` on the other side, from the start position (or, for a game
    /// continued from a record, from the same record).
    pub async fn rematch(
        &self,
        who: &Person,
        taflbot: &Person,
        id: i64,
        channel: Option<&str>,
    ) -> Result<Rematch, ServiceError> {
        let (terms_of, view) = {
            let mut conn = self.pool.acquire().await?;
            let loaded = self.load(&mut conn, id).await?;
            let seat = loaded.seat_of(who)?;
            let view = loaded.view();
            if view.outcome.is_none() && !view.aborted {
                return Err(ServiceError::RematchOfLiveGame(id));
            }
            let record = loaded
                .record()
                .map(|(record, _)| crate::notation::write_record(&record, &[]));
            ((seat, loaded.row.days, record), view)
        };
        let (seat, days, record) = terms_of;
        let terms = Terms {
            variant: view.variant,
            side: match seat {
                Side::Attackers => SideChoice::Defenders,
                Side::Defenders => SideChoice::Attackers,
            },
            days: u32::try_from(days).ok(),
            // Rated as it was (or would have been, had the pair not played enough today).
            rated: view.rated || view.pair_limited,
            from: record.as_deref(),
        };
        match view.bot {
            Some((_, level)) => Ok(Rematch::AgainstBot(Box::new(
                self.play_bot(who, taflbot, &terms, Some(level), channel)
                    .await?,
            ))),
            None => {
                let opponent = view.opponent_of(who).clone();
                Ok(Rematch::Offered(
                    self.offer(who, &opponent, &terms, channel).await?,
                ))
            }
        }
    }
}
