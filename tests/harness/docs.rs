//! The README and `docs/` held to the tree: the statements a test can check
//! — which crates the workspace has, which docs exist, which paths the text
//! names, where packages come from — fail here when the tree changes and
//! the text does not.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use onnx_mlc_tests::repo_root;
use onnx_mlc_tests::workspace::{package_name, workspace_list};
use regex::Regex;

/// The top-level folders of the repository whose paths docs name.
const TOP_LEVEL: &[&str] = &[
    "compiler/",
    "dialects/",
    "docs/",
    "proto/",
    "runtime/",
    "tests/",
    "tools/",
    ".cargo/",
    ".ci/",
];

/// Where paths of one machine's checkout or home start: a doc naming one
/// cites a file outside the repository (the system's own paths, like
/// `/usr/lib/llvm-22`, are fine).
const FOREIGN_PREFIXES: &[&str] = &["/work/", "/home/", "/root/", "/Users/"];

/// Package hosts: docs name package sources by kind (the Debian archive, the
/// Python package index, the Rust package registry), not by host.
const PACKAGE_HOSTS: &[&str] = &[
    "deb.debian.org",
    "security.debian.org",
    "pypi.org",
    "pythonhosted.org",
    "crates.io",
    "github.com",
];

/// README.md and every `docs/*.md`, as (path relative to the root, text).
fn documents() -> Vec<(PathBuf, String)> {
    let root = repo_root();
    let mut paths = vec![PathBuf::from("README.md")];
    paths.extend(docs().into_iter().map(|d| Path::new("docs").join(d)));
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(root.join(&p))
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, text)
        })
        .collect()
}

/// The file names of `docs/*.md`, sorted.
fn docs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo_root().join("docs"))
        .expect("docs/ reads")
        .map(|e| {
            e.expect("a docs/ entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    names
}

/// The (path, crate) rows of every Markdown table in `text` that has a
/// `path` and a `crate` column; backticks and a trailing `/` stripped, an
/// empty crate cell (a folder that is no crate) as "".
fn crate_table_rows(text: &str) -> Vec<(String, String)> {
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().trim_matches('`').trim_end_matches('/').to_string())
            .collect()
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut rows = vec![];
    for (i, line) in lines.iter().enumerate() {
        let is_header = line.starts_with('|')
            && lines
                .get(i + 1)
                .is_some_and(|next| next.starts_with("|---"))
            && (i == 0 || !lines[i - 1].starts_with('|'));
        if !is_header {
            continue;
        }
        let header = cells(line);
        let (Some(path), Some(krate)) = (
            header.iter().position(|h| h == "path"),
            header.iter().position(|h| h == "crate"),
        ) else {
            continue;
        };
        for row in lines[i + 2..].iter().take_while(|l| l.starts_with('|')) {
            let row = cells(row);
            rows.push((row[path].clone(), row[krate].clone()));
        }
    }
    rows
}

#[test]
fn crate_tables_list_every_workspace_member() {
    let members: BTreeSet<(String, String)> = workspace_list("members")
        .into_iter()
        .map(|m| {
            let name = package_name(&m);
            (m, name)
        })
        .collect();
    assert!(members.len() > 1, "the manifest lists its members");
    for doc in ["README.md", "docs/architecture.md"] {
        let text = std::fs::read_to_string(repo_root().join(doc)).expect("the doc reads");
        let rows = crate_table_rows(&text);
        for (path, _) in &rows {
            assert!(
                repo_root().join(path).exists(),
                "{doc}: `{path}/` does not exist"
            );
        }
        let listed: BTreeSet<(String, String)> = rows
            .into_iter()
            .filter(|(_, krate)| !krate.is_empty())
            .collect();
        let missing: Vec<_> = members.difference(&listed).collect();
        let extra: Vec<_> = listed.difference(&members).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{doc}'s crate table differs from Cargo.toml's members: \
             missing (path, crate) {missing:?}, not members {extra:?}"
        );
    }
}

#[test]
fn readme_links_every_doc() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README reads");
    let unlinked: Vec<String> = docs()
        .into_iter()
        .filter(|d| !readme.contains(&format!("](docs/{d})")))
        .collect();
    assert!(unlinked.is_empty(), "README.md links no {unlinked:?}");
}

/// The repository paths a code span names: each word starting with a
/// top-level folder, without placeholders (`<name>`, `*`, `…`, `$VAR`), a
/// `:line` suffix or trailing punctuation.
fn repo_paths(span: &str) -> Vec<String> {
    span.split(|c: char| c.is_whitespace() || "()[],;\"'=|".contains(c))
        .filter(|w| TOP_LEVEL.iter().any(|t| w.starts_with(t)))
        .filter(|w| !w.contains(['<', '>', '*', '…', '$', '{', '}']) && !w.contains("..."))
        .map(|w| {
            let w = w.split_once(':').map_or(w, |(p, _)| p);
            let w = w.split_once('#').map_or(w, |(p, _)| p);
            w.trim_end_matches(['.', ','])
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn paths_the_docs_name_exist() {
    let root = repo_root();
    let code = Regex::new(r"(?s)```[^\n]*\n(.*?)```|``(.+?)``|`([^`\n]+)`").unwrap();
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let mut wrong = vec![];
    for (doc, text) in documents() {
        for m in code.captures_iter(&text) {
            let span = (1..=3).find_map(|k| m.get(k)).map_or("", |s| s.as_str());
            for path in repo_paths(span) {
                if !root.join(&path).exists() {
                    wrong.push(format!("{}: `{path}` does not exist", doc.display()));
                }
            }
            for word in span.split_whitespace() {
                if FOREIGN_PREFIXES.iter().any(|p| word.starts_with(p)) {
                    wrong.push(format!(
                        "{}: `{word}` is outside the repository",
                        doc.display()
                    ));
                }
            }
        }
        for m in link.captures_iter(&text) {
            let target = &m[1];
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            let file = target.split_once('#').map_or(target, |(p, _)| p);
            let base = doc.parent().unwrap_or(Path::new(""));
            if !root.join(base).join(file).exists() {
                wrong.push(format!("{}: link ({target}) leads nowhere", doc.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn docs_name_package_sources_by_kind_and_no_issue_numbers() {
    let issue = Regex::new(r"(?i)\bissue #?\d+").unwrap();
    let mut wrong = vec![];
    let mut texts = documents();
    for script in ["tools/setup.sh", "tools/test.sh", "tools/demo.sh"] {
        let text = std::fs::read_to_string(repo_root().join(script)).expect("the script reads");
        texts.push((PathBuf::from(script), text));
    }
    for (doc, text) in texts {
        for (n, line) in text.lines().enumerate() {
            for host in PACKAGE_HOSTS.iter().filter(|h| line.contains(*h)) {
                wrong.push(format!(
                    "{}:{}: names the host {host}",
                    doc.display(),
                    n + 1
                ));
            }
            if let Some(m) = issue.find(line) {
                wrong.push(format!(
                    "{}:{}: `{}`: say what it is, not its ticket",
                    doc.display(),
                    n + 1,
                    m.as_str()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
