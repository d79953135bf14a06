//! Host operators: the ONNX operators the runtime executes itself, in Rust,
//! between the compiled segments of a host program.
//!
//! Compiled code handles dense tensors whose shapes it can compute from
//! its inputs. An operator whose operands or results are not such tensors
//! (strings, sequences, maps, optionals) or whose result shape depends on the
//! data (NonZero, Unique, NonMaxSuppression) runs here instead: the
//! partitioner (`compiler/program`) cuts the graph around it, and the
//! program's interpreter calls [`run`] with the operator's run-time values.
//!
//! Each family lives in its own file; [`run`] dispatches on the operator
//! and [`is_host_op`] says which operators it can run.

use onnx_mlc_dialect::ir::OpRef;
use onnx_mlc_dialect::{Attrs, OpKind, Type};

use crate::error::{Result, RuntimeError};
use crate::value::Value;

mod maps;
mod operand;
mod select;
mod sequence;
mod sizes;
mod strings;

pub use sizes::sizes;

/// One operator for the host to run: what the graph says about it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct HostOp {
    /// Node name, op type and version, for messages.
    pub op: OpRef,
    /// Its attributes (subgraph attributes are not run by kernels).
    pub attrs: Attrs,
    /// The inferred type of each result (`Type::Unknown` where inference
    /// could not tell); a kernel uses it where the values do not say, such
    /// as the element type of an empty sequence.
    pub results: Vec<Type>,
}

/// Whether [`run`] has a kernel for operators of this kind (for some
/// operand types: `Equal` runs here on strings, compiled on numbers). The
/// partitioner sends an op here when one of its operands or results is not
/// a dense fixed-width tensor, or when [`needs_host`] says so.
pub fn is_host_op(kind: OpKind) -> bool {
    sequence::handles(kind)
        || strings::handles(kind)
        || select::handles(kind)
        || maps::handles(kind)
}

/// Whether operators of this kind always run here, whatever their types:
/// those whose result shapes depend on the input values.
pub fn needs_host(kind: OpKind) -> bool {
    select::handles(kind)
}

/// Runs `op` on its inputs (`None` where an optional input is absent) and
/// returns one value per result.
pub fn run(op: &HostOp, inputs: &[Option<&Value>]) -> Result<Vec<Value>> {
    let kind = op.op.kind;
    if sequence::handles(kind) {
        return sequence::run(op, inputs);
    }
    if strings::handles(kind) {
        return strings::run(op, inputs);
    }
    if select::handles(kind) {
        return select::run(op, inputs);
    }
    if maps::handles(kind) {
        return maps::run(op, inputs);
    }
    Err(RuntimeError::Unsupported(format!(
        "{}: running it on the host is",
        op.op
    )))
}
