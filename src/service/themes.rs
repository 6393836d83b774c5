//! Themes of the pictures: the one a player chose for the pictures made for them (a board they
//! ask for, a review's chart, their rating chart), and the default a server's managers chose for
//! its game threads and for its players who chose none.

use sqlx::AnyConnection;

use super::{Person, Service, ServiceError};
use crate::render::Theme;

/// Where the themes stand for a player, after what `/theme` changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThemeSetting {
    /// The player's own theme, if they chose one.
    pub mine: Option<Theme>,
    /// The server's default (None: classic), where the command was given in a server.
    pub server: Option<Theme>,
    /// Whether the command was given in a server.
    pub in_server: bool,
    /// Whether this command changed the server's default (not the player's theme).
    pub set_server: bool,
}

impl ThemeSetting {
    /// The theme of the pictures made for the player here.
    pub fn theirs(&self) -> Theme {
        self.mine.or(self.server).unwrap_or(Theme::Classic)
    }
}

/// A stored theme's name read back; a name no theme has any more is classic.
fn stored(name: Option<String>) -> Option<Theme> {
    name.and_then(|n| n.parse().ok())
}

impl Service {
    /// `/theme`: sets the caller's theme (or, with `for_server`, the server's default, which only
    /// its managers may do), and says where both stand; no theme shows them.
    pub async fn set_theme(
        &self,
        who: &Person,
        theme: Option<Theme>,
        for_server: bool,
        manages: bool,
    ) -> Result<ThemeSetting, ServiceError> {
        let guild = self.scope.guild();
        match (theme, for_server) {
            (None, _) => {}
            (Some(theme), true) => {
                let Some(guild) = guild else {
                    return Err(ServiceError::NotInServer);
                };
                if !manages {
                    return Err(ServiceError::NotManager);
                }
                let mut tx = self.write().await?;
                let by = self.player_id(&mut tx, who).await?;
                sqlx::query(
                    "INSERT INTO server_settings (guild, theme, set_by, set_at)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (guild) DO UPDATE
                     SET theme = excluded.theme, set_by = excluded.set_by, set_at = excluded.set_at",
                )
                .bind(guild)
                .bind(theme.name())
                .bind(by)
                .bind(self.now())
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
            }
            (Some(theme), false) => {
                let mut tx = self.write().await?;
                let id = self.player_id(&mut tx, who).await?;
                sqlx::query("UPDATE players SET theme = $1 WHERE id = $2")
                    .bind(theme.name())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
            }
        }
        let mut conn = self.pool.acquire().await?;
        Ok(ThemeSetting {
            mine: self.own_theme(&mut conn, who).await?,
            server: match guild {
                Some(g) => self.server_theme(&mut conn, Some(g)).await?,
                None => None,
            },
            in_server: guild.is_some(),
            set_server: for_server && theme.is_some(),
        })
    }

    /// The theme of the pictures made for `who` here: theirs, else the server's, else classic.
    pub(super) async fn theme_for(&self, who: &Person) -> Result<Theme, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        if let Some(mine) = self.own_theme(&mut conn, who).await? {
            return Ok(mine);
        }
        self.default_theme(&mut conn).await
    }

    /// The theme of the pictures made for everyone here who chose none (a crosstable, say):
    /// the server's default, else classic.
    pub(super) async fn default_theme(
        &self,
        conn: &mut AnyConnection,
    ) -> Result<Theme, ServiceError> {
        Ok(self
            .server_theme(conn, self.scope.guild())
            .await?
            .unwrap_or(Theme::Classic))
    }

    async fn own_theme(
        &self,
        conn: &mut AnyConnection,
        who: &Person,
    ) -> Result<Option<Theme>, ServiceError> {
        let name: Option<Option<String>> =
            sqlx::query_scalar("SELECT theme FROM players WHERE key = $1")
                .bind(&who.key)
                .fetch_optional(&mut *conn)
                .await?;
        Ok(stored(name.flatten()))
    }

    /// A server's default theme (None: classic, or no server).
    pub(super) async fn server_theme(
        &self,
        conn: &mut AnyConnection,
        guild: Option<&str>,
    ) -> Result<Option<Theme>, ServiceError> {
        let Some(guild) = guild else {
            return Ok(None);
        };
        let name: Option<Option<String>> =
            sqlx::query_scalar("SELECT theme FROM server_settings WHERE guild = $1")
                .bind(guild)
                .fetch_optional(&mut *conn)
                .await?;
        Ok(stored(name.flatten()))
    }
}
