//! The code generator's error type.

use std::path::PathBuf;

/// Why code could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    /// `--target`, `--cpu` or `--features` name nothing LLVM knows.
    #[error("target: {0}")]
    Target(String),
    /// MLIR → LLVM IR translation failed (a lowering bug).
    #[error("translating to LLVM IR failed: {0}")]
    Translate(String),
    /// LLVM's optimizer or code generator failed.
    #[error("LLVM: {0}")]
    Llvm(String),
    /// Linking the shared library failed.
    #[error("linking {path} failed: {message}")]
    Link { path: PathBuf, message: String },
    /// An external tool (the C compiler, the linker) is missing or failed.
    #[error("{tool}: {message}")]
    Tool { tool: String, message: String },
    /// A file could not be written or read.
    #[error("{path}: {message}")]
    Io { path: PathBuf, message: String },
    /// The JIT could not be created or a symbol is missing.
    #[error("JIT: {0}")]
    Jit(String),
}

/// The code generator's result type.
pub type Result<T, E = CodegenError> = std::result::Result<T, E>;
