//! Attention (ai.onnx 23, 24, 25): scaled dot-product attention with
//! optional mask, causal mask, KV cache, grouped-query heads and softcap.
//!
//! ```text
//! Q, K, V       [B, S, H·D] (3-D, heads from q_num_heads / kv_num_heads) → [B, H, S, D]
//! present_key   = Concat(past_key, K, axis 2)       (K without a past)
//! present_value = Concat(past_value, V, axis 2)
//! s             = sqrt(scale)                       (scale = 1/√D_q by default)
//! qk            = (Q·s) @ (K·s)ᵀ                    (each KV head repeated H_q/H_kv times)
//! qk            = softcap · tanh(qk / softcap)      (softcap > 0)
//! bias          = mask                              (bool: Where(mask, 0, -inf); padded with -inf to S_kv)
//!               + causal                            (0 where j ≤ i + offset, else -inf)
//!               + window                            (0 where -right ≤ i + offset - j ≤ left, else -inf)
//!               + padding                           (0 where j < nonpad_kv_seqlen[b], else -inf)
//!   offset      = past_len, or nonpad_kv_seqlen[b] - S_q with an external cache
//! P             = Softmax(qk + bias, -1)            (in softmax_precision), 0 on fully masked rows
//! Y             = P @ V                             (3-D: back to [B, S, H·D_v])
//! qk_matmul_output = qk (mode 0, 1), qk + bias (mode 2), P (mode 3)
//! ```
//!
//! Handled: 3-D and 4-D inputs, boolean and additive masks of any
//! broadcastable rank, `is_causal`, past and present key/value, the
//! external cache's `nonpad_kv_seqlen` (24), the sliding window (25),
//! `scale`, `softcap`, grouped-query attention, all four
//! `qk_matmul_output_mode`s and `softmax_precision`, in f32, f64, f16 and
//! bf16 (each op of the expansion rounds its result to the type, as the
//! reference does). With symbolic sizes (`docs/codegen.md`, "Dynamic
//! shapes") the sizes the expansion builds with are read with `Shape`:
//! the head size of the default scale, the grouped-query repeat count (a
//! quotient atom `H_q / H_kv`, checked exact at run time), the masks'
//! index ranges (running sums of ones) and a short mask's padding (its
//! width checked not negative at run time).

use super::builder::{Builder, Size};
use crate::attr::Attr;
use crate::dim::Dim;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// Expands Attention as described in the module docs.
pub(super) fn attention(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.input(6).is_some() && b.input(4).is_some() {
        return None;
    }
    let (q, k, v) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let elem = b.elem(q)?;
    if !elem.is_float() {
        return None;
    }
    let three_d = b.rank(q)? == 3;
    let (q, k, v) = if three_d {
        let q_heads = b.int_attr("q_num_heads")?;
        let kv_heads = b.int_attr("kv_num_heads")?;
        (
            split_heads(b, q, q_heads)?,
            split_heads(b, k, kv_heads)?,
            split_heads(b, v, kv_heads)?,
        )
    } else {
        (q, k, v)
    };
    if b.sym_dims(q)?.len() != 4 {
        return None;
    }
    let (q_len, head_size) = (b.size(q, 2)?, b.size(q, 3)?);
    let s = scale_factor(b, elem, head_size, false)?;
    let (present_key, past_len) = with_past(b, b.input(4), k)?;
    let (present_value, _) = with_past(b, b.input(5), v)?;
    let kv_len = b.size(present_key, 2)?;
    if let (Size::Fixed(k), Size::Fixed(v)) = (b.size(present_key, 1)?, b.size(present_value, 1)?) {
        if k != v {
            return None;
        }
    }
    let keys = repeat_heads(b, present_key, q)?;
    let values = repeat_heads(b, present_value, q)?;

    let q_scaled = b.binary(Mul, q, s)?;
    let k_scaled = b.binary(Mul, keys, s)?;
    let k_t = b.transpose(k_scaled, &[0, 1, 3, 2])?;
    let mut qk = b.binary(MatMul, q_scaled, k_t)?;
    let softcap = f64::from(b.float_attr("softcap").unwrap_or(0.0));
    if softcap > 0.0 {
        let c = b.scalar(elem, softcap)?;
        let scaled = b.binary(Div, qk, c)?;
        let tanh = b.unary(Tanh, scaled)?;
        qk = b.binary(Mul, tanh, c)?;
    }

    let nonpad = b.input(6);
    // Where the query block starts among the keys: after the past, or (an
    // external cache) nonpad_kv_seqlen[b] - q_len per batch.
    let offset = match nonpad {
        Some(lengths) if b.input(4).is_none() => {
            let q_len_v = match q_len {
                Size::Fixed(n) => b.constant(TensorData::scalar(n))?,
                Size::Of(..) => b.size_vector(&[q_len])?,
            };
            Offset::PerBatch(b.binary(Sub, lengths, q_len_v)?)
        }
        _ => match past_len {
            Size::Fixed(n) => Offset::Fixed(n),
            Size::Of(..) => Offset::Past(b.size_vector(&[past_len])?),
        },
    };
    let mut terms = vec![];
    if let Some(m) = b.input(3) {
        terms.push(mask_bias(b, m, elem, present_key)?);
    }
    if b.int_attr("is_causal").unwrap_or(0) != 0 {
        terms.push(band(b, &offset, (Some(0), None), [q_len, kv_len], elem)?);
    }
    let left = b.int_attr("left_window_size").unwrap_or(-1);
    let right = b.int_attr("right_window_size").unwrap_or(-1);
    if left >= 0 || right >= 0 {
        let window = ((right >= 0).then_some(-right), (left >= 0).then_some(left));
        terms.push(band(b, &offset, window, [q_len, kv_len], elem)?);
    }
    if let Some(lengths) = nonpad {
        terms.push(padding(b, lengths, kv_len, elem)?);
    }
    let mut bias = None;
    for term in terms {
        bias = Some(match bias {
            Some(sum) => b.binary(Add, sum, term)?,
            None => term,
        });
    }
    let with_bias = match bias {
        Some(bias) => b.binary(Add, qk, bias)?,
        None => qk,
    };

    let precision = match b.int_attr("softmax_precision") {
        Some(code) => ElemType::from_onnx(i32::try_from(code).ok()?)?,
        None => elem,
    };
    if !precision.is_float() {
        return None;
    }
    let logits = b.cast(with_bias, precision)?;
    let mut probs = b.op(Softmax, &[logits], &[("axis", Attr::Int(-1))])?;
    // A row whose every key is masked has probabilities 0 (not the NaN of
    // exp(-inf - -inf)); the row is found on the bias, as the spec does.
    if let Some(bias) = bias {
        let row_max = b.reduce(ReduceMax, bias, &[-1], true)?;
        let ninf = b.scalar(elem, f64::NEG_INFINITY)?;
        let masked = b.binary(Equal, row_max, ninf)?;
        let zero = b.scalar(precision, 0.0)?;
        probs = b.select(masked, zero, probs)?;
    }
    let probs_t = b.cast(probs, elem)?;
    let mut y = b.binary(MatMul, probs_t, values)?;
    if three_d {
        let y_t = b.transpose(y, &[0, 2, 1, 3])?;
        y = b.reshape(y_t, &[0, 0, -1])?;
    }
    let qk_out = if b.wants_result(3) {
        let out = match b.int_attr("qk_matmul_output_mode").unwrap_or(0) {
            0 | 1 => qk,
            2 => with_bias,
            3 => probs_t,
            _ => return None,
        };
        Some(out)
    } else {
        None
    };
    let present = |b: &Builder, i: usize, v: Value| b.wants_result(i).then_some(v);
    Some(vec![
        Some(y),
        present(b, 1, present_key),
        present(b, 2, present_value),
        qk_out,
    ])
}

/// `[B, S, H·D]` → `[B, H, S, D]`.
fn split_heads(b: &mut Builder, x: Value, heads: i64) -> Option<Value> {
    let split = b.reshape(x, &[0, 0, heads, -1])?;
    b.transpose(split, &[0, 2, 1, 3])
}

/// The cache after appending `x` to `past` along the sequence axis, and
/// the past's length (0 without one).
fn with_past(b: &mut Builder, past: Option<Value>, x: Value) -> Option<(Value, Size)> {
    let Some(past) = past else {
        return Some((x, Size::Fixed(0)));
    };
    let len = b.size(past, 2)?;
    Some((b.op(Concat, &[past, x], &[("axis", Attr::Int(2))])?, len))
}

/// `sqrt(scale)` as a scalar of `elem`, with `scale` the attribute or
/// `1/√head_size`, computed in f64 (in f32 from the square root on when
/// `f32_root`, as FlexAttention's reference does) and rounded to `elem`:
/// a constant when the head size is static, else computed from it at run
/// time by the same steps.
pub(super) fn scale_factor(
    b: &mut Builder,
    elem: ElemType,
    head_size: Size,
    f32_root: bool,
) -> Option<Value> {
    let root = |x: f64| match f32_root {
        true => f64::from((x as f32).sqrt()),
        false => x.sqrt(),
    };
    let scale = match (b.float_attr("scale"), head_size) {
        (Some(s), _) => f64::from(s),
        (None, Size::Fixed(d)) => 1.0 / (d as f64).sqrt(),
        (None, Size::Of(..)) => {
            let d = b.size_vector(&[head_size])?;
            let d = b.cast(d, ElemType::F64)?;
            let sqrt = b.unary(Sqrt, d)?;
            let scale = b.unary(Reciprocal, sqrt)?;
            let scale = match f32_root {
                true => b.cast(scale, ElemType::F32)?,
                false => scale,
            };
            let s = b.unary(Sqrt, scale)?;
            return b.cast(s, elem);
        }
    };
    b.scalar(elem, root(scale))
}

/// Each head of `x` (`[B, H_kv, S, D]`) repeated in place (`h0, h0, h1,
/// h1, …`) to as many heads as `q` (`[B, H_q, L, E]`) has, for
/// grouped-query attention. With symbolic head counts the repeat count is
/// the quotient atom `H_q / H_kv` (checked exact at run time), read off a
/// view of `q` grouped by the KV heads.
pub(super) fn repeat_heads(b: &mut Builder, x: Value, q: Value) -> Option<Value> {
    let (q_heads, kv_heads) = (b.size(q, 1)?, b.size(x, 1)?);
    let times = match (q_heads, kv_heads) {
        (Size::Fixed(h), Size::Fixed(kv)) if kv > 0 && h % kv == 0 => Size::Fixed(h / kv),
        (Size::Fixed(_), Size::Fixed(_)) => return None,
        _ => {
            let shape = [
                b.size(q, 0)?,
                kv_heads,
                Size::Fixed(-1),
                b.size(q, 2)?,
                b.size(q, 3)?,
            ];
            if shape.iter().any(|s| matches!(s, Size::Fixed(0))) {
                return None;
            }
            let shape = b.size_vector(&shape)?;
            let groups = b.op(Reshape, &[q, shape], &[])?;
            b.size(groups, 2)?
        }
    };
    if let Size::Fixed(1) = times {
        return Some(x);
    }
    if let (Size::Fixed(times), Some([batch, heads, len, size])) = (times, b.dims(x).as_deref()) {
        let wide = b.squeeze_like(Unsqueeze, x, &[2])?;
        let shape = b.ints(&[*batch, *heads, times, *len, *size])?;
        let repeated = b.op(Expand, &[wide, shape], &[])?;
        return b.reshape(repeated, &[*batch, heads * times, *len, *size]);
    }
    let one = Size::Fixed(1);
    let wide = b.squeeze_like(Unsqueeze, x, &[2])?;
    let shape = b.size_vector(&[one, one, times, one, one])?;
    let repeated = b.op(Expand, &[wide, shape], &[])?;
    let heads = match (kv_heads, times) {
        (Size::Fixed(kv), Size::Fixed(t)) => Size::Fixed(kv * t),
        _ => q_heads,
    };
    let shape = [b.size(x, 0)?, heads, b.size(x, 2)?, b.size(x, 3)?];
    let shape = b.size_vector(&shape)?;
    b.op(Reshape, &[repeated, shape], &[])
}

/// The additive bias of an attention mask, of the element type `elem`:
/// a boolean mask allows where true (0) and masks where false (-inf); a
/// mask shorter than the keys (those of `present_key`, axis 2) masks the
/// rest. With symbolic sizes that differ, the padding's width is their
/// difference, which the lowering checks is not negative at run time.
fn mask_bias(b: &mut Builder, mask: Value, elem: ElemType, present_key: Value) -> Option<Value> {
    let dims = b.sym_dims(mask)?;
    let kv_len = b.sym_dims(present_key)?.get(2)?.clone();
    let bias = if b.elem(mask)? == ElemType::Bool {
        allow_bias(b, mask, elem)?
    } else {
        mask
    };
    let last = dims.last()?;
    if *last == kv_len {
        return Some(bias);
    }
    let ninf = b.scalar(elem, f64::NEG_INFINITY)?;
    let pad = match (last, &kv_len, b.dims(mask)) {
        (Dim::Known(last), Dim::Known(kv_len), Some(mut pad_dims)) => {
            if last > kv_len {
                return None;
            }
            *pad_dims.last_mut()? = kv_len - last;
            let n = pad_dims.iter().product::<i64>() as usize;
            b.floats(elem, pad_dims, &vec![f64::NEG_INFINITY; n])?
        }
        _ => {
            let rank = dims.len();
            let kv = b.size_vector(&[b.size(present_key, 2)?])?;
            let last = b.size_vector(&[b.size(mask, rank - 1)?])?;
            let width = b.binary(Sub, kv, last)?;
            let shape = match rank {
                1 => width,
                _ => {
                    let lead: Option<Vec<Size>> = (0..rank - 1).map(|i| b.size(mask, i)).collect();
                    let lead = b.size_vector(&lead?)?;
                    b.op(Concat, &[lead, width], &[("axis", Attr::Int(0))])?
                }
            };
            b.op(Expand, &[ninf, shape], &[])?
        }
    };
    b.op(Concat, &[bias, pad], &[("axis", Attr::Int(-1))])
}

/// Where query `i` of the block sits among the keys: `i + offset`.
enum Offset {
    /// The same for every batch, static (the past's length).
    Fixed(i64),
    /// The same for every batch, an int64 `[1]` value (a symbolic past's
    /// length).
    Past(Value),
    /// One per batch, an int64 `[B]` value.
    PerBatch(Value),
}

/// The additive bias (0 allowed, -inf masked) that lets query `i` see key
/// `j` when `lo ≤ i + offset - j ≤ hi` (a missing bound is no bound):
/// `(Some(0), None)` is the causal mask, `(-right, left)` the sliding
/// window. `[q_len, kv_len]` with an offset for all batches (a constant
/// when it and the sizes are static), `[B, 1, q_len, kv_len]` with one per
/// batch.
fn band(
    b: &mut Builder,
    offset: &Offset,
    (lo, hi): (Option<i64>, Option<i64>),
    [q_len, kv_len]: [Size; 2],
    elem: ElemType,
) -> Option<Value> {
    let within = |d: i64| lo.is_none_or(|lo| d >= lo) && hi.is_none_or(|hi| d <= hi);
    let offsets = match (offset, q_len, kv_len) {
        (Offset::Fixed(offset), Size::Fixed(q_len), Size::Fixed(kv_len)) => {
            let bias: Vec<f64> = (0..q_len)
                .flat_map(|i| (0..kv_len).map(move |j| i + offset - j))
                .map(|d| if within(d) { 0.0 } else { f64::NEG_INFINITY })
                .collect();
            return b.floats(elem, vec![q_len, kv_len], &bias);
        }
        (Offset::Fixed(offset), ..) => b.ints(&[*offset])?,
        (Offset::Past(offset), ..) => *offset,
        (Offset::PerBatch(offsets), ..) => b.squeeze_like(Unsqueeze, *offsets, &[1, 2])?,
    };
    let rows = b.iota(q_len)?;
    let rows = b.squeeze_like(Unsqueeze, rows, &[1])?;
    let cols = b.iota(kv_len)?;
    let cols = b.squeeze_like(Unsqueeze, cols, &[0])?;
    let shifted = b.binary(Add, rows, offsets)?;
    let diff = b.binary(Sub, shifted, cols)?;
    let mut allowed = None;
    for (bound, kind) in [(lo, GreaterOrEqual), (hi, LessOrEqual)] {
        let Some(bound) = bound else { continue };
        let bound = b.constant(TensorData::scalar(bound))?;
        let ok = b.binary(kind, diff, bound)?;
        allowed = Some(match allowed {
            Some(a) => b.binary(And, a, ok)?,
            None => ok,
        });
    }
    let bias = allow_bias(b, allowed?, elem)?;
    match offset {
        Offset::PerBatch(_) => b.squeeze_like(Unsqueeze, bias, &[1]),
        _ => Some(bias),
    }
}

/// The bias masking the keys past each batch's `nonpad_kv_seqlen`:
/// `[B, 1, 1, kv_len]`.
fn padding(b: &mut Builder, lengths: Value, kv_len: Size, elem: ElemType) -> Option<Value> {
    let cols = b.iota(kv_len)?;
    let lengths = b.squeeze_like(Unsqueeze, lengths, &[1])?;
    let allowed = b.binary(Less, cols, lengths)?;
    let bias = allow_bias(b, allowed, elem)?;
    b.squeeze_like(Unsqueeze, bias, &[1, 2])
}

/// `Where(allowed, 0, -inf)` in `elem`.
fn allow_bias(b: &mut Builder, allowed: Value, elem: ElemType) -> Option<Value> {
    let zero = b.scalar(elem, 0.0)?;
    let ninf = b.scalar(elem, f64::NEG_INFINITY)?;
    b.select(allowed, zero, ninf)
}
