//! The plan's error type.

/// Why a model cannot be planned.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// A main-graph value the plan cannot give storage: not a dense tensor,
    /// a size that shape inference left unknown, elements without a fixed
    /// size. `value` is its text-form name (`%x`), `origin` says where it
    /// comes from (`graph input`, or the producing node with its op type
    /// and version: `result 0 of node "seq" (SequenceConstruct-11)`).
    #[error("value {value} ({origin}): {reason}")]
    Unplaceable {
        value: String,
        origin: String,
        reason: String,
    },
    /// A structural problem the verifier rejects (the plan expects a
    /// verified model): `op` names the node, op type and version.
    #[error("{op}: {reason}")]
    Malformed { op: String, reason: String },
    /// The intermediate tensors together take more than 2^64 bytes (each
    /// fits, but not all of them: the workspace could not be addressed).
    #[error("the model's intermediate tensors take more than 2^64 bytes")]
    WorkspaceOverflow,
}

/// The plan's result type.
pub type Result<T> = std::result::Result<T, Error>;
