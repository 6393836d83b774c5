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
            "there is no variant \"{}\"; the variants are {}",
            self.0.escape_debug(),
            ids.join(", ")
        )
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
