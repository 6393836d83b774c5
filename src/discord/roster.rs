//! What Discord says of a team game's voters when a window closes: still members, and with
//! which roles. Asked member by member (`GET /guilds/{guild}/members/{user}`), which needs no
//! privileged intent.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use poise::serenity_prelude::{GuildId, Http, UserId};

use super::post::{parse_id, refusal};
use crate::service::{Membership, Roster, ServerSeen};

/// Discord's code for a user who is not a member of the server.
const UNKNOWN_MEMBER: isize = 10007;
/// Discord's codes for a server that does not exist, and for one the bot is not in.
const UNKNOWN_GUILD: isize = 10004;
const MISSING_ACCESS: isize = 50001;

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

    fn server<'a>(
        &'a self,
        guild: &'a str,
    ) -> Pin<Box<dyn Future<Output = ServerSeen> + Send + 'a>> {
        Box::pin(async move {
            match parse_id(guild) {
                Some(id) => server_seen(&self.http, GuildId::new(id)).await,
                None => ServerSeen::NotIn,
            }
        })
    }
}

/// Whether taflbot is in a server, and its name, asked of Discord (`GET /guilds/{id}`; only the
/// name is read of the answer).
pub async fn server_seen(http: &Http, guild_id: GuildId) -> ServerSeen {
    use poise::serenity_prelude::http::{LightMethod, Request, Route};
    let request = Request::new(Route::Guild { guild_id }, LightMethod::Get);
    match http.fire::<serde_json::Value>(request).await {
        Ok(g) => match g["name"].as_str().filter(|n| !n.trim().is_empty()) {
            Some(name) => ServerSeen::In(name.to_string()),
            None => ServerSeen::Unknown,
        },
        Err(e)
            if refusal(&e).is_some_and(|(status, code)| {
                matches!(code, UNKNOWN_GUILD | MISSING_ACCESS) || status == 403
            }) =>
        {
            ServerSeen::NotIn
        }
        Err(e) => {
            tracing::warn!(guild = %guild_id, error = %e, "could not ask Discord about a server");
            ServerSeen::Unknown
        }
    }
}
