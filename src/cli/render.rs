//! `taflbot render`: a position, or the end of replayed turns, as a PNG; a whole game as a GIF.

use super::{replayed, CliError};
use crate::rules::Variant;

/// Draws a position or a replayed game as a PNG, or the whole game as a GIF, into `out`.
pub fn render(
    variant: &'static Variant,
    position: Option<&str>,
    replay_turns: &[String],
    theme: &str,
    flip: bool,
    gif: bool,
    out: &std::path::Path,
) -> Result<String, CliError> {
    use crate::render::{Renderer, Scene, Theme};
    let theme: Theme = theme.parse().map_err(CliError::plain)?;
    // The file's name says what it holds: a .png, or a .gif (which gets a GIF even without
    // --gif); any other is refused before anything is written.
    let extension = out
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let gif = match (extension.as_deref(), gif) {
        (Some("gif"), _) => true,
        (Some("png"), false) => false,
        (Some("png"), true) => {
            return Err(CliError::usage(format!(
                "{} is named .png but --gif writes a GIF: name it .gif",
                out.display()
            )))
        }
        _ => {
            return Err(CliError::usage(format!(
                "{}: taflbot writes .png pictures and .gif games; name the file so",
                out.display()
            )))
        }
    };
    let game = replayed(variant, position, replay_turns, false)?;
    let renderer = Renderer::new();
    let bytes = if gif {
        renderer.gif(&game, theme, flip, None)
    } else {
        renderer.png(&Scene::game(&game).flipped(flip), theme)
    };
    std::fs::write(out, &bytes)
        .map_err(|e| CliError::message(format!("cannot write {}: {e}", out.display())))?;
    Ok(format!("wrote {} ({} bytes)\n", out.display(), bytes.len()))
}
