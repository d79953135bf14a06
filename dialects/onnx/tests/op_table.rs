//! The checked-in op table (`src/schema/kind.rs` and `table.rs`) is what
//! `tools/gen_op_table.py` generates from the pinned onnx and onnxruntime
//! releases and its own data (families, facts, internal operators): an
//! edit to either side
//! alone fails here. Needs the repo's Python venv (`tools/setup.sh`);
//! skipped without it.

use std::path::Path;
use std::process::Command;

#[test]
fn the_op_table_is_generated_from_its_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = root.join(".venv/bin/python");
    if !python.is_file() {
        println!("skipped: no Python venv at .venv (run tools/setup.sh)");
        return;
    }
    let out = Command::new(python)
        .arg(root.join("tools/gen_op_table.py"))
        .arg("--check")
        .output()
        .expect("the generator runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
