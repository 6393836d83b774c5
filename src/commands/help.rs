//! The help: how each command is written, and the help texts made from the table.

use super::{spec, Spec, COMMANDS, GROUPS};

/// How a command is written, options in brackets when optional: `/move move [game]`.
pub fn usage(spec: &Spec) -> String {
    let mut out = format!("/{}", spec.name);
    for o in spec.options {
        if o.required {
            out.push_str(&format!(" {}", o.name));
        } else {
            out.push_str(&format!(" [{}]", o.name));
        }
    }
    out
}

/// How a command is written in short, its optional options as one `[…]`: `/move move […]`.
pub fn short_usage(spec: &Spec) -> String {
    let mut out = format!("/{}", spec.name);
    for o in spec.options.iter().filter(|o| o.required) {
        out.push_str(&format!(" {}", o.name));
    }
    if spec.options.iter().any(|o| !o.required) {
        out.push_str(" […]");
    }
    out
}

/// The help text: every command with its usage and what it does in a line. `code` shows a
/// usage as the front end shows commands.
pub fn help(code: impl Fn(&str) -> String) -> String {
    let mut out = String::from(
        "taflbot: tafl by correspondence. Challenge someone, then take turns with move.\n",
    );
    let mut groups_shown: Vec<&str> = Vec::new();
    for c in COMMANDS {
        out.push('\n');
        // A group's commands are one line: `/tournament create|join|...`.
        if let Some((group, _)) = c.name.split_once(' ') {
            if groups_shown.contains(&group) {
                out.pop();
                continue;
            }
            groups_shown.push(group);
            let subs: Vec<&str> = COMMANDS
                .iter()
                .filter_map(|c| c.name.strip_prefix(group)?.strip_prefix(' '))
                .collect();
            out.push_str(&code(&format!("/{group} {}", subs.join("|"))));
            out.push_str(": ");
            out.push_str(group_description(group));
            continue;
        }
        out.push_str(&code(&short_usage(c)));
        out.push_str(": ");
        out.push_str(c.description);
    }
    out.push_str(&format!(
        "\n\n[…]: optional (game, when several could be meant). Out of time loses \
         (a reminder comes first). {} tells all.",
        code("/help command")
    ));
    out
}

/// The commands a help request names: `challenge`, `/Challenge`, an alias, or a group
/// (`tournament`: all of its commands). None when it names nothing.
pub fn help_specs(name: &str) -> Vec<&'static Spec> {
    let name = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches('/')
        .to_ascii_lowercase();
    if let Some(one) = spec(&name) {
        return vec![one];
    }
    let group = format!("{name} ");
    COMMANDS
        .iter()
        .filter(|c| !name.is_empty() && c.name.starts_with(&group))
        .collect()
}

/// What a group of commands is for (`tournament`).
pub fn group_description(group: &str) -> &'static str {
    GROUPS
        .iter()
        .find(|(name, _)| *name == group)
        .map_or("more commands", |(_, description)| description)
}

/// The help of several commands (a group's): each usage and what it does.
pub fn help_list(specs: &[&Spec], code: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    for c in specs {
        out.push_str(&format!("{}: {}\n", code(&usage(c)), c.description));
    }
    out.push_str(&format!(
        "{} tells all about one.",
        code(&format!(
            "/help {}",
            specs.first().map_or("command", |c| c.name)
        ))
    ));
    out
}

/// All about one command: its usage, what it does, and each option.
pub fn help_for(c: &Spec, code: impl Fn(&str) -> String) -> String {
    let mut out = format!("{}: {}", code(&usage(c)), c.description);
    if !c.more.is_empty() {
        out.push(' ');
        out.push_str(c.more);
    }
    for o in c.options {
        let need = if o.required { "needed" } else { "optional" };
        out.push_str(&format!("\n{} ({need}): {}", code(o.name), o.description));
    }
    out
}
