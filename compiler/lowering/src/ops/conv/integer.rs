//! ConvInteger and QLinearConv: Conv's window over `i32` operands (the
//! zero points subtracted), QLinearConv's result requantized.

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, Value};

use super::convolution::{conv_with, IntConv};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::linalg::widened;
use crate::ops::quant::{int_operands, requantize, IntOperand};

/// Conv's window over `x` and `w` minus their zero points, accumulated
/// in `i32` into `init` (from the `i32` bias, or zero).
fn integer_conv<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    [x, w]: [&IntOperand; 2],
    init: MValue<'c, 'a>,
    bias: Option<Value>,
) -> Result<MValue<'c, 'a>> {
    let ints = IntConv {
        x: widened(kb, op, x, None, None)?.0,
        w: widened(kb, op, w, Some(0), None)?.0,
        weights: w.value,
        init,
        bias: bias.map(|b| kb.tensor(b)),
    };
    conv_with(kb, op, Some(ints))
}

/// Lowers ConvInteger (see the module docs) through Conv's window.
pub(crate) fn lower_conv_integer(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let [x, w] = int_operands(kb, op, (0, 2), (1, 3));
    let y = data.results[0].expect("verified: y");
    let init = kb.init(y)?;
    let c = integer_conv(kb, op, [&x, &w], init, None)?;
    kb.define(y, c);
    Ok(())
}

/// Lowers QLinearConv (see the module docs) through Conv's window, then
/// requantizes like [`lower_qlinear_matmul`].
pub(crate) fn lower_qlinear_conv(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let [x, w] = int_operands(kb, op, (0, 2), (3, 5));
    let [Some(xs), Some(ws), Some(ys)] = [input(1), input(4), input(6)] else {
        return Err(kb.unsupported(op, "without its three scales"));
    };
    let (y_zero, bias) = (input(7), input(8));
    let y = data.results[0].expect("verified: y");
    let acc = kb.empty(&kb.sizes(y)?, ElemType::I32)?;
    let c = integer_conv(kb, op, [&x, &w], acc, bias)?;
    requantize(kb, op, c, [xs, ws, ys], y_zero, y, Some(1))
}
