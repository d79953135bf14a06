//! The lowering's error type.

use onnx_mlc_dialect::ir::OpRef;

/// Why a model could not be lowered.
#[derive(Debug, thiserror::Error)]
pub enum LowerError {
    /// The op (or an input/attribute combination of it) has no lowering yet.
    #[error("{op}: {message}")]
    Unsupported { op: OpRef, message: String },
    /// A value's type cannot be compiled (a string tensor, say).
    #[error("unsupported type {ty} for {what}")]
    UnsupportedType { ty: String, what: String },
    /// An MLIR pass pipeline or transform schedule failed: a bug, reported
    /// with the stage and MLIR's diagnostics.
    #[error("MLIR stage '{stage}' failed: {message}")]
    Mlir { stage: String, message: String },
}

/// The lowering's result type.
pub type Result<T, E = LowerError> = std::result::Result<T, E>;
