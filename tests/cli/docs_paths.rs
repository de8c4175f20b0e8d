//! Every repository path that the documentation names exists: `src/…`,
//! `tests/…`, `benches/…`, `validation/…`, `docs/…`, `inputs/…` and
//! `meshes/…` in README.md and docs/**/*.md (a path with a placeholder —
//! `<case>`, `NAME`, `*` — is a pattern, not a path, and one through an
//! `out/` folder is what a run writes: both are skipped).

use crate::common::python::repo;
use std::path::Path;

const ROOTS: [&str; 7] = [
    "src/",
    "tests/",
    "benches/",
    "validation/",
    "docs/",
    "inputs/",
    "meshes/",
];

/// The paths of `text` under one of `ROOTS`, without trailing punctuation.
fn paths(text: &str) -> Vec<String> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    let mut out = Vec::new();
    for (i, _) in text.match_indices(|c: char| c.is_ascii_lowercase()) {
        let rest = &text[i..];
        let Some(root) = ROOTS.iter().find(|r| rest.starts_with(**r)) else {
            continue;
        };
        // a path starts at a word boundary, not inside `../shared/tools/…`
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| is_path_char(c) || c == '<') {
            continue;
        }
        let end = rest.find(|c: char| !is_path_char(c)).unwrap_or(rest.len());
        let p = rest[..end].trim_end_matches(['.', ',']);
        let next = rest[end..].chars().next();
        let pattern = matches!(next, Some('<' | '*' | '{')) || p.contains("NAME");
        if p.len() > root.len() && !pattern && !p.contains("/out/") {
            out.push(p.to_string());
        }
    }
    out
}

fn markdown_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            markdown_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
}

#[test]
fn every_path_the_docs_name_exists() {
    let mut files = vec![repo("README.md")];
    markdown_files(&repo("docs"), &mut files);
    let mut missing = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for p in paths(&text) {
            checked += 1;
            if !repo(&p).exists() {
                missing.push(format!(
                    "{}: {p}",
                    f.strip_prefix(repo("")).unwrap().display()
                ));
            }
        }
    }
    println!("{checked} paths named in {} files", files.len());
    assert!(checked > 20, "the scan found only {checked} paths");
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scan_finds_paths_and_skips_patterns() {
    let text = "see `src/contact/narrow.rs`, src/linalg/. and ../shared/tools/x.py; \
                validation/<case>/ and tests/*.rs and benches/NAME.rs and inputs/out/ring/";
    assert_eq!(paths(text), ["src/contact/narrow.rs", "src/linalg/"]);
}
