//! A variant named by its id: equality, `Display` and `FromStr`, so that every front end (clap,
//! the command table, stored rows) reads an id straight into a row of the table.

use super::Variant;

/// Variants are one table's rows: two are the same when their ids are.
impl PartialEq for Variant {
    fn eq(&self, other: &Variant) -> bool {
        self.id == other.id
    }
}

impl Eq for Variant {}

/// A variant shows as its id (`tyr-11`), which is how it is read back.
impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

/// A variant id that names no row of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl std::fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids: Vec<&str> = Variant::all().iter().map(|v| v.id).collect();
        write!(
            f,
            "there is no variant \"{}\"{}; the variants are {}",
            self.0.escape_debug(),
            did_you_mean(&self.0),
            ids.join(", ")
        )
    }
}

/// The variants a mistyped id most likely meant, at most three: those whose name holds what was
/// typed (`hnefatafl`: Copenhagen and Fetlar), else those within two edits of their id.
pub fn closest(typed: &str) -> Vec<&'static str> {
    let typed = typed.trim().to_lowercase();
    if typed.is_empty() {
        return Vec::new();
    }
    let named: Vec<&'static str> = Variant::all()
        .iter()
        .filter(|v| typed.len() >= 3 && v.name.to_lowercase().contains(&typed))
        .map(|v| v.id)
        .take(3)
        .collect();
    if !named.is_empty() {
        return named;
    }
    let mut near: Vec<(usize, &'static str)> = Variant::all()
        .iter()
        .map(|v| (strsim::osa_distance(&typed, v.id), v.id))
        .filter(|(d, _)| *d <= 2)
        .collect();
    near.sort();
    near.into_iter().take(3).map(|(_, id)| id).collect()
}

/// ` (did you mean copenhagen or fetlar?)`, or nothing when no variant is close.
pub fn did_you_mean(typed: &str) -> String {
    match closest(typed).as_slice() {
        [] => String::new(),
        [one] => format!(" (did you mean {one}?)"),
        [rest @ .., last] => format!(" (did you mean {} or {last}?)", rest.join(", ")),
    }
}

impl std::error::Error for UnknownVariant {}

/// Reads a variant by its id, case-insensitive (`"TYR-11".parse::<&Variant>()`), so that clap
/// and the command table read options straight into a row of the table.
impl std::str::FromStr for &'static Variant {
    type Err = UnknownVariant;

    fn from_str(id: &str) -> Result<&'static Variant, UnknownVariant> {
        Variant::by_id(id).ok_or_else(|| UnknownVariant(id.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::{closest, did_you_mean};

    #[test]
    fn a_mistyped_variant_is_met_with_the_ones_it_likely_meant() {
        assert_eq!(closest("hnefatafl"), ["copenhagen", "fetlar"]);
        assert_eq!(closest("copenhagn"), ["copenhagen"]);
        assert_eq!(closest("brandub"), ["brandubh"]);
        assert!(closest("chess").is_empty());
        assert_eq!(
            did_you_mean("hnefatafl"),
            " (did you mean copenhagen or fetlar?)"
        );
        assert_eq!(did_you_mean("chess"), "");
    }
}
