//! Op variants the backend suite leaves out (attribute combinations, modes,
//! element types), each a one-node model run through `onnx-mlc run` and
//! compared with onnxruntime by `tests/scripts/op_variants.py`; onnxruntime's
//! contrib operators likewise (`tests/scripts/contrib_variants.py`), and the
//! models onnxruntime's quantization tool, transformer optimizer and graph
//! optimizer write (`tests/scripts/contrib_tools.py`, JIT and AOT).

use std::process::Command;

/// Runs `tests/scripts/<script>` with the CLI and `flags`; it must close
/// with no failed variant.
fn script_passes(script: &str, flags: &[&str]) {
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
    let script = onnx_mlc_tests::repo_root()
        .join("tests/scripts")
        .join(script);
    let run = Command::new(&python)
        .arg(&script)
        .arg(&bin)
        .args(flags)
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

#[test]
fn op_variants_match_onnxruntime() {
    script_passes("op_variants.py", &[]);
}

#[test]
fn contrib_ops_match_onnxruntime() {
    script_passes("contrib_variants.py", &[]);
}

#[test]
fn contrib_tool_output_matches_onnxruntime() {
    script_passes("contrib_tools.py", &[]);
}

#[test]
fn contrib_tool_output_matches_onnxruntime_aot() {
    script_passes("contrib_tools.py", &["--aot"]);
}
