//! Shared machinery of onnx-mlc's test suites: where the test data lives,
//! a FileCheck and the runner of every stage's text-IR file tests, the
//! round-trip properties (through the text form and through ONNX), the
//! workspace manifest's member lists, and the conformance and model zoo
//! runs through the CLI.

use std::path::PathBuf;

pub mod backend;
pub mod conformance;
pub mod diff;
pub mod filecheck;
pub mod filetest;
pub mod onnx;
pub mod plan_check;
pub mod reference;
pub mod text;
pub mod workspace;
pub mod zoo;

/// `n` deterministic values in [-1, 1) from `seed` (a linear congruential
/// generator): test inputs that need no random-number crate.
pub fn seeded_values(n: usize, seed: u64) -> Vec<f32> {
    let step = |s: u64| {
        s.wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
    };
    let mut s = step(seed);
    (0..n)
        .map(|_| {
            s = step(s);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

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

/// The `onnx-mlc` binary: `ONNX_MLC_BIN`, else the one beside this test
/// binary's `deps/` folder (cargo builds it for the workspace's tests).
pub fn cli_binary() -> Result<PathBuf, String> {
    if let Some(bin) = std::env::var_os("ONNX_MLC_BIN") {
        return Ok(bin.into());
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|dir| dir.join("onnx-mlc"))
        .ok_or("no target folder")?;
    if bin.exists() {
        Ok(bin)
    } else {
        Err(format!(
            "{} not found: build it (`cargo build -p onnx-mlc-cli`) or set ONNX_MLC_BIN",
            bin.display()
        ))
    }
}

/// The Python of the test venv (`.venv/`, with onnx and onnxruntime),
/// when `tools/setup.sh` has made it.
pub fn venv_python() -> Option<PathBuf> {
    let python = repo_root().join(".venv/bin/python");
    python.is_file().then_some(python)
}
