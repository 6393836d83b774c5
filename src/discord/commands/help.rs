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

pub async fn help(c: &Call<'_>) -> Result<(), ServiceError> {
    c.answer(Reply::private(help_text())).await;
    Ok(())
}
