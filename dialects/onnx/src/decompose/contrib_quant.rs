//! onnxruntime's quantized contrib operators (`com.microsoft`), as its
//! ContribOperators documentation defines them: each computes in real
//! numbers between a dequantization of its inputs and a quantization of
//! its result, which is what the expansion builds.
//!
//! ```text
//! deq(x, s, z)      = DequantizeLinear(x, s, z)         (z absent: 0)
//! q(y, s, z)        = QuantizeLinear(y, s, z)           (z absent: 0 of the input's type)
//! QuantizeLinear, DequantizeLinear       = the ai.onnx ops (axis = 1 by default)
//! QLinearAdd/Mul(A, sA, zA, B, sB, zB, sC, zC) = q(deq(A) +/· deq(B), sC, zC)
//! QLinearSigmoid / QLinearLeakyRelu(X, sX, zX, sY, zY) = q(f(deq(X)), sY, zY)
//! QLinearSoftmax    = q(Softmax(deq(X), axis)), the opset < 13 form over X flattened at axis
//! QLinearGlobalAveragePool / QLinearAveragePool = q(pool(deq(X)))   (channels_last: NHWC)
//! QLinearConcat(sY, zY, (X, sX, zX)…)  = q(Concat(deq(X)…, axis), sY, zY)
//! QLinearConv       = the ai.onnx op (channels_last: between Transposes)
//! QGemm(A, sA, zA, B, sB, zB, C?, sY?, zY?)
//!   y = alpha · (deq(A)' @ deq(B)' + C · sA · sB);  q(y, sY, zY) when sY is given, else y
//! DynamicQuantizeMatMul(A, B, sB, zB?, bias?)
//!   Aq, sA, zA = DynamicQuantizeLinear(A);  y = MatMulInteger(Aq, B, zA, zB) · sA · sB + bias
//! MatMulIntegerToFloat(A, B, sA, sB, zA?, zB?, bias?) = MatMulInteger(A, B, zA, zB) · sA · sB + bias
//! MatMulNBits(A, B, scales, zero_points?, g_idx?, bias?)
//!   W[n, k] = (B's bits-bit field k of row n - zero_point[n, k / block_size]) · scales[n, k / block_size]
//!   Y = A @ Wᵀ + bias        (fields packed low bits first; zero point 2^(bits-1) by default)
//! ```
//!
//! Not handled: MatMulNBits' `g_idx` and prepacked weights.

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::{self, *};
use crate::tensor::TensorData;
use crate::types::ElemType;

/// `DequantizeLinear(x, scale, zero_point)`, per tensor or along `axis`.
fn dequantize(
    b: &mut Builder,
    x: Value,
    scale: Value,
    zero_point: Option<Value>,
    axis: Option<i64>,
) -> Option<Value> {
    let attrs: Vec<(&str, Attr)> = axis.map(|a| ("axis", Attr::Int(a))).into_iter().collect();
    Some(
        b.node(
            DequantizeLinear,
            &[Some(x), Some(scale), zero_point],
            &attrs,
            1,
        )?[0],
    )
}

/// `QuantizeLinear(y, scale, zero_point)` to `elem` (a zero of it when
/// `zero_point` is absent).
fn quantize(
    b: &mut Builder,
    y: Value,
    scale: Value,
    zero_point: Option<Value>,
    elem: ElemType,
) -> Option<Value> {
    let zero_point = match zero_point {
        Some(z) => z,
        None => b.constant(zero_of(elem)?)?,
    };
    b.op(QuantizeLinear, &[y, scale, zero_point], &[])
}

/// A scalar 0 of an 8-bit integer type.
fn zero_of(elem: ElemType) -> Option<TensorData> {
    match elem {
        ElemType::U8 => Some(TensorData::scalar(0u8)),
        ElemType::I8 => Some(TensorData::scalar(0i8)),
        _ => None,
    }
}

/// Expands contrib QuantizeLinear into ai.onnx's.
pub(super) fn quantize_linear(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    convert_linear(b, QuantizeLinear)
}

/// Expands contrib DequantizeLinear into ai.onnx's.
pub(super) fn dequantize_linear(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    convert_linear(b, DequantizeLinear)
}

/// The ai.onnx op of `kind` with the contrib op's inputs and axis (per
/// axis from opset 13 on, per tensor before).
fn convert_linear(b: &mut Builder, kind: OpKind) -> Option<Vec<Option<Value>>> {
    let axis = b.int_attr("axis").unwrap_or(1);
    let per_tensor = b.rank(b.input(1)?)? == 0;
    let attrs: Vec<(&str, Attr)> = if b.opset >= 13 {
        vec![("axis", Attr::Int(axis))]
    } else if per_tensor {
        vec![]
    } else {
        return None;
    };
    let inputs = [b.input(0), b.input(1), b.input(2)];
    Some(vec![Some(b.node(kind, &inputs, &attrs, 1)?[0])])
}

/// Expands QLinearAdd and QLinearMul.
pub(super) fn qlinear_binary(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let kind = match b.target().kind {
        MsQLinearAdd => Add,
        _ => Mul,
    };
    let a = b.input(0)?;
    let elem = b.elem(a)?;
    let a = dequantize(b, a, b.input(1)?, b.input(2), None)?;
    let c = dequantize(b, b.input(3)?, b.input(4)?, b.input(5), None)?;
    let y = b.binary(kind, a, c)?;
    Some(vec![Some(quantize(b, y, b.input(6)?, b.input(7), elem)?)])
}

/// The dequantized input of a unary quantized op (X, X_scale,
/// X_zero_point first), its element type and the output's scale and
/// zero point (inputs 3 and 4).
fn unary_input(b: &mut Builder) -> Option<(Value, ElemType)> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    Some((dequantize(b, x, b.input(1)?, b.input(2), None)?, elem))
}

/// Quantizes the result of a unary quantized op with inputs 3 and 4.
fn unary_output(b: &mut Builder, y: Value, elem: ElemType) -> Option<Vec<Option<Value>>> {
    Some(vec![Some(quantize(b, y, b.input(3)?, b.input(4), elem)?)])
}

/// Expands QLinearSigmoid and QLinearLeakyRelu.
pub(super) fn qlinear_activation(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, elem) = unary_input(b)?;
    let y = match b.target().kind {
        MsQLinearSigmoid => b.unary(Sigmoid, x)?,
        _ => {
            let alpha = b.float_attr("alpha").unwrap_or(0.01);
            b.op(LeakyRelu, &[x], &[("alpha", Attr::Float(alpha))])?
        }
    };
    unary_output(b, y, elem)
}

/// Expands QLinearSoftmax: over `axis` (opset 13 on), or over the dims
/// from `axis` on (the `opset` attribute below 13).
pub(super) fn qlinear_softmax(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, elem) = unary_input(b)?;
    let rank = b.rank(x)? as i64;
    let axis = b.int_attr("axis").unwrap_or(-1);
    let axis = if axis < 0 { axis + rank } else { axis };
    let y = if b.int_attr("opset")? < 13 && axis != rank - 1 {
        let shape = b.op(Shape, &[x], &[])?;
        let flat = b.op(Flatten, &[x], &[("axis", Attr::Int(axis))])?;
        let soft = b.op(Softmax, &[flat], &[("axis", Attr::Int(1))])?;
        b.op(Reshape, &[soft, shape], &[])?
    } else {
        b.op(Softmax, &[x], &[("axis", Attr::Int(axis))])?
    };
    unary_output(b, y, elem)
}

/// `x` with its channels moved from last to second (`back`: the
/// inverse), for the channels-last quantized pools.
fn channels(b: &mut Builder, x: Value, back: bool) -> Option<Value> {
    let rank = b.rank(x)? as i64;
    let perm: Vec<i64> = if back {
        [0].into_iter().chain(2..rank).chain([1]).collect()
    } else {
        [0, rank - 1].into_iter().chain(1..rank - 1).collect()
    };
    b.transpose(x, &perm)
}

/// Expands QLinearGlobalAveragePool and QLinearAveragePool.
pub(super) fn qlinear_pool(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (mut x, elem) = unary_input(b)?;
    let last = b.int_attr("channels_last").unwrap_or(0) != 0;
    if last {
        x = channels(b, x, false)?;
    }
    let mut y = match b.target().kind {
        MsQLinearGlobalAveragePool => b.unary(GlobalAveragePool, x)?,
        _ => {
            let attrs = b.given_attrs(&[
                "auto_pad",
                "ceil_mode",
                "count_include_pad",
                "kernel_shape",
                "pads",
                "strides",
            ]);
            b.op(AveragePool, &[x], &attrs)?
        }
    };
    if last {
        y = channels(b, y, true)?;
    }
    unary_output(b, y, elem)
}

/// Conv's attributes.
pub(super) const CONV_ATTRS: [&str; 6] = [
    "auto_pad",
    "dilations",
    "group",
    "kernel_shape",
    "pads",
    "strides",
];

/// Expands contrib QLinearConv into ai.onnx's (channels last: between
/// Transposes).
pub(super) fn qlinear_conv(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let last = b.int_attr("channels_last").unwrap_or(0) != 0;
    let mut x = b.input(0)?;
    if last {
        x = channels(b, x, false)?;
    }
    let mut inputs: Vec<Option<Value>> = (0..9).map(|i| b.input(i)).collect();
    inputs[0] = Some(x);
    let attrs = b.given_attrs(&CONV_ATTRS);
    let mut y = b.node(QLinearConv, &inputs, &attrs, 1)?[0];
    if last {
        y = channels(b, y, true)?;
    }
    Some(vec![Some(y)])
}

/// Expands QLinearConcat.
pub(super) fn qlinear_concat(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let n = b.target().inputs.len();
    if n < 5 || (n - 2) % 3 != 0 {
        return None;
    }
    let elem = b.elem(b.input(2)?)?;
    let mut parts = vec![];
    for i in (2..n).step_by(3) {
        parts.push(dequantize(
            b,
            b.input(i)?,
            b.input(i + 1)?,
            b.input(i + 2),
            None,
        )?);
    }
    let axis = b.int_attr("axis")?;
    let y = b.op(Concat, &parts, &[("axis", Attr::Int(axis))])?;
    Some(vec![Some(quantize(b, y, b.input(0)?, b.input(1), elem)?)])
}

/// The axis of a per-column scale of a [K, N] (`trans`: [N, K]) matrix,
/// `None` for a per-tensor one.
fn column_axis(b: &Builder, scale: Value, trans: bool) -> Option<Option<i64>> {
    Some(match b.rank(scale)? {
        0 => None,
        1 => Some(if trans { 0 } else { 1 }),
        _ => return None,
    })
}

/// Expands QGemm.
pub(super) fn qgemm(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let trans_a = b.int_attr("transA").unwrap_or(0);
    let trans_b = b.int_attr("transB").unwrap_or(0);
    let (a_scale, b_scale) = (b.input(1)?, b.input(4)?);
    let a = dequantize(b, b.input(0)?, a_scale, b.input(2), None)?;
    let axis = column_axis(b, b_scale, trans_b != 0)?;
    let m = dequantize(b, b.input(3)?, b_scale, b.input(5), axis)?;
    let attrs = [
        ("transA", Attr::Int(trans_a)),
        ("transB", Attr::Int(trans_b)),
    ];
    let mut y = b.op(Gemm, &[a, m], &attrs)?;
    if let Some(c) = b.input(6) {
        let c = b.cast(c, ElemType::F32)?;
        let scale = b.binary(Mul, a_scale, b_scale)?;
        let c = b.binary(Mul, c, scale)?;
        y = b.binary(Add, y, c)?;
    }
    let alpha = b.float_attr("alpha").unwrap_or(1.0);
    if alpha != 1.0 {
        let alpha = b.scalar(ElemType::F32, f64::from(alpha))?;
        y = b.binary(Mul, y, alpha)?;
    }
    let y = match b.input(7) {
        Some(y_scale) => {
            let elem = match b.input(8) {
                Some(z) => b.elem(z)?,
                None => b.result_elem(0)?,
            };
            quantize(b, y, y_scale, b.input(8), elem)?
        }
        None => y,
    };
    Some(vec![Some(y)])
}

/// `MatMulInteger(a, m, za, zm)` in f32, times `a_scale · m_scale`, plus
/// `bias`.
fn integer_matmul_to_float(
    b: &mut Builder,
    (a, a_scale, a_zero): (Value, Value, Option<Value>),
    (m, m_scale, m_zero): (Value, Value, Option<Value>),
    bias: Option<Value>,
) -> Option<Value> {
    let product = b.node(MatMulInteger, &[Some(a), Some(m), a_zero, m_zero], &[], 1)?[0];
    let scale = b.binary(Mul, a_scale, m_scale)?;
    let elem = b.elem(scale)?;
    let product = b.cast(product, elem)?;
    let y = b.binary(Mul, product, scale)?;
    match bias {
        Some(bias) => b.binary(Add, y, bias),
        None => Some(y),
    }
}

/// Expands DynamicQuantizeMatMul.
pub(super) fn dynamic_quantize_matmul(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let q = b.node(DynamicQuantizeLinear, &[b.input(0)], &[], 3)?;
    let y = integer_matmul_to_float(
        b,
        (q[0], q[1], Some(q[2])),
        (b.input(1)?, b.input(2)?, b.input(3)),
        b.input(4),
    )?;
    Some(vec![Some(y)])
}

/// Expands MatMulIntegerToFloat.
pub(super) fn matmul_integer_to_float(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let y = integer_matmul_to_float(
        b,
        (b.input(0)?, b.input(2)?, b.input(4)),
        (b.input(1)?, b.input(3)?, b.input(5)),
        b.input(6),
    )?;
    Some(vec![Some(y)])
}

/// The `bits`-bit fields of the uint8 `packed` `[..., n]`, low bits first,
/// as `elem` `[..., n · 8 / bits]`.
fn unpack(b: &mut Builder, packed: Value, bits: i64, elem: ElemType) -> Option<Value> {
    let per_byte = 8 / bits;
    let wide = b.cast(packed, ElemType::I32)?;
    let rank = b.rank(packed)? as i64;
    let wide = b.squeeze_like(Unsqueeze, wide, &[rank])?;
    let divisors: Vec<i32> = (0..per_byte).map(|j| 1 << (j * bits)).collect();
    let divisors = b.constant(TensorData::from_vec(vec![per_byte], &divisors).ok()?)?;
    let modulus = b.constant(TensorData::scalar(1i32 << bits))?;
    let shifted = b.binary(Div, wide, divisors)?;
    let fields = b.binary(OpKind::Mod, shifted, modulus)?;
    let mut shape = vec![0; rank as usize - 1];
    shape.push(-1);
    let fields = b.reshape(fields, &shape)?;
    b.cast(fields, elem)
}

/// MatMulNBits' weight layout: `n` rows of `k` fields of `bits` bits, in
/// blocks of `block` fields.
#[derive(Clone, Copy)]
struct Blocks {
    k: i64,
    n: i64,
    bits: i64,
    block: i64,
}

impl Blocks {
    /// Blocks per row.
    fn per_row(self) -> i64 {
        (self.k + self.block - 1) / self.block
    }

    /// Field `j` of the packed bytes `bytes` (low bits first).
    fn field(self, bytes: &[u8], j: usize) -> Option<f64> {
        let bits = self.bits as usize;
        let byte = *bytes.get(j * bits / 8)?;
        Some(f64::from(
            (byte >> (j * bits % 8)) & ((1u16 << bits) - 1) as u8,
        ))
    }
}

/// The dequantized weights `[K, N]` of a MatMulNBits whose packed weights,
/// scales and zero points are constants, computed now (in f64, rounded to
/// the input's type once): the run time multiplies by them as by any
/// weight matrix. `None` when one of them is computed at run time.
fn constant_weights(b: &Builder, layout: Blocks) -> Option<Vec<f64>> {
    let Blocks { k, n, block, .. } = layout;
    let blocks = layout.per_row();
    let packed = b.constant_data(b.input(1)?)?.to_vec::<u8>()?;
    let scales = b.constant_data(b.input(2)?)?.to_f64s()?;
    let blob = (block * layout.bits / 8) as usize;
    if packed.len() != (n * blocks) as usize * blob || scales.len() != (n * blocks) as usize {
        return None;
    }
    // The zero point of block `g` (of all rows, row-major).
    let zero: Box<dyn Fn(usize) -> Option<f64>> = match b.input(3) {
        None => Box::new(|_| Some(f64::from(1u32 << (layout.bits - 1)))),
        Some(z) => {
            let data = b.constant_data(z)?;
            if data.elem == ElemType::U8 {
                let bytes = data.to_vec::<u8>()?;
                let width = bytes.len() / n as usize;
                Box::new(move |g| {
                    let (row, col) = (g / blocks as usize, g % blocks as usize);
                    layout.field(&bytes[row * width..(row + 1) * width], col)
                })
            } else {
                let values = data.to_f64s()?;
                Box::new(move |g| values.get(g).copied())
            }
        }
    };
    let mut weights = vec![0.0; (k * n) as usize];
    for row in 0..n as usize {
        for g in 0..blocks as usize {
            let (scale, zero) = (
                scales[row * blocks as usize + g],
                zero(row * blocks as usize + g)?,
            );
            let bytes = &packed[(row * blocks as usize + g) * blob..][..blob];
            for j in 0..block as usize {
                let col = g * block as usize + j;
                if col < k as usize {
                    weights[col * n as usize + row] = (layout.field(bytes, j)? - zero) * scale;
                }
            }
        }
    }
    Some(weights)
}

/// Expands MatMulNBits (2, 4 and 8 bits, any block size, packed or
/// unpacked zero points): constant weights dequantized now
/// ([`constant_weights`]), others at run time.
pub(super) fn matmul_nbits(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.input(4).is_some() || b.int_attr("weight_prepacked").unwrap_or(0) != 0 {
        return None;
    }
    let (a, packed, scales) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let elem = b.elem(a)?;
    let (k, n) = (b.int_attr("K")?, b.int_attr("N")?);
    let bits = b.int_attr("bits").unwrap_or(4);
    let block = b.int_attr("block_size")?;
    if ![2, 4, 8].contains(&bits) || block <= 0 {
        return None;
    }
    let layout = Blocks { k, n, bits, block };
    let blocks = layout.per_row();
    if let Some(weights) = constant_weights(b, layout) {
        let weights = b.floats(elem, vec![k, n], &weights)?;
        let mut y = b.binary(MatMul, a, weights)?;
        if let Some(bias) = b.input(5) {
            y = b.binary(Add, y, bias)?;
        }
        return Some(vec![Some(y)]);
    }
    // [N, blocks, block] fields, in the computation's type.
    let fields = unpack(b, packed, bits, elem)?;
    let zero = match b.input(3) {
        Some(z) if b.elem(z)? == ElemType::U8 => {
            let unpacked = unpack(b, z, bits, elem)?;
            let unpacked = b.reshape(unpacked, &[n, -1])?;
            b.slice(unpacked, 1, 0, blocks)?
        }
        Some(z) => z,
        None => b.scalar(elem, f64::from(1u32 << (bits - 1)))?,
    };
    let zero = match b.rank(zero)? {
        0 => zero,
        _ => b.reshape(zero, &[n, blocks, 1])?,
    };
    let scales = b.reshape(scales, &[n, blocks, 1])?;
    let centered = b.binary(Sub, fields, zero)?;
    let weights = b.binary(Mul, centered, scales)?;
    let weights = b.reshape(weights, &[n, blocks * block])?;
    let weights = if blocks * block == k {
        weights
    } else {
        b.slice(weights, 1, 0, k)?
    };
    let weights = b.transpose(weights, &[1, 0])?;
    let mut y = b.binary(MatMul, a, weights)?;
    if let Some(bias) = b.input(5) {
        y = b.binary(Add, y, bias)?;
    }
    Some(vec![Some(y)])
}
