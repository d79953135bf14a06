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
//! reference does). Not handled (the op stays): inputs whose shapes are
//! not static.

use super::Builder;
use crate::attr::Attr;
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
    let [_, q_heads, q_len, head_size] = <[i64; 4]>::try_from(b.dims(q)?).ok()?;
    let scale = match b.float_attr("scale") {
        Some(s) => f64::from(s),
        None => 1.0 / (head_size as f64).sqrt(),
    };
    let (present_key, past_len) = with_past(b, b.input(4), k)?;
    let (present_value, _) = with_past(b, b.input(5), v)?;
    let kv_heads = b.dims(present_key)?[1];
    let kv_len = b.dims(present_key)?[2];
    if q_heads % kv_heads != 0 || b.dims(present_value)?[1] != kv_heads {
        return None;
    }
    let keys = repeat_heads(b, present_key, q_heads / kv_heads)?;
    let values = repeat_heads(b, present_value, q_heads / kv_heads)?;

    let s = b.scalar(elem, scale.sqrt())?;
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
            let q_len_v = b.constant(TensorData::scalar(q_len))?;
            Offset::PerBatch(b.binary(Sub, lengths, q_len_v)?)
        }
        _ => Offset::Fixed(past_len),
    };
    let mut terms = vec![];
    if let Some(m) = b.input(3) {
        terms.push(mask_bias(b, m, elem, kv_len)?);
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
fn with_past(b: &mut Builder, past: Option<Value>, x: Value) -> Option<(Value, i64)> {
    let Some(past) = past else {
        return Some((x, 0));
    };
    let len = *b.dims(past)?.get(2)?;
    Some((b.op(Concat, &[past, x], &[("axis", Attr::Int(2))])?, len))
}

/// Each head of `[B, H, S, D]` repeated `times` times in place
/// (`h0, h0, h1, h1, …`), for grouped-query attention.
pub(super) fn repeat_heads(b: &mut Builder, x: Value, times: i64) -> Option<Value> {
    if times == 1 {
        return Some(x);
    }
    let [batch, heads, len, size] = <[i64; 4]>::try_from(b.dims(x)?).ok()?;
    let wide = b.squeeze_like(Unsqueeze, x, &[2])?;
    let shape = b.ints(&[batch, heads, times, len, size])?;
    let repeated = b.op(Expand, &[wide, shape], &[])?;
    b.reshape(repeated, &[batch, heads * times, len, size])
}

/// The additive bias of an attention mask, of the element type `elem`:
/// a boolean mask allows where true (0) and masks where false (-inf); a
/// mask shorter than the keys masks the rest.
fn mask_bias(b: &mut Builder, mask: Value, elem: ElemType, kv_len: i64) -> Option<Value> {
    let dims = b.dims(mask)?;
    let bias = if b.elem(mask)? == ElemType::Bool {
        allow_bias(b, mask, elem)?
    } else {
        mask
    };
    let last = *dims.last()?;
    if last == kv_len {
        return Some(bias);
    }
    if last > kv_len {
        return None;
    }
    let mut pad_dims = dims.clone();
    *pad_dims.last_mut()? = kv_len - last;
    let n = pad_dims.iter().product::<i64>() as usize;
    let pad = b.floats(elem, pad_dims, &vec![f64::NEG_INFINITY; n])?;
    b.op(Concat, &[bias, pad], &[("axis", Attr::Int(-1))])
}

/// Where query `i` of the block sits among the keys: `i + offset`.
enum Offset {
    /// The same for every batch (the past's length).
    Fixed(i64),
    /// One per batch, an int64 `[B]` value.
    PerBatch(Value),
}

/// The additive bias (0 allowed, -inf masked) that lets query `i` see key
/// `j` when `lo ≤ i + offset - j ≤ hi` (a missing bound is no bound):
/// `(Some(0), None)` is the causal mask, `(-right, left)` the sliding
/// window. `[q_len, kv_len]` with a fixed offset, `[B, 1, q_len, kv_len]`
/// with one per batch.
fn band(
    b: &mut Builder,
    offset: &Offset,
    (lo, hi): (Option<i64>, Option<i64>),
    [q_len, kv_len]: [i64; 2],
    elem: ElemType,
) -> Option<Value> {
    let within = |d: i64| lo.is_none_or(|lo| d >= lo) && hi.is_none_or(|hi| d <= hi);
    match offset {
        Offset::Fixed(offset) => {
            let bias: Vec<f64> = (0..q_len)
                .flat_map(|i| (0..kv_len).map(move |j| i + offset - j))
                .map(|d| if within(d) { 0.0 } else { f64::NEG_INFINITY })
                .collect();
            b.floats(elem, vec![q_len, kv_len], &bias)
        }
        Offset::PerBatch(offsets) => {
            let rows: Vec<i64> = (0..q_len).collect();
            let rows = b.constant(TensorData::from_vec(vec![q_len, 1], &rows).ok()?)?;
            let cols: Vec<i64> = (0..kv_len).collect();
            let cols = b.constant(TensorData::from_vec(vec![1, kv_len], &cols).ok()?)?;
            let offsets = b.reshape(*offsets, &[-1, 1, 1])?;
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
            b.reshape(bias, &[0, 1, q_len, kv_len])
        }
    }
}

/// The bias masking the keys past each batch's `nonpad_kv_seqlen`:
/// `[B, 1, 1, kv_len]`.
fn padding(b: &mut Builder, lengths: Value, kv_len: i64, elem: ElemType) -> Option<Value> {
    let cols: Vec<i64> = (0..kv_len).collect();
    let cols = b.constant(TensorData::from_vec(vec![1, kv_len], &cols).ok()?)?;
    let lengths = b.reshape(lengths, &[-1, 1])?;
    let allowed = b.binary(Less, cols, lengths)?;
    let bias = allow_bias(b, allowed, elem)?;
    b.reshape(bias, &[0, 1, 1, kv_len])
}

/// `Where(allowed, 0, -inf)` in `elem`.
fn allow_bias(b: &mut Builder, allowed: Value, elem: ElemType) -> Option<Value> {
    let zero = b.scalar(elem, 0.0)?;
    let ninf = b.scalar(elem, f64::NEG_INFINITY)?;
    b.select(allowed, zero, ninf)
}
