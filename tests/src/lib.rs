//! Shared machinery of onnx-mlc's test suites: where the test data lives,
//! a FileCheck for text-IR tests, and the round-trip properties (through the
//! text form and through ONNX).

use std::path::PathBuf;

pub mod backend;
pub mod conformance;
pub mod diff;
pub mod filecheck;
pub mod onnx;
pub mod reference;
pub mod text;

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the repo")
        .to_path_buf()
}

/// The cache of generated test data (`.cache/` at the repo root, filled by
/// `tools/setup.sh`), overridable with `ONNX_MLC_CACHE`.
pub fn cache_dir() -> PathBuf {
    std::env::var_os("ONNX_MLC_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".cache"))
}

/// The ONNX backend test data (`node/`, `simple/`, `pytorch-converted/`, …,
/// each case a folder with `model.onnx` and `test_data_set_N/`): the
/// folder named by `ONNX_MLC_BACKEND_DIR`, else `onnx-backend/` in the
/// cache (where `tools/setup.sh` generates it), else `/tmp/onnx-backend`;
/// `None` when none exists (suites using it then skip, saying so).
pub fn backend_dir() -> Option<PathBuf> {
    match std::env::var_os("ONNX_MLC_BACKEND_DIR") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => [
            cache_dir().join("onnx-backend"),
            PathBuf::from("/tmp/onnx-backend"),
        ]
        .into_iter()
        .find(|d| d.is_dir()),
    }
    .filter(|d| d.is_dir())
}
