//! Op variants the backend suite leaves out (attribute combinations, modes,
//! element types), each a one-node model run through `onnx-mlc run` and
//! compared with onnxruntime by `tests/scripts/op_variants.py`.

use std::process::Command;

#[test]
fn op_variants_match_onnxruntime() {
    let Some(python) = onnx_mlc_tests::venv_python() else {
        println!("skipped: no Python venv at .venv (run tools/setup.sh)");
        return;
    };
    // The CLI needs LLVM: `cargo test` at the root does not build it.
    let bin = match onnx_mlc_tests::cli_binary() {
        Ok(bin) => bin,
        Err(e) => {
            println!("skipped: {e}");
            return;
        }
    };
    let script = onnx_mlc_tests::repo_root().join("tests/scripts/op_variants.py");
    let run = Command::new(&python)
        .arg(&script)
        .arg(&bin)
        .output()
        .expect("the variant script runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    println!("{stdout}");
    assert!(
        run.status.success(),
        "variants differ from onnxruntime (see above):\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains(", 0 failed"), "the script did not finish");
}
