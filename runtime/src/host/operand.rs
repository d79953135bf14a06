//! What every host kernel needs: its operands by position, checked for
//! presence and kind, and errors that name the operator.

use std::fmt::Display;

use crate::abi::{OMLC_ERR_INVALID_ARGUMENT, OMLC_ERR_SHAPE};
use crate::error::RuntimeError;
use crate::tensor::Tensor;
use crate::value::{StringTensor, Value};

use super::HostOp;

/// Bad operands or attributes of `op` (`OMLC_ERR_INVALID_ARGUMENT`).
pub(crate) fn invalid(op: &HostOp, message: impl Display) -> RuntimeError {
    RuntimeError::Host {
        op: op.op.to_string(),
        code: OMLC_ERR_INVALID_ARGUMENT,
        message: message.to_string(),
    }
}

/// Operand shapes of `op` that do not fit together (`OMLC_ERR_SHAPE`).
pub(crate) fn mismatch(op: &HostOp, message: impl Display) -> RuntimeError {
    RuntimeError::Host {
        op: op.op.to_string(),
        code: OMLC_ERR_SHAPE,
        message: message.to_string(),
    }
}

/// A variant of `op` the kernel does not handle; `what` is the subject of
/// "… not supported by the runtime yet".
pub(crate) fn unsupported(op: &HostOp, what: impl Display) -> RuntimeError {
    RuntimeError::Unsupported(format!("{}: {what}", op.op))
}

/// Input `i`, when given.
pub(crate) fn optional<'a>(inputs: &[Option<&'a Value>], i: usize) -> Option<&'a Value> {
    inputs.get(i).copied().flatten()
}

/// Input `i`, which must be given.
pub(crate) fn required<'a>(
    op: &HostOp,
    inputs: &[Option<&'a Value>],
    i: usize,
) -> Result<&'a Value, RuntimeError> {
    optional(inputs, i).ok_or_else(|| invalid(op, format!("input {i} is missing")))
}

/// Input `i` as a dense tensor.
pub(crate) fn tensor<'a>(
    op: &HostOp,
    inputs: &[Option<&'a Value>],
    i: usize,
) -> Result<&'a Tensor, RuntimeError> {
    match required(op, inputs, i)? {
        Value::Tensor(t) => Ok(t),
        other => Err(invalid(
            op,
            format!("input {i} must be a dense tensor, got a {}", other.kind()),
        )),
    }
}

/// Input `i` as a string tensor.
pub(crate) fn strings<'a>(
    op: &HostOp,
    inputs: &[Option<&'a Value>],
    i: usize,
) -> Result<&'a StringTensor, RuntimeError> {
    match required(op, inputs, i)? {
        Value::Strings(s) => Ok(s),
        other => Err(invalid(
            op,
            format!("input {i} must be a string tensor, got a {}", other.kind()),
        )),
    }
}

/// A host operator for unit tests: node "n", `results` results of
/// unknown type.
#[cfg(test)]
pub(crate) fn test_op(
    kind: onnx_mlc_dialect::OpKind,
    version: u32,
    results: usize,
    attrs: Vec<(&str, onnx_mlc_dialect::Attr)>,
) -> HostOp {
    HostOp {
        op: onnx_mlc_dialect::ir::OpRef {
            node: "n".into(),
            kind,
            version,
        },
        attrs: onnx_mlc_dialect::Attrs(
            attrs.into_iter().map(|(n, a)| (n.to_string(), a)).collect(),
        ),
        results: vec![onnx_mlc_dialect::Type::Unknown; results],
    }
}
