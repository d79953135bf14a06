//! onnxruntime's contrib activations, normalizations and fused ops
//! (`com.microsoft`, and its `SimplifiedLayerNormalization` of ai.onnx),
//! as onnxruntime's ContribOperators documentation defines them:
//!
//! ```text
//! Gelu(X)                  = Activation(X, "Gelu")            x/2·(1 + erf(x/√2))
//! FastGelu(X, bias?)       = Activation(X + bias, "GeluTanh") x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
//! BiasGelu(A, B)           = Activation(A + B, "Gelu")
//! QuickGelu(X)             = X · Sigmoid(alpha · X)           (alpha = 1.702)
//! BiasAdd(X, bias, skip)   = X + bias + skip
//! SkipLayerNormalization(input, skip, gamma, beta?, bias?)
//!   s = input + skip + bias;  output = LayerNorm(s, last axis, epsilon)·gamma + beta
//!   input_skip_bias_sum = s   (epsilon = 1e-12)
//! SkipSimplifiedLayerNormalization(input, skip, gamma, bias?)
//!   s as above;  output = s / √(mean(s², last axis) + epsilon) · gamma
//! SimplifiedLayerNormalization(X, scale)   (ai.onnx, onnxruntime's)
//!   Y = X / √(mean(X², axes [axis, rank)) + epsilon) · scale   (in stash_type)
//! EmbedLayerNormalization(input_ids, segment_ids?, word_embedding, position_embedding,
//!                         segment_embedding?, gamma, beta, mask?, position_ids?)
//!   e = word[input_ids] + position[position_ids or 0..S] + segment[segment_ids]
//!   output = LayerNorm(e)·gamma + beta;  embedding_sum = e
//!   mask_index = ReduceSum(mask, axis 1) as int32 (zeros without a mask)
//! FusedMatMul(A, B) = alpha · op(A) @ op(B)     (op: the last two dims transposed by transA/B)
//! FusedGemm(A, B, C?) = omlc.FusedGemm with the activation's parameters
//! FusedConv(X, W, B?, Z?) = omlc.FusedConv (the same contract)
//! NhwcConv(X, W, B?) = Transpose(Conv(Transpose(X, NCHW), W, B), NHWC)
//! ```
//!
//! Layer normalizations of f16/bf16 inputs compute in f32 (onnxruntime's
//! kernels accumulate in f32) and round the result once. Not handled (the
//! op stays and the lowering refuses it): the `mean` and `inv_std_var`
//! results of the skip normalizations (onnxruntime's kernels do not
//! compute them), FusedMatMul's `transBatchA`/`transBatchB`, activations
//! the internal fused ops do not have.

use super::builder::Builder;
use super::contrib_quant::CONV_ATTRS;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::types::ElemType;

/// `Activation(x, name)` of the internal domain.
fn activation(b: &mut Builder, x: Value, name: &str) -> Option<Value> {
    b.op(Activation, &[x], &[("activation", Attr::str(name))])
}

/// `x + y` when `y` is present.
fn plus(b: &mut Builder, x: Value, y: Option<Value>) -> Option<Value> {
    match y {
        Some(y) => b.binary(Add, x, y),
        None => Some(x),
    }
}

/// Expands Gelu.
pub(super) fn gelu(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    Some(vec![Some(activation(b, x, "Gelu")?)])
}

/// Expands FastGelu (its optional bias first).
pub(super) fn fast_gelu(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let x = plus(b, x, b.input(1))?;
    Some(vec![Some(activation(b, x, "GeluTanh")?)])
}

/// Expands BiasGelu.
pub(super) fn bias_gelu(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.binary(Add, b.input(0)?, b.input(1)?)?;
    Some(vec![Some(activation(b, x, "Gelu")?)])
}

/// Expands QuickGelu.
pub(super) fn quick_gelu(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let alpha = b.scalar(elem, f64::from(b.float_attr("alpha").unwrap_or(1.702)))?;
    let scaled = b.binary(Mul, x, alpha)?;
    let sigmoid = b.unary(Sigmoid, scaled)?;
    Some(vec![Some(b.binary(Mul, x, sigmoid)?)])
}

/// Expands BiasAdd.
pub(super) fn bias_add(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.binary(Add, b.input(0)?, b.input(1)?)?;
    Some(vec![Some(b.binary(Add, x, b.input(2)?)?)])
}

/// How a normalization computes.
struct Norm {
    /// The first of the normalized axes (the last ones).
    first_axis: i64,
    epsilon: f64,
    /// `x / √(mean(x²) + epsilon)` rather than `(x - mean) / √(var + epsilon)`.
    rms: bool,
    /// The type the statistics are computed in.
    stash: ElemType,
}

impl Norm {
    /// The normalization of the contrib layer norms: over the last axis
    /// of `x`, `epsilon` as the op says (1e-12 by default), in f64 for f64
    /// and f32 otherwise.
    fn last_axis(b: &Builder, x: Value, rms: bool) -> Option<Norm> {
        Some(Norm {
            first_axis: -1,
            epsilon: f64::from(b.float_attr("epsilon").unwrap_or(1e-12)),
            rms,
            stash: stash_of(b.elem(x)?),
        })
    }
}

/// `x` normalized over its axes from `norm.first_axis` on, then
/// `· scale + bias`, in `x`'s type.
fn normalize(
    b: &mut Builder,
    x: Value,
    norm: Norm,
    scale: Value,
    bias: Option<Value>,
) -> Option<Value> {
    let Norm {
        first_axis,
        epsilon,
        rms,
        stash,
    } = norm;
    let elem = b.elem(x)?;
    let rank = b.rank(x)? as i64;
    let first_axis = if first_axis < 0 {
        first_axis + rank
    } else {
        first_axis
    };
    if !(0..rank).contains(&first_axis) {
        return None;
    }
    let axes: Vec<i64> = (first_axis..rank).collect();
    if !rms && b.opset >= 17 && stash == ElemType::F32 {
        let mut inputs = vec![Some(x), Some(scale)];
        inputs.push(bias);
        let attrs = [
            ("axis", Attr::Int(first_axis)),
            ("epsilon", Attr::Float(epsilon as f32)),
        ];
        return Some(b.node(LayerNormalization, &inputs, &attrs, 1)?[0]);
    }
    let wide = b.cast(x, stash)?;
    let centered = if rms {
        wide
    } else {
        let mean = b.reduce(ReduceMean, wide, &axes, true)?;
        b.binary(Sub, wide, mean)?
    };
    let square = b.binary(Mul, centered, centered)?;
    let variance = b.reduce(ReduceMean, square, &axes, true)?;
    let epsilon = b.scalar(stash, epsilon)?;
    let shifted = b.binary(Add, variance, epsilon)?;
    let std = b.unary(Sqrt, shifted)?;
    let normalized = b.binary(Div, centered, std)?;
    let scale = b.cast(scale, stash)?;
    let mut y = b.binary(Mul, normalized, scale)?;
    if let Some(bias) = bias {
        let bias = b.cast(bias, stash)?;
        y = b.binary(Add, y, bias)?;
    }
    b.cast(y, elem)
}

/// The type a normalization of `elem` computes in: f64 for f64, else f32.
fn stash_of(elem: ElemType) -> ElemType {
    if elem == ElemType::F64 {
        ElemType::F64
    } else {
        ElemType::F32
    }
}

/// Expands SkipLayerNormalization (`simplified`: its RMS form,
/// SkipSimplifiedLayerNormalization, whose optional bias is input 3).
fn skip_normalization(b: &mut Builder, simplified: bool) -> Option<Vec<Option<Value>>> {
    if b.wants_result(1) || b.wants_result(2) {
        return None;
    }
    let (input, skip, gamma) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let (beta, bias) = if simplified {
        (None, b.input(3))
    } else {
        (b.input(3), b.input(4))
    };
    let sum = b.binary(Add, input, skip)?;
    let sum = plus(b, sum, bias)?;
    let norm = Norm::last_axis(b, input, simplified)?;
    let y = normalize(b, sum, norm, gamma, beta)?;
    Some(vec![Some(y), None, None, Some(sum)])
}

/// Expands SkipLayerNormalization.
pub(super) fn skip_layer_normalization(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    skip_normalization(b, false)
}

/// Expands SkipSimplifiedLayerNormalization.
pub(super) fn skip_simplified_layer_normalization(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    skip_normalization(b, true)
}

/// Expands SimplifiedLayerNormalization (without its `inv_std_var`).
pub(super) fn simplified_layer_normalization(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.wants_result(1) {
        return None;
    }
    let (x, scale) = (b.input(0)?, b.input(1)?);
    let stash = ElemType::from_onnx(i32::try_from(b.int_attr("stash_type").unwrap_or(1)).ok()?)?;
    let axis = b.int_attr("axis").unwrap_or(-1);
    let epsilon = f64::from(b.float_attr("epsilon").unwrap_or(1e-5));
    let norm = Norm {
        first_axis: axis,
        epsilon,
        rms: true,
        stash,
    };
    Some(vec![Some(normalize(b, x, norm, scale, None)?)])
}

/// Expands EmbedLayerNormalization.
pub(super) fn embed_layer_normalization(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let ids = b.input(0)?;
    let (word, position) = (b.input(2)?, b.input(3)?);
    let (gamma, beta) = (b.input(5)?, b.input(6)?);
    let gather = [("axis", Attr::Int(0))];
    let mut sum = b.op(Gather, &[word, ids], &gather)?;
    let positions = match b.input(8) {
        Some(p) => p,
        None => {
            let len = b.size(ids, 1)?;
            let iota = b.iota(len)?;
            b.squeeze_like(Unsqueeze, iota, &[0])?
        }
    };
    let position = b.op(Gather, &[position, positions], &gather)?;
    sum = b.binary(Add, sum, position)?;
    if let (Some(segments), Some(table)) = (b.input(1), b.input(4)) {
        let segment = b.op(Gather, &[table, segments], &gather)?;
        sum = b.binary(Add, sum, segment)?;
    }
    let norm = Norm::last_axis(b, sum, false)?;
    let y = normalize(b, sum, norm, gamma, Some(beta))?;
    let mask_index = if b.wants_result(1) {
        let counts = match b.input(7) {
            Some(mask) => {
                let mask = b.cast(mask, ElemType::I64)?;
                b.reduce(ReduceSum, mask, &[1], false)?
            }
            None => {
                let zero = b.constant(crate::tensor::TensorData::scalar(0i64))?;
                let ids64 = b.cast(ids, ElemType::I64)?;
                let zeros = b.binary(Mul, ids64, zero)?;
                b.reduce(ReduceSum, zeros, &[1], false)?
            }
        };
        Some(b.cast(counts, ElemType::I32)?)
    } else {
        None
    };
    Some(vec![Some(y), mask_index, Some(sum)])
}

/// `x` with its last two dims swapped.
fn swap_last(b: &mut Builder, x: Value) -> Option<Value> {
    let rank = b.rank(x)? as i64;
    if rank < 2 {
        return None;
    }
    let mut perm: Vec<i64> = (0..rank).collect();
    perm.swap(rank as usize - 2, rank as usize - 1);
    b.transpose(x, &perm)
}

/// Expands FusedMatMul (without `transBatchA`/`transBatchB`).
pub(super) fn fused_matmul(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.int_attr("transBatchA").unwrap_or(0) != 0 || b.int_attr("transBatchB").unwrap_or(0) != 0 {
        return None;
    }
    let (mut a, mut m) = (b.input(0)?, b.input(1)?);
    if b.int_attr("transA").unwrap_or(0) != 0 {
        a = swap_last(b, a)?;
    }
    if b.int_attr("transB").unwrap_or(0) != 0 {
        m = swap_last(b, m)?;
    }
    let mut y = b.binary(MatMul, a, m)?;
    let alpha = b.float_attr("alpha").unwrap_or(1.0);
    if alpha != 1.0 {
        let elem = b.elem(y)?;
        let alpha = b.scalar(elem, f64::from(alpha))?;
        y = b.binary(Mul, y, alpha)?;
    }
    Some(vec![Some(y)])
}

/// The internal `activation` and `activation_params` attributes for a
/// contrib activation named `name` with parameters `params` (as
/// onnxruntime gives them, unused ones left out); `None` for an
/// activation the internal fused ops do not have.
fn internal_activation(name: &str, params: &[f32]) -> Option<Vec<(&'static str, Attr)>> {
    let (internal, arity, defaults): (&str, usize, &[f32]) = match name {
        "" => ("", 0, &[]),
        "Relu" => ("Relu", 0, &[]),
        "Sigmoid" => ("Sigmoid", 0, &[]),
        "Tanh" => ("Tanh", 0, &[]),
        "LeakyRelu" => ("LeakyRelu", 1, &[0.01]),
        "HardSigmoid" => ("HardSigmoid", 2, &[0.2, 0.5]),
        "Clip" => ("Clip", 2, &[f32::MIN, f32::MAX]),
        _ => return None,
    };
    let values: Vec<f32> = (0..arity)
        .map(|i| params.get(i).copied().unwrap_or(defaults[i]))
        .collect();
    let mut attrs = vec![("activation", Attr::str(internal))];
    if arity > 0 {
        attrs.push(("activation_params", Attr::Floats(values)));
    }
    Some(attrs)
}

/// Expands FusedGemm into the internal FusedGemm (activation parameters
/// from `activation_alpha` and `activation_beta`).
pub(super) fn fused_gemm(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let name = b.string_attr("activation").unwrap_or_default();
    let params: Vec<f32> = ["activation_alpha", "activation_beta"]
        .iter()
        .map_while(|n| {
            b.target().attrs.get(n).and_then(|a| match a {
                Attr::Float(v) => Some(*v),
                _ => None,
            })
        })
        .collect();
    let mut attrs = internal_activation(&name, &params)?;
    for (n, default) in [("alpha", 1.0), ("beta", 1.0)] {
        attrs.push((n, Attr::Float(b.float_attr(n).unwrap_or(default))));
    }
    for n in ["transA", "transB"] {
        attrs.push((n, Attr::Int(b.int_attr(n).unwrap_or(0))));
    }
    let inputs = [b.input(0), b.input(1), b.input(2)];
    Some(vec![Some(b.node(FusedGemm, &inputs, &attrs, 1)?[0])])
}

/// Expands FusedConv into the internal FusedConv.
pub(super) fn fused_conv(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let name = b.string_attr("activation").unwrap_or_default();
    let params = match b.attr("activation_params") {
        Some(Attr::Floats(p)) => p,
        _ => vec![],
    };
    let mut attrs = internal_activation(&name, &params)?;
    attrs.extend(b.given_attrs(&CONV_ATTRS));
    let inputs = [b.input(0), b.input(1), b.input(2), b.input(3)];
    Some(vec![Some(b.node(FusedConv, &inputs, &attrs, 1)?[0])])
}

/// Expands NhwcConv: channels last in X and Y, W as Conv's.
pub(super) fn nhwc_conv(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let rank = b.rank(x)? as i64;
    let to_first: Vec<i64> = [0, rank - 1].into_iter().chain(1..rank - 1).collect();
    let to_last: Vec<i64> = [0].into_iter().chain(2..rank).chain([1]).collect();
    let x = b.transpose(x, &to_first)?;
    let inputs = [Some(x), b.input(1), b.input(2)];
    let y = b.node(Conv, &inputs, &b.given_attrs(&CONV_ATTRS), 1)?[0];
    Some(vec![Some(b.transpose(y, &to_last)?)])
}
