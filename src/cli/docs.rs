//! The book's generated pages: the command reference, made from the command table, and a page per
//! family of variants with each variant's rules in the catalogue's words and its start position
//! drawn by taflbot. `taflbot docs` writes them; a test fails when the committed pages differ.

use crate::commands::{example, example_with, usage, Spec, COMMANDS};
use crate::render::{capitalise, Renderer, Scene, Theme};
use crate::rules::{Family, Game, Variant};
use crate::service::text::article_of;

mod reference;

/// A generated file: its path under `docs/`, and its bytes.
pub struct Page {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// Every generated page of the book, in a fixed order.
pub fn pages() -> Vec<Page> {
    let mut out = vec![Page {
        path: "commands.md".into(),
        bytes: commands_page().into_bytes(),
    }];
    out.push(Page {
        path: "command-line.md".into(),
        bytes: reference::page().into_bytes(),
    });
    let renderer = Renderer::new();
    for family in FAMILIES {
        let variants: Vec<&'static Variant> = Variant::all()
            .iter()
            .filter(|v| v.family == family.0)
            .collect();
        out.push(Page {
            path: format!("rules/{}.md", family.1),
            bytes: family_page(&family, &variants).into_bytes(),
        });
        for v in variants {
            let game = Game::new(v);
            out.push(Page {
                path: format!("rules/{}.png", v.id),
                bytes: renderer.png(&Scene::game(&game), Theme::Classic),
            });
        }
    }
    out
}

/// The families, each with its page's file name and title, in the order the rules page lists
/// them. A family's page opens with its guide, `src/cli/docs/FILE.md` ([`guide`]).
pub const FAMILIES: [(Family, &str, &str); 7] = [
    (Family::Copenhagen, "copenhagen", "Copenhagen and Fetlar"),
    (Family::Tablut, "tablut", "Tablut"),
    (Family::Brandubh, "brandubh", "Brandubh"),
    (Family::Tyr, "tyr", "TYR"),
    (Family::Odin, "odin", "ODIN"),
    (Family::SeaBattle, "sea-battle", "Sea Battle"),
    (
        Family::SaveTheStandard,
        "save-the-standard",
        "Save the Standard",
    ),
];

const GENERATED: &str =
    "<!-- Made by `taflbot docs` from the catalogue of variants: edit the catalogue, not this page. -->";

/// A family's guide for a newcomer, in the book's words: the idea, the pieces, capturing, the
/// king, winning, how it plays. The rules as taflbot checks them follow it on the page, variant
/// by variant, in the catalogue's words.
fn guide(family: Family) -> &'static str {
    match family {
        Family::Copenhagen => include_str!("docs/copenhagen.md"),
        Family::Tablut => include_str!("docs/tablut.md"),
        Family::Brandubh => include_str!("docs/brandubh.md"),
        Family::Tyr => include_str!("docs/tyr.md"),
        Family::Odin => include_str!("docs/odin.md"),
        Family::SeaBattle => include_str!("docs/sea-battle.md"),
        Family::SaveTheStandard => include_str!("docs/save-the-standard.md"),
    }
}

fn family_page(family: &(Family, &str, &str), variants: &[&'static Variant]) -> String {
    let mut out = format!(
        "<!-- Made by `taflbot docs` from src/cli/docs/{}.md and the catalogue of variants: \
         edit those, not this page. -->\n\n# {}\n\n[All the rules](README.md) · [The \
         book](../README.md)\n\n{}\nThe rules as taflbot checks them, variant by variant, are \
         below; [the rules page](README.md) gives the readings taken where the sources leave \
         room.\n",
        family.1,
        family.2,
        guide(family.0)
    );
    for v in variants {
        out.push_str(&format!(
            "\n## {} (`{}`)\n\n{}\n\n{} {}x{} board. The start, as a position string: `{}`\n\n![The start of {}]({}.png)\n",
            v.name, v.id, v.summary, capitalise(article_of(u64::from(v.files))), v.files, v.ranks, v.setup, v.name, v.id
        ));
    }
    out
}

/// The command reference: every row of the command table, with its options and an example, as
/// both Discord and the local mode take it.
pub fn commands_page() -> String {
    let mut out = format!(
        "{GENERATED}\n\n# Commands\n\n\
         Every command of taflbot, as Discord's slash commands take it; the [local \
         mode](local-mode.md) takes the same words without the slash and after the player's name \
         (`alice move move:d1-d3`, or `alice move d1-d3`). [The book](README.md) · \
         [Playing](playing.md)\n"
    );
    for spec in COMMANDS {
        out.push_str(&command_section(spec));
    }
    out
}

fn command_section(spec: &Spec) -> String {
    let mut out = format!("\n## /{}\n\n{}", spec.name, spec.description);
    if !spec.more.is_empty() {
        out.push(' ');
        out.push_str(spec.more);
    }
    out.push_str(&format!("\n\n`{}`\n", usage(spec)));
    if !spec.options.is_empty() {
        out.push_str("\n| option | | what it is |\n| --- | --- | --- |\n");
        for o in spec.options {
            let need = if o.required { "needed" } else { "optional" };
            out.push_str(&format!(
                "| `{}` | {need} | {} |\n",
                o.name,
                o.description.replace('|', "\\|")
            ));
        }
    }
    let place = if spec.guild_only {
        "In a server's channel."
    } else {
        "In a server, and in direct messages where taflbot is installed on your account."
    };
    out.push_str(&format!("\n{place} Example: `{}`\n", example_of(spec)));
    out
}

/// An example with every needed option, and the first optional one where none is needed.
fn example_of(spec: &Spec) -> String {
    let needed = example(spec);
    if spec.options.iter().any(|o| o.required) {
        return needed;
    }
    match spec.options.first() {
        Some(o) => example_with(spec, Some(o.name)),
        None => needed,
    }
}

/// `taflbot docs`: writes the generated pages under `out`, and says how many.
pub fn write(out: &std::path::Path) -> Result<String, super::CliError> {
    let pages = pages();
    for page in &pages {
        let path = out.join(&page.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                super::CliError::message(format!("cannot make {}: {e}", parent.display()))
            })?;
        }
        std::fs::write(&path, &page.bytes).map_err(|e| {
            super::CliError::message(format!("cannot write {}: {e}", path.display()))
        })?;
    }
    Ok(format!(
        "wrote {} pages under {}\n",
        pages.len(),
        out.display()
    ))
}
