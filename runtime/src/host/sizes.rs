//! Run-time sizes: the result dims of an operator computed from the values
//! of its operands, for the compiled segment that runs it.
//!
//! Inference at compile time cannot size the result of a Pad whose pads, a
//! Resize whose sizes, a Range whose limits or a TopK whose K are computed
//! from data. The partitioner gives such an operator's results symbols of
//! their own and a `sizes` step before its segment: this file runs the
//! compile-time inference once more on the operands' run-time shapes and
//! values (`onnx_mlc_dialect::infer::infer_at_run_time`), and hands the
//! segment the sizes as the shape of a tensor with no elements, from which
//! it binds the symbols as it binds every symbol, from its inputs' shapes.

use onnx_mlc_dialect::infer::{infer_at_run_time, RunTimeOperand, MAX_TRACKED_ELEMS};
use onnx_mlc_dialect::{ElemType, Type};

use crate::error::Result;
use crate::tensor::Tensor;
use crate::value::Value;

use super::operand::{invalid, tensor};
use super::HostOp;

/// The carrier of `op`'s result sizes: a `u8` tensor of shape
/// `[0, d1, d2, …]` holding dim `axis` of result `r` for each `(r, axis)`
/// of `dims`, computed from `inputs` (`None`: an absent optional input).
pub fn sizes(op: &HostOp, inputs: &[Option<&Value>], dims: &[(usize, usize)]) -> Result<Tensor> {
    let operands = (0..inputs.len())
        .map(|i| {
            inputs[i]
                .map(|_| {
                    let t = tensor(op, inputs, i)?;
                    Ok(if t.numel() <= MAX_TRACKED_ELEMS {
                        RunTimeOperand::Value(t.to_tensor_data())
                    } else {
                        RunTimeOperand::Typed(t.elem(), t.shape().to_vec())
                    })
                })
                .transpose()
        })
        .collect::<Result<Vec<_>>>()?;
    let types = infer_at_run_time(&op.op, &op.attrs, &operands, op.results.len())
        .map_err(|e| invalid(op, e))?;
    let mut shape = vec![0];
    for &(r, axis) in dims {
        let dim = match types.get(r) {
            Some(Type::Tensor(t)) => t
                .dims()
                .and_then(|d| d.get(axis))
                .and_then(|d| d.as_known()),
            _ => None,
        };
        shape.push(dim.ok_or_else(|| {
            invalid(
                op,
                format!(
                    "the size of dim {axis} of result {r} cannot be computed from its operands"
                ),
            )
        })?);
    }
    Tensor::zeros(ElemType::U8, &shape)
}
