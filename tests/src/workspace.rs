//! The workspace manifest as the tests read it: its member lists and each
//! member's package name, without a TOML parser (the manifest's layout is
//! ours: one quoted path per line).

use crate::repo_root;

/// The paths of a list in the root `Cargo.toml`'s `[workspace]`:
/// `"members"` or `"default-members"`.
pub fn workspace_list(key: &str) -> Vec<String> {
    let manifest = std::fs::read_to_string(repo_root().join("Cargo.toml"))
        .expect("the workspace manifest reads");
    let start = format!("{key} = [");
    let list = manifest
        .lines()
        .skip_while(|l| !l.starts_with(&start))
        .skip(1)
        .take_while(|l| !l.starts_with(']'));
    list.map(|l| l.trim().trim_end_matches(',').trim_matches('"'))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The package name of the member at `path` (relative to the root).
pub fn package_name(path: &str) -> String {
    let manifest = repo_root().join(path).join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).expect("a member's manifest reads");
    text.lines()
        .find_map(|l| l.strip_prefix("name = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap_or_else(|| panic!("{} names its package", manifest.display()))
        .to_string()
}
