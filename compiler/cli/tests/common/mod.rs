//! What the CLI's test binaries share: the repository root and a way to
//! run the `onnx-mlc` binary from it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `onnx-mlc args…` from the repository root.
pub fn onnx_mlc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_onnx-mlc"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("the onnx-mlc binary runs")
}

/// A fresh scratch folder for `test`.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onnx-mlc-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
    dir
}

/// A model from the dialect's text form, written as `dir/model.onnx`.
pub fn model_file(dir: &Path, text: &str) -> PathBuf {
    let model = onnx_mlc_dialect::parse::parse_model(text).expect("the model text parses");
    let path = dir.join("model.onnx");
    onnx_mlc_import::save_model(&model, &path, &Default::default()).expect("the model saves");
    path
}

/// A valid model onnx-mlc plans but cannot lower (`Det` is expanded for
/// f32 and f64 only, and has no lowering of its own), written into `dir`.
pub fn unsupported_model(dir: &Path) -> PathBuf {
    model_file(
        dir,
        r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<3x3xf16>) -> ("y": tensor<f16>) {
  %y = "onnx.Det"(%x) : (tensor<3x3xf16>) -> tensor<f16>
  onnx.return %y
}
"#,
    )
}
