//! The options given to a command, checked against its row of the table and read into values: a
//! variant of the table, days per move from the one list, a level of the engine's.

use super::example::example_with;
use super::{Kind, Spec, Value, FORMATS, SIDES};
use crate::rules::Variant;
use crate::service::{Format, Person, ServiceError, SideChoice, DAYS_PER_MOVE};

/// Days per move, one of [`DAYS_PER_MOVE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Days(u32);

impl Days {
    /// The days, when they are among those offered.
    pub fn new(days: u32) -> Option<Days> {
        DAYS_PER_MOVE.contains(&days).then_some(Days(days))
    }

    pub fn get(self) -> u32 {
        self.0
    }
}

/// The variant an import reads when none is named: the one aagenielsen.dk's lists are mostly of.
pub(super) fn copenhagen() -> &'static Variant {
    Variant::by_id("copenhagen").unwrap_or(&Variant::all()[0])
}

/// The options given, checked against a command's declaration.
pub struct Args<'a> {
    pub(super) spec: &'static Spec,
    pub(super) given: &'a [(String, Value)],
}

impl Args<'_> {
    fn value(&self, name: &str) -> Option<&Value> {
        self.given.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The kind the table declares for an option.
    fn kind(&self, name: &str) -> Kind {
        self.spec
            .options
            .iter()
            .find(|o| o.name == name)
            .map_or(Kind::Text, |o| o.kind)
    }

    fn bad(&self, name: &str, given: &Value) -> ServiceError {
        ServiceError::BadOption {
            option: name.to_string(),
            given: given.shown(),
            expected: self.kind(name).expected().to_string(),
        }
    }

    /// The refusal of a needed option that was not given, with an example.
    pub fn missing(&self, name: &str) -> ServiceError {
        ServiceError::MissingOption {
            option: name.to_string(),
            example: example_with(self.spec, Some(name)),
        }
    }

    /// The refusal of a row that names no reader.
    pub fn unread(&self) -> ServiceError {
        ServiceError::UnknownCommand(self.spec.name.to_string(), None)
    }

    pub fn text(&self, name: &str) -> Result<Option<String>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::Text(t)) => Ok(Some(t.clone())),
            Some(other) => Err(self.bad(name, other)),
        }
    }

    pub fn needed_text(&self, name: &str) -> Result<String, ServiceError> {
        self.text(name)?
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| self.missing(name))
    }

    /// A number: given as one, or as text (`12`, `#12`).
    pub fn number(&self, name: &str) -> Result<Option<i64>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::Int(n)) => Ok(Some(*n)),
            Some(v @ Value::Text(t)) => t
                .trim()
                .trim_start_matches('#')
                .parse()
                .map(Some)
                .map_err(|_| self.bad(name, v)),
            Some(other) => Err(self.bad(name, other)),
        }
    }

    pub fn flag(&self, name: &str) -> Result<bool, ServiceError> {
        self.flag_or(name, false)
    }

    /// A flag that is `default` when not given.
    pub fn flag_or(&self, name: &str, default: bool) -> Result<bool, ServiceError> {
        match self.value(name) {
            None => Ok(default),
            Some(Value::Flag(b)) => Ok(*b),
            Some(v @ Value::Text(t)) => match t.trim().to_ascii_lowercase().as_str() {
                "" | "true" | "yes" | "on" => Ok(true),
                "false" | "no" | "off" => Ok(false),
                _ => Err(self.bad(name, v)),
            },
            Some(other) => Err(self.bad(name, other)),
        }
    }

    pub fn user(&self, name: &str) -> Result<Option<Person>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::User(p)) => Ok(Some(p.clone())),
            Some(other) => Err(self.bad(name, other)),
        }
    }

    pub fn role(&self, name: &str) -> Result<Option<crate::service::TeamRole>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::Role(r)) => Ok(Some(r.clone())),
            Some(other) => Err(self.bad(name, other)),
        }
    }

    pub fn needed_user(&self, name: &str) -> Result<Person, ServiceError> {
        self.user(name)?.ok_or_else(|| self.missing(name))
    }

    /// A variant of the table, by its id.
    pub fn variant(&self, name: &str) -> Result<Option<&'static Variant>, ServiceError> {
        match self.text(name)? {
            None => Ok(None),
            Some(id) => Ok(Some(id.parse::<&'static Variant>()?)),
        }
    }

    pub fn needed_variant(&self, name: &str) -> Result<&'static Variant, ServiceError> {
        match self.text(name)? {
            Some(id) if !id.trim().is_empty() => Ok(id.parse::<&'static Variant>()?),
            _ => Err(self.missing(name)),
        }
    }

    pub fn side(&self, name: &str) -> Result<Option<SideChoice>, ServiceError> {
        self.choice(name, &SIDES)
    }

    /// One of `choices`: as Discord sends it, its number; as typed, its name.
    fn choice<T: Copy + std::str::FromStr>(
        &self,
        name: &str,
        choices: &[T],
    ) -> Result<Option<T>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(v @ Value::Int(i)) => usize::try_from(*i)
                .ok()
                .and_then(|i| choices.get(i).copied())
                .map(Some)
                .ok_or_else(|| self.bad(name, v)),
            Some(v @ Value::Text(t)) => t.parse().map(Some).map_err(|_| self.bad(name, v)),
            Some(other) => Err(self.bad(name, other)),
        }
    }

    /// On (true) or off: a choice's number, or the words.
    pub fn switch(&self, name: &str) -> Result<Option<bool>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::Int(0)) | Some(Value::Flag(true)) => Ok(Some(true)),
            Some(Value::Int(1)) | Some(Value::Flag(false)) => Ok(Some(false)),
            Some(v @ Value::Text(t)) => match t.trim().to_ascii_lowercase().as_str() {
                "on" | "true" | "yes" => Ok(Some(true)),
                "off" | "false" | "no" => Ok(Some(false)),
                _ => Err(self.bad(name, v)),
            },
            Some(other) => Err(self.bad(name, other)),
        }
    }

    /// taflbot's level, one of the engine's.
    pub fn level(&self, name: &str) -> Result<Option<u8>, ServiceError> {
        let Some(n) = self.number(name)? else {
            return Ok(None);
        };
        match u8::try_from(n) {
            Ok(l) if crate::engine::LEVELS.contains(&l) => Ok(Some(l)),
            _ => Err(self.bad(name, &Value::Int(n))),
        }
    }

    /// Days per move, one of those offered.
    pub fn days(&self, name: &str) -> Result<Option<Days>, ServiceError> {
        let Some(n) = self.number(name)? else {
            return Ok(None);
        };
        match u32::try_from(n) {
            Ok(d) => Days::new(d).map(Some).ok_or(ServiceError::BadDays(d)),
            Err(_) => Err(self.bad(name, &Value::Int(n))),
        }
    }

    /// A tournament's format: a choice's number, or its name (`round-robin`, `round robin`).
    pub fn format(&self, name: &str) -> Result<Option<Format>, ServiceError> {
        self.choice(name, &FORMATS)
    }

    /// A picture theme.
    pub fn theme(&self, name: &str) -> Result<Option<crate::render::Theme>, ServiceError> {
        self.choice(name, &super::THEMES)
    }

    /// An hour of the day, 0 to 23.
    pub fn hour(&self, name: &str) -> Result<Option<u8>, ServiceError> {
        let Some(n) = self.number(name)? else {
            return Ok(None);
        };
        match u8::try_from(n) {
            Ok(h) if h < 24 => Ok(Some(h)),
            _ => Err(self.bad(name, &Value::Int(n))),
        }
    }

    /// A count from 1 (the service says how many are allowed).
    pub fn count(&self, name: &str) -> Result<Option<u32>, ServiceError> {
        let Some(n) = self.number(name)? else {
            return Ok(None);
        };
        match u32::try_from(n) {
            Ok(c) if c >= 1 => Ok(Some(c)),
            _ => Err(self.bad(name, &Value::Int(n))),
        }
    }
}
