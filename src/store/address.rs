//! Database addresses as they are given (a SQLite path, a `sqlite:` URL or a `postgres://` URL):
//! read, checked and shown without their secrets.

use super::{Engine, StoreError};

/// The keywords of libpq's connection strings that a database's place or secret is given by.
const LIBPQ_KEYWORDS: [&str; 9] = [
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "sslmode", "service",
];

/// `url` as taflbot reads it: without the spaces around it (a URL pasted with a leading space is
/// still a PostgreSQL URL, not a SQLite file named after it), and refused where it is no form
/// taflbot reads: libpq's keyword string (`host=… password=…`), which would otherwise name a new
/// SQLite file after itself, a URL of another scheme, or a `sqlite:` URL with a user in it. The
/// refusal never repeats what was given, which may hold a password.
pub(super) fn checked(url: &str) -> Result<&str, StoreError> {
    let url = url.trim();
    if postgres_scheme(url).is_some() {
        return Ok(url);
    }
    let keyword = |w: &str| {
        w.split_once('=')
            .is_some_and(|(key, _)| LIBPQ_KEYWORDS.iter().any(|k| key.eq_ignore_ascii_case(k)))
    };
    if url.split_whitespace().any(keyword) {
        return Err(StoreError::Address(
            "it is in libpq's keyword form (host=… dbname=…), which taflbot does not read: give a postgres://user@host/database URL, with the password in PGPASSWORD or ~/.pgpass",
        ));
    }
    let scheme = url.split_once("://").map(|(scheme, _)| scheme).filter(|s| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    match scheme {
        Some(s) if !s.eq_ignore_ascii_case("sqlite") => Err(StoreError::Address(
            "it is a URL of a kind taflbot does not read: give a SQLite file, a sqlite: URL or a postgres:// URL",
        )),
        Some(_) if url.contains('@') => Err(StoreError::Address(
            "it is a sqlite: URL with a user in it, but a sqlite: URL names a file and takes no user or password: give the file's path",
        )),
        _ => Ok(url),
    }
}

/// The length of `url`'s PostgreSQL scheme and its `://` (`postgres://` or `postgresql://`, in
/// any case), if it has one.
pub(super) fn postgres_scheme(url: &str) -> Option<usize> {
    ["postgresql://", "postgres://"]
        .into_iter()
        .find_map(|scheme| {
            url.get(..scheme.len())
                .filter(|head| head.eq_ignore_ascii_case(scheme))
                .map(|_| scheme.len())
        })
}

/// `url` with a PostgreSQL scheme written as sqlx expects it, in lower case.
pub(super) fn lower_scheme(url: &str) -> String {
    match postgres_scheme(url) {
        Some(n) => format!("{}{}", url[..n].to_ascii_lowercase(), &url[n..]),
        None => url.to_string(),
    }
}

/// The query parameters that carry a secret (libpq's `password`, and `passfile`, the path of
/// one): never shown.
const SECRET_PARAMETERS: [&str; 2] = ["password", "passfile"];

/// A database URL as it may be shown: a PostgreSQL URL without its password, whether it is given
/// in the user part (`user:secret@host`) or as a query parameter (`?password=secret`); a SQLite
/// path as it is.
pub fn shown(url: &str) -> String {
    let url = url.trim();
    if let Err(StoreError::Address(_)) = checked(url) {
        return "the address given".into();
    }
    if Engine::of(url) == Engine::Sqlite {
        return url.to_string();
    }
    let Ok(mut parsed) = url::Url::parse(&lower_scheme(url)) else {
        return "a PostgreSQL URL that does not parse".into();
    };
    if parsed.password().is_some() {
        let _ = parsed.set_password(None);
    }
    let kept: Vec<(String, String)> = parsed
        .query_pairs()
        .filter(|(key, _)| {
            !SECRET_PARAMETERS
                .iter()
                .any(|secret| key.trim().eq_ignore_ascii_case(secret))
        })
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if kept.is_empty() {
        parsed.set_query(None);
    } else {
        parsed.query_pairs_mut().clear().extend_pairs(kept);
    }
    parsed.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_trimmed_and_a_keyword_string_or_another_scheme_is_refused() {
        let spaced = " postgres://taflbot:S3cret@db.example/t4k ";
        assert_eq!(checked(spaced).unwrap(), spaced.trim());
        assert_eq!(Engine::of(spaced), Engine::Postgres);
        assert!(!shown(spaced).contains("S3cret"), "{}", shown(spaced));
        for refused in [
            "host=127.0.0.1 port=55444 user=taflbot password=S3cret dbname=t4k",
            "password=S3cret",
            "mysql://taflbot:S3cret@db.example/t4k",
            "sqlite://taflbot:S3cret@db.example/t4k",
        ] {
            let e = checked(refused).unwrap_err();
            assert!(!e.to_string().contains("S3cret"), "{e}");
            assert!(!shown(refused).contains("S3cret"), "{}", shown(refused));
        }
        for path in [
            "taflbot.db",
            "data/a=b.db",
            "sqlite:taflbot.db",
            "sqlite://taflbot.db",
            ":memory:",
        ] {
            assert_eq!(checked(path).unwrap(), path, "{path}");
        }
    }
}
