//! CausalConvWithState (ai.onnx 27): a depthwise causal 1-D convolution
//! that carries its left context from one call to the next.
//!
//! ```text
//! input          [B, C, L], weight [C, 1, k], bias [C], past_state [B, C, k-1]
//! padded         = Concat(past_state or zeros, input, axis 2)     [B, C, L + k - 1]
//! conv           = Conv(padded, weight, bias, group = C)          (valid padding) [B, C, L]
//! output         = conv · Sigmoid(conv)                           (activation silu / swish)
//!                = conv                                           (activation none)
//! present_state  = padded[:, :, L:]                               (the last k - 1 steps)
//! ```
//!
//! Half-precision inputs convolve in f32 (the reference rounds the
//! convolution to the input type before the activation, and so does the
//! expansion). Every variant of the suite is handled; inputs whose shapes
//! are not static, and activations other than `none`, `silu` and `swish`,
//! are not (the op stays).

use super::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::types::ElemType;

/// Expands CausalConvWithState as described in the module docs.
pub(super) fn causal_conv_with_state(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (input, weight) = (b.input(0)?, b.input(1)?);
    let silu = match b.string_attr("activation")?.as_str() {
        "none" => false,
        "silu" | "swish" => true,
        _ => return None,
    };
    let elem = b.elem(input)?;
    let [batch, channels, len] = <[i64; 3]>::try_from(b.dims(input)?).ok()?;
    let [w_channels, 1, kernel] = <[i64; 3]>::try_from(b.dims(weight)?).ok()? else {
        return None;
    };
    if w_channels != channels || kernel < 1 {
        return None;
    }
    let padded = match (b.input(3), kernel) {
        (_, 1) => input,
        (Some(past), _) => b.op(Concat, &[past, input], &[("axis", Attr::Int(2))])?,
        (None, _) => {
            let zeros_dims = vec![batch, channels, kernel - 1];
            let n = (batch * channels * (kernel - 1)) as usize;
            let zeros = b.floats(elem, zeros_dims, &vec![0.0; n])?;
            b.op(Concat, &[zeros, input], &[("axis", Attr::Int(2))])?
        }
    };
    let compute = if elem == ElemType::F64 {
        elem
    } else {
        ElemType::F32
    };
    let x = b.cast(padded, compute)?;
    let w = b.cast(weight, compute)?;
    let bias = match b.input(2) {
        Some(bias) => Some(b.cast(bias, compute)?),
        None => None,
    };
    let conv = b.node(
        Conv,
        &[Some(x), Some(w), bias],
        &[
            ("group", Attr::Int(channels)),
            ("kernel_shape", Attr::Ints(vec![kernel])),
        ],
        1,
    )?[0];
    // Rounded to the input type first, as the reference does.
    let conv = b.cast(conv, elem)?;
    let output = if silu {
        let wide = b.cast(conv, compute)?;
        let sigmoid = b.unary(Sigmoid, wide)?;
        let product = b.binary(Mul, wide, sigmoid)?;
        b.cast(product, elem)?
    } else {
        conv
    };
    let present = if b.wants_result(1) {
        let starts = b.ints(&[len])?;
        let ends = b.ints(&[len + kernel - 1])?;
        let axes = b.ints(&[2])?;
        Some(b.op(Slice, &[padded, starts, ends, axes], &[])?)
    } else {
        None
    };
    Some(vec![Some(output), present])
}
