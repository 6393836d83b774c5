//! What Discord says of a team game's voters when a window closes: still members, and with
//! which roles. Asked member by member (`GET /guilds/{guild}/members/{user}`), which needs no
//! privileged intent.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use poise::serenity_prelude::{GuildId, Http, UserId};

use super::post::{parse_id, refusal};
use crate::service::{Membership, Roster};

/// Discord's code for a user who is not a member of the server.
const UNKNOWN_MEMBER: isize = 10007;

/// The roster of the servers taflbot is in.
pub struct DiscordRoster {
    pub http: Arc<Http>,
}

impl Roster for DiscordRoster {
    fn membership<'a>(
        &'a self,
        guild: &'a str,
        member: &'a str,
    ) -> Pin<Box<dyn Future<Output = Membership> + Send + 'a>> {
        Box::pin(async move {
            let (Some(guild), Some(user)) = (parse_id(guild), parse_id(member)) else {
                return Membership::Unknown;
            };
            match self
                .http
                .get_member(GuildId::new(guild), UserId::new(user))
                .await
            {
                Ok(m) => Membership::Roles(m.roles.iter().map(|r| r.to_string()).collect()),
                Err(e) if refusal(&e).is_some_and(|(_, code)| code == UNKNOWN_MEMBER) => {
                    Membership::Gone
                }
                Err(e) => {
                    tracing::warn!(guild, user, error = %e, "could not ask whether a voter is a member; the vote stands");
                    Membership::Unknown
                }
            }
        })
    }
}
