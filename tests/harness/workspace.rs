//! The workspace's promise that the crates which need no LLVM build and
//! test without it: `cargo build` and `cargo test` at the root build the
//! default members only, and none of them may depend on an LLVM or MLIR
//! binding — to build, to run, or to test.

use std::collections::BTreeSet;
use std::process::Command;

/// The crates that link LLVM or MLIR.
const LLVM_CRATES: &[&str] = &["melior", "mlir-sys", "inkwell", "llvm-sys"];

/// The `default-members` of the workspace manifest, as paths.
fn default_members() -> Vec<String> {
    let manifest = std::fs::read_to_string(onnx_mlc_tests::repo_root().join("Cargo.toml"))
        .expect("the workspace manifest reads");
    let list = manifest
        .split_once("default-members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("the workspace lists default-members")
        .0;
    list.lines()
        .map(|l| l.trim().trim_end_matches(',').trim_matches('"'))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The package name of the crate at `path` (relative to the root).
fn package_name(path: &str) -> String {
    let manifest = onnx_mlc_tests::repo_root().join(path).join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).expect("a member's manifest reads");
    text.lines()
        .find_map(|l| l.strip_prefix("name = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap_or_else(|| panic!("{} names its package", manifest.display()))
        .to_string()
}

#[test]
fn default_members_need_no_llvm() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let members = default_members();
    assert!(members.len() > 1, "{members:?}");
    for member in members {
        let name = package_name(&member);
        let out = Command::new(&cargo)
            .args(["tree", "--offline", "-e", "normal,build,dev", "--prefix"])
            .args(["none", "--format", "{p}", "-p", &name])
            .current_dir(onnx_mlc_tests::repo_root())
            .output()
            .expect("cargo runs");
        let tree = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "cargo tree -p {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let llvm: BTreeSet<&str> = tree
            .lines()
            .filter_map(|line| line.split_whitespace().next())
            .filter(|krate| LLVM_CRATES.contains(krate))
            .collect();
        assert!(
            llvm.is_empty(),
            "default member {member} ({name}) depends on {llvm:?}: \
             `cargo tree -e normal,build,dev -p {name} -i {}` shows how",
            llvm.first().unwrap_or(&"")
        );
    }
}
