//! Where an interaction comes from, and what that allows: the installs and places a command is
//! declared for, whether the server installed taflbot, whether a public answer may be posted
//! there, where a game begun there is placed, who is too new for rated play, and which roles
//! named to be pinged Discord would not notify.

use poise::serenity_prelude as serenity;
use serenity::ChannelId;

/// Whether a channel is a thread (a forum post is one).
fn is_thread(channel: &serenity::PartialChannel) -> bool {
    use serenity::ChannelType as T;
    matches!(
        channel.kind,
        T::PublicThread | T::PrivateThread | T::NewsThread
    )
}

/// Where a command may be given. A command that needs no server (rules, puzzles, help, an
/// import) is declared for both installs, in a server or on a user's account, and is given in
/// servers, the bot's direct messages and group DMs: there it is answered, and nothing is posted
/// later. A game's command is declared for servers that installed taflbot only (games live in
/// their channels, where taflbot posts every move); one that still comes from elsewhere is
/// refused with a sentence saying so (see [`served_here`]).
pub(super) fn contexts(
    guild_only: bool,
) -> (
    Option<Vec<serenity::InstallationContext>>,
    Option<Vec<serenity::InteractionContext>>,
) {
    use serenity::InstallationContext as Install;
    use serenity::InteractionContext as Where;
    if guild_only {
        (Some(vec![Install::Guild]), Some(vec![Where::Guild]))
    } else {
        (
            Some(vec![Install::Guild, Install::User]),
            Some(vec![Where::Guild, Where::BotDm, Where::PrivateChannel]),
        )
    }
}

/// Whether an interaction comes from a server that installed taflbot: where a game's command can
/// be played out (not a direct message, and not a server where only the user installed it).
pub(super) fn served_here(interaction: &serenity::CommandInteraction) -> bool {
    use serenity::AuthorizingIntegrationOwner as Owner;
    let Some(guild) = interaction.guild_id else {
        return false;
    };
    interaction
        .authorizing_integration_owners
        .0
        .iter()
        .any(|owner| matches!(owner, Owner::GuildInstall(Some(g)) if *g == guild))
}

/// Whether a public answer may be posted where the interaction was given. Everywhere but a
/// server where only the user installed taflbot: there Discord holds the answer to the user's own
/// permissions, and refuses a public one where they may not send messages (a read-only or
/// announcements channel, a locked thread).
pub(super) fn may_answer_publicly(interaction: &serenity::CommandInteraction) -> bool {
    if interaction.guild_id.is_none() || served_here(interaction) {
        return true;
    }
    let Some(permissions) = interaction.member.as_ref().and_then(|m| m.permissions) else {
        return true;
    };
    if interaction.channel.as_ref().is_some_and(is_thread) {
        permissions.send_messages_in_threads()
    } else {
        permissions.send_messages()
    }
}

/// The roles an interaction names to be pinged (the home's `ping:@role`, or the sides' roles of a
/// team game started with `ping:true`) that are not mentionable: Discord notifies their members
/// only of a mentionable role (taflbot does not ask for Mention Everyone).
pub(super) fn unnotified_roles(args: &[serenity::ResolvedOption<'_>]) -> Vec<String> {
    use serenity::ResolvedValue as R;
    let pinging = args
        .iter()
        .any(|a| a.name == "ping" && matches!(a.value, R::Boolean(true)));
    args.iter()
        .filter_map(|a| match &a.value {
            R::Role(r) if !r.mentionable && (a.name == "ping" || pinging) => Some(r.name.clone()),
            _ => None,
        })
        .collect()
}

/// Where a game or tournament begun in `channel` is placed: the channel, or the parent of a
/// thread (Discord refuses a thread inside a thread with 50024, and a forum post is a thread).
pub(super) fn home(channel: ChannelId, place: Option<&serenity::PartialChannel>) -> ChannelId {
    match place {
        Some(p) if is_thread(p) => p.parent_id.unwrap_or(channel),
        _ => channel,
    }
}

/// Whether an account is too new, or too new in this server, for rated play: Discord ids carry
/// the account's creation time; a member's joining time comes with the interaction (none in a
/// direct message, where nothing is rated).
pub(super) fn newcomer(
    user: serenity::UserId,
    joined: Option<serenity::Timestamp>,
    now: i64,
) -> bool {
    use crate::service::{DAY, RATED_ACCOUNT_DAYS, RATED_MEMBER_DAYS};
    let created = user.created_at().unix_timestamp();
    let young = now - created < RATED_ACCOUNT_DAYS * DAY;
    let arrived = joined.is_some_and(|j| now - j.unix_timestamp() < RATED_MEMBER_DAYS * DAY);
    young || arrived
}
