//! The conformance harness: every ONNX backend test case run through the
//! `onnx-mlc run` command line — the contract any external harness
//! drives — in each [`Mode`], its outputs compared the way the ONNX
//! backend runner compares them, the results checked against a manifest.
//!
//! Running the CLI in a child process per case keeps the harness honest
//! (the command line is what users run) and robust: a crash or a hang in
//! compiled code fails that case, not the whole run.

pub mod compare;
pub mod manifest;
pub mod report;
pub mod runner;

/// How a case is compiled and run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// Compiled in-process by the JIT (`onnx-mlc run`).
    Jit,
    /// Built as a shared library and loaded (`onnx-mlc run --aot`).
    Aot,
    /// The JIT, with every dim of every graph input made symbolic: the
    /// code is compiled for dynamic shapes and run at the test's sizes.
    Dynamic,
}

impl Mode {
    /// Every mode, in manifest column order.
    pub const ALL: [Mode; 3] = [Mode::Jit, Mode::Aot, Mode::Dynamic];

    /// The mode's name, as manifests and reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Jit => "jit",
            Mode::Aot => "aot",
            Mode::Dynamic => "dynamic",
        }
    }

    /// The mode's column in the manifest.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The mode named `name`.
    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The modes the environment variable `var` names (comma-separated),
    /// `default` when it is not set; an error names an unknown or
    /// unavailable mode.
    pub fn from_env(var: &str, default: &[Mode]) -> Result<Vec<Mode>, String> {
        let Ok(names) = std::env::var(var) else {
            return Ok(default.to_vec());
        };
        names
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(|n| {
                Mode::from_name(n)
                    .filter(|m| default.contains(m))
                    .ok_or(format!("{var}: unknown mode {n}"))
            })
            .collect()
    }
}

/// The number the environment variable `var` holds, if set and a number.
pub fn env_number<T: std::str::FromStr>(var: &str) -> Option<T> {
    std::env::var(var).ok().and_then(|s| s.trim().parse().ok())
}

/// How many runs go at a time by default: the available cores.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// How one case went in one mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every output matched.
    Pass,
    /// It did not: why, in one line.
    Fail(String),
}

impl Outcome {
    /// Whether the case passed.
    pub fn passed(&self) -> bool {
        matches!(self, Outcome::Pass)
    }
}
