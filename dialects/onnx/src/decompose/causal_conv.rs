//! CausalConvWithState (ai.onnx 27): a depthwise causal 1-D convolution
//! that carries its left context from one call to the next.
//!
//! ```text
//! input          [B, C, L], weight [C, 1, k], bias [C], past_state [B, C, k-1]
//! padded         = Concat(past_state or zeros, input, axis 2)     [B, C, N]   (N = L + k - 1)
//! conv           = Conv(padded, weight, bias, group = C)          (valid padding) [B, C, N - k + 1]
//! output         = conv · Sigmoid(conv)                           (activation silu / swish)
//!                = conv                                           (activation none)
//! present_state  = padded[:, :, N - (k - 1):]                     (the last k - 1 steps)
//! ```
//!
//! The convolution is a grouped Conv when the channel count and the kernel
//! size are static (`group` is an attribute). Otherwise it is computed as
//! windows: `conv[b, c, t] = Σ_j weight[c, 0, j] · padded[b, c, t + j]
//! (+ bias[c])`, one Gather of the `[N - k + 1, k]` window positions, a
//! product with the weight and a sum over the taps, every size read with
//! `Shape` (the zeros' length `k - 1`, the state's start `N - (k - 1)`),
//! so that the expansion builds with symbolic sizes.
//!
//! Half-precision inputs convolve in f32 (the reference rounds the
//! convolution to the input type before the activation, and so does the
//! expansion). Every variant of the suite is handled; activations other
//! than `none`, `silu` and `swish` are not (the op stays).

use super::builder::{float_data, Builder, Size};
use crate::attr::Attr;
use crate::dim::Dim;
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
    let [_, channels, _] = <[Dim; 3]>::try_from(b.sym_dims(input)?).ok()?;
    let [w_channels, w_one, kernel] = <[Dim; 3]>::try_from(b.sym_dims(weight)?).ok()?;
    let contradicts = |d: &Dim, e: &Dim| matches!((d, e), (Dim::Known(x), Dim::Known(y)) if x != y);
    if contradicts(&w_channels, &channels)
        || contradicts(&w_one, &Dim::Known(1))
        || kernel.as_known().is_some_and(|k| k < 1)
    {
        return None;
    }
    // `k - 1` as a 1-D shape value.
    let k = b.size_vector(&[b.size(weight, 2)?])?;
    let one = b.ints(&[1])?;
    let context = b.binary(Sub, k, one)?;
    let padded = match (b.input(3), kernel.as_known()) {
        (None, Some(1)) => input,
        (Some(past), _) => b.op(Concat, &[past, input], &[("axis", Attr::Int(2))])?,
        (None, _) => {
            let lead = b.size_vector(&[b.size(input, 0)?, b.size(input, 1)?])?;
            let shape = b.op(Concat, &[lead, context], &[("axis", Attr::Int(0))])?;
            let zero = Attr::Tensor(float_data(elem, vec![1], &[0.0])?);
            let zeros = b.op(ConstantOfShape, &[shape], &[("value", zero)])?;
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
    let conv = match (channels.as_known(), kernel.as_known()) {
        (Some(c), Some(k)) if w_channels == channels => b.node(
            Conv,
            &[Some(x), Some(w), bias],
            &[
                ("group", Attr::Int(c)),
                ("kernel_shape", Attr::Ints(vec![k])),
            ],
            1,
        )?[0],
        _ => windows(b, x, w, bias, context)?,
    };
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
        let length = b.size_vector(&[b.size(padded, 2)?])?;
        let start = b.binary(Sub, length, context)?;
        let axes = b.ints(&[2])?;
        Some(b.op(Slice, &[padded, start, length, axes], &[])?)
    } else {
        None
    };
    Some(vec![Some(output), present])
}

/// The depthwise convolution of `x [B, C, N]` by `w [C, 1, k]` (plus
/// `bias [C]`) without padding, as windows: `y[b, c, t] = Σ_j w[c, 0, j] ·
/// x[b, c, t + j]` for `t < N - k + 1` (`context` is `k - 1`, a 1-D shape
/// value).
fn windows(
    b: &mut Builder,
    x: Value,
    w: Value,
    bias: Option<Value>,
    context: Value,
) -> Option<Value> {
    // The output's steps: as many as x[:, :, k-1:] has.
    let (end, axes) = (b.ints(&[i64::MAX])?, b.ints(&[2])?);
    let tail = b.op(Slice, &[x, context, end, axes], &[])?;
    let steps = b.iota(b.size(tail, 2)?)?;
    let taps = b.iota(b.size(w, 2)?)?;
    let steps = b.squeeze_like(Unsqueeze, steps, &[1])?;
    let taps = b.squeeze_like(Unsqueeze, taps, &[0])?;
    let positions = b.binary(Add, steps, taps)?;
    let windows = b.op(Gather, &[x, positions], &[("axis", Attr::Int(2))])?;
    // The weight as [C, 1, k] with the input's channel count (the view's
    // element count checked), against the windows' [B, C, N-k+1, k].
    let (c, k) = (b.size(x, 1)?, b.size(w, 2)?);
    let shape = b.size_vector(&[c, Size::Fixed(1), k])?;
    let w = b.op(Reshape, &[w, shape], &[])?;
    let products = b.binary(Mul, windows, w)?;
    let sum = b.reduce(ReduceSum, products, &[3], false)?;
    match bias {
        Some(bias) => {
            let bias = b.squeeze_like(Unsqueeze, bias, &[1])?;
            b.binary(Add, sum, bias)
        }
        None => Some(sum),
    }
}
