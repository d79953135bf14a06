//! The workspace's promise that the crates which need no LLVM build and
//! test without it: `cargo build` and `cargo test` at the root build the
//! default members only, and none of them may depend on an LLVM or MLIR
//! binding — to build, to run, or to test.

use std::collections::BTreeSet;
use std::process::Command;

use onnx_mlc_tests::workspace::{package_name, workspace_list};

/// The crates that link LLVM or MLIR.
const LLVM_CRATES: &[&str] = &["melior", "mlir-sys", "inkwell", "llvm-sys"];

#[test]
fn default_members_need_no_llvm() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let members = workspace_list("default-members");
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
