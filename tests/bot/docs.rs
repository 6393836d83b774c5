//! The book: its generated pages are what the command table and the catalogue make, every
//! relative link resolves (to a file, and to a heading where it names one), and every example
//! session of the README and the book runs through the local mode with no refusal.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README, BENCHMARKS.md and every page of the book.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md"), root().join("BENCHMARKS.md")];
    let mut folders = vec![root().join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_generated_pages_are_what_the_table_and_the_catalogue_make() {
    let stale: Vec<String> = taflbot::cli::docs::pages()
        .into_iter()
        .filter(|page| {
            std::fs::read(root().join("docs").join(&page.path)).ok() != Some(page.bytes.clone())
        })
        .map(|page| page.path)
        .collect();
    assert!(
        stale.is_empty(),
        "these pages differ from what `cargo run --release -- docs` writes: {stale:?}"
    );
}

/// A heading's anchor as GitHub makes it: lower case, spaces as hyphens, punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors_of(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of a page's Markdown links `[..](target)`, outside code.
fn links_of(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_of_the_readme_and_the_book_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let here = page.parent().unwrap();
        for link in links_of(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, heading) = match link.split_once('#') {
                Some((file, heading)) => (file, Some(heading)),
                None => (link.as_str(), None),
            };
            let target: PathBuf = if file.is_empty() {
                page.clone()
            } else {
                here.join(file)
            };
            let shown = format!("{}: {link}", page.strip_prefix(root()).unwrap().display());
            if !target.exists() {
                broken.push(shown);
                continue;
            }
            if let Some(heading) = heading {
                let text = std::fs::read_to_string(&target).unwrap_or_default();
                if !anchors_of(&text).iter().any(|a| a == heading) {
                    broken.push(shown);
                }
            }
        }
    }
    assert!(checked > 40, "only {checked} links were found");
    assert!(broken.is_empty(), "links that lead nowhere: {broken:#?}");
}

#[test]
fn no_page_of_the_rules_links_out_of_the_repository() {
    for page in pages()
        .into_iter()
        .filter(|p| p.parent().unwrap().ends_with("rules"))
    {
        let text = std::fs::read_to_string(&page).unwrap();
        for link in links_of(&text) {
            assert!(!link.contains("://"), "{}: {link}", page.display());
        }
    }
}

/// The example sessions of a page: its code blocks fenced as ```local.
fn sessions_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<String> = None;
    for line in text.lines() {
        match (&mut open, line.trim_start()) {
            (None, "```local") => open = Some(String::new()),
            (Some(_), "```") => out.extend(open.take()),
            (Some(session), l) => {
                session.push_str(l);
                session.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

#[tokio::test]
async fn every_example_session_of_the_readme_and_the_book_runs_with_no_refusal() {
    let mut run = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, session) in sessions_of(&text).into_iter().enumerate() {
            let name = format!("docs-{}-{i}", page.file_stem().unwrap().to_string_lossy());
            let folder = crate::support::scratch(&name);
            let (svc, _) = crate::support::service_at(":memory:", crate::support::T0).await;
            let mut out = Vec::new();
            let at = taflbot::local::Session::new(Path::new(&*folder));
            taflbot::local::run(&svc, session.as_bytes(), &mut out, &at)
                .await
                .unwrap();
            let said = String::from_utf8(out).unwrap();
            let refused: Vec<&str> = said.lines().filter(|l| l.starts_with("error:")).collect();
            assert!(
                refused.is_empty(),
                "{} refuses {refused:?} in:\n{said}",
                page.display()
            );
            run += 1;
        }
    }
    assert!(run >= 2, "only {run} sessions were found");
}
