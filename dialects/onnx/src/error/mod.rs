//! The crate's error type.

mod rule;

pub use rule::{Rule, VerifyError};

use crate::ir::OpRef;

/// Everything that can go wrong in the dialect crate: a text that does not
/// parse, a model that breaks a rule of the IR spec, or an op whose inputs
/// contradict its definition.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The text form did not parse.
    #[error("{line}:{col}: {message}")]
    Parse {
        line: usize,
        col: usize,
        message: String,
    },
    /// The IR breaks a rule of the IR spec (see [`crate::verify`]).
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// Shape and type inference found a contradiction at an op.
    #[error("{op}: {message}")]
    Infer { op: OpRef, message: String },
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
