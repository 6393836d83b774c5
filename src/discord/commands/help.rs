//! `/help`: the command table as Discord shows it.

use super::{Call, STYLE};
use crate::commands;
use crate::discord::post::Reply;
use crate::service::text::Style;
use crate::service::ServiceError;

/// The help text of `/help`, made from the command table.
pub fn help_text() -> String {
    commands::help(|usage| STYLE.code(usage))
}

/// The help text of one command, as Discord shows it.
pub fn help_for(name: &str) -> Result<String, ServiceError> {
    commands::help_for(name, |usage| STYLE.code(usage))
        .ok_or_else(|| ServiceError::UnknownCommand(name.to_string()))
}

pub async fn help(c: &Call<'_>, command: Option<&str>) -> Result<(), ServiceError> {
    let said = match command {
        Some(name) => help_for(name)?,
        None => help_text(),
    };
    c.answer(Reply::private(said)).await;
    Ok(())
}
