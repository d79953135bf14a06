//! onnxruntime's contrib attention operators (`com.microsoft`), as its
//! ContribOperators documentation defines them, rewritten into ai.onnx
//! Attention-23 and RotaryEmbedding-23 (expanded at once by their own
//! expansions, `attention.rs` and `rotary.rs`, whatever ai.onnx opset the
//! model imports):
//!
//! ```text
//! Attention(input, weights, bias?, mask_index?, past?, attention_bias?)
//!   Q, K, V     = split(input @ weights + bias) by qkv_hidden_sizes (equal thirds by default)
//!   K, V        = Concat(past[0], K), Concat(past[1], V)  → present = Stack(K, V)  [2, B, H, T, D]
//!   output      = Attention(Q, K, V, mask) with num_heads heads, scale (1/√D by default)
//! MultiHeadAttention(query, key, value, bias?, key_padding_mask?, attention_bias?, past_key?, past_value?)
//!   Q, K, V     = query, key, value [B, L, H·D] (+ bias, split in thirds by the hidden sizes)
//!   K, V        = Concat(past_key, K), Concat(past_value, V) → present_key, present_value
//! mask (both)   = Where(keep, 0, mask_filter_value) + Where(j ≤ i + past_length, 0, -∞)
//!                 (the latter with unidirectional) + attention_bias, keep[b, i, j] =
//!                 j < mask[b]                              (mask_index [B])
//!                 start[b] ≤ j < end[b]                    (mask_index [2B]: end, start)
//!                 mask[b, j] ≠ 0, mask[b, i, j] ≠ 0        ([B, T], [B, S, T])
//! GroupQueryAttention(query, key, value, past_key?, past_value?, seqlens_k, total_sequence_length,
//!                     cos_cache?, sin_cache?)
//!   Q, K, V     = query, key, value (packed QKV when key is absent), with num_heads and kv_num_heads
//!   Q, K        = RotaryEmbedding(Q, K) at positions past_length + i (do_rotary)
//!   keep[b,i,j] = j ≤ i + past_length (causal), j < seqlens_k[b] + 1,
//!                 j > i + past_length - local_window_size (local_window_size ≥ 0)
//!   output      = Attention(Q, K, V, keep, softcap)
//! RotaryEmbedding(input, position_ids, cos_cache, sin_cache)
//!   = RotaryEmbedding-23(input, cos_cache, sin_cache, ids), ids = position_ids [B, S], or
//!     position_ids[0] + 0..S for a position_ids of shape [1]
//! ```
//!
//! Not handled (the op stays, the lowering refuses it): 4-D (Megatron)
//! masks, `past_sequence_length` and shared past/present buffers,
//! `do_rotary` of Attention, packed and cross-attention layouts of
//! MultiHeadAttention's key (rank 4 and 5), its `cache_indirection` and
//! `qk` output, GroupQueryAttention's quantized caches, head sinks,
//! `smooth_softmax`, Q/K norms, `qk_output` and position ids, a ragged
//! batch with a past (the cache is appended, not placed at each batch's
//! length), and RotaryEmbedding's `is_packed_batching` and `scale`.

use super::builder::{Builder, Size};
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// `[B, S, H·D]` → `[B, H, S, D]`.
fn split_heads(b: &mut Builder, x: Value, heads: i64) -> Option<Value> {
    let split = b.reshape(x, &[0, 0, heads, -1])?;
    b.transpose(split, &[0, 2, 1, 3])
}

/// `x` along its last axis in parts of `sizes`.
fn split_last(b: &mut Builder, x: Value, sizes: &[i64]) -> Option<Vec<Value>> {
    let sizes_v = b.ints(sizes)?;
    let rank = b.rank(x)? as i64;
    b.node(
        Split,
        &[Some(x), Some(sizes_v)],
        &[("axis", Attr::Int(rank - 1))],
        sizes.len(),
    )
}

/// `past` (`[B, H, P, D]`) followed by `x` (`[B, H, S, D]`) along the
/// sequence, and the past's length.
fn append(b: &mut Builder, past: Option<Value>, x: Value) -> Option<(Value, Size)> {
    match past {
        Some(past) => {
            let len = b.size(past, 2)?;
            Some((b.op(Concat, &[past, x], &[("axis", Attr::Int(2))])?, len))
        }
        None => Some((x, Size::Fixed(0))),
    }
}

/// An int64 scalar of a size.
fn scalar_of(b: &mut Builder, s: Size) -> Option<Value> {
    b.size_scalar(s)
}

/// Positions `0..n` as int64 `[n]`, plus `offset` (an int64 scalar).
fn positions(b: &mut Builder, n: Size, offset: Option<Value>) -> Option<Value> {
    let iota = b.iota(n)?;
    match offset {
        Some(o) => b.binary(Add, iota, o),
        None => Some(iota),
    }
}

/// The causal `keep` of queries at positions `query_pos` (`[S]` or
/// `[B, S]`) over keys `0..kv_len`: `j ≤ position`, shaped `[S, T]` (or
/// `[B, 1, S, T]`).
fn causal(b: &mut Builder, query_pos: Value, key_pos: Value) -> Option<Value> {
    let rank = b.rank(query_pos)? as i64;
    let q = b.squeeze_like(Unsqueeze, query_pos, &[rank])?;
    let later = b.binary(Greater, key_pos, q)?;
    let keep = b.unary(Not, later)?;
    if rank == 2 {
        b.squeeze_like(Unsqueeze, keep, &[1])
    } else {
        Some(keep)
    }
}

/// The keys a contrib mask (`mask_index` of Attention, `key_padding_mask`
/// of MultiHeadAttention) keeps, broadcast to `[B, 1, S, T]`.
fn mask_keep(b: &mut Builder, mask: Value, key_pos: Value) -> Option<Value> {
    let dims = b.sym_dims(mask)?;
    let mask64 = b.cast(mask, ElemType::I64)?;
    match dims.len() {
        1 => {
            // [B] ends, or [2B] ends then starts.
            let (ends, starts) = match b.dims(mask).map(|d| d[0]) {
                Some(n) if n % 2 == 0 && two_b(b, n) => {
                    let halves = split_last(b, mask64, &[n / 2, n / 2])?;
                    (halves[0], Some(halves[1]))
                }
                _ => (mask64, None),
            };
            let ends = b.squeeze_like(Unsqueeze, ends, &[1])?;
            let mut keep = b.binary(Less, key_pos, ends)?;
            if let Some(starts) = starts {
                let starts = b.squeeze_like(Unsqueeze, starts, &[1])?;
                let before = b.binary(Less, key_pos, starts)?;
                let after = b.unary(Not, before)?;
                keep = b.binary(And, keep, after)?;
            }
            b.squeeze_like(Unsqueeze, keep, &[1, 2])
        }
        2 | 3 => {
            let zero = b.constant(TensorData::scalar(0i64))?;
            let masked = b.binary(Equal, mask64, zero)?;
            let keep = b.unary(Not, masked)?;
            let axes: &[i64] = if dims.len() == 2 { &[1, 2] } else { &[1] };
            b.squeeze_like(Unsqueeze, keep, axes)
        }
        _ => None,
    }
}

/// Whether a 1-D mask of `n` entries is the `[2B]` form: the batch size
/// (the op's first input's first dim) is `n / 2`.
fn two_b(b: &Builder, n: i64) -> bool {
    b.input(0)
        .and_then(|x| b.dims(x))
        .is_some_and(|d| d.first() == Some(&(n / 2)))
}

/// The additive mask of the contrib attentions: `Where(keep, 0, fill)`
/// per condition, plus `bias`, in `elem`.
fn additive(
    b: &mut Builder,
    keep: Vec<(Value, f64)>,
    bias: Option<Value>,
    elem: ElemType,
) -> Option<Option<Value>> {
    let mut sum = bias;
    for (keep, filter) in keep {
        let zero = b.scalar(elem, 0.0)?;
        let filter = b.scalar(elem, filter)?;
        let term = b.select(keep, zero, filter)?;
        sum = Some(match sum {
            Some(s) => b.binary(Add, s, term)?,
            None => term,
        });
    }
    Some(sum)
}

/// Attention-23 over `[B, H, S, D]` heads with an optional mask (bool or
/// additive), its result back to `[B, S, H·D]`.
fn attend(
    b: &mut Builder,
    (q, k, v): (Value, Value, Value),
    mask: Option<Value>,
    extra: &[(&str, Attr)],
) -> Option<Value> {
    let mut attrs: Vec<(&str, Attr)> = extra.to_vec();
    if let Some(s) = b.float_attr("scale").filter(|&s| s != 0.0) {
        attrs.push(("scale", Attr::Float(s)));
    }
    let y = b.expanded(
        super::attention::attention,
        (Attention, 23),
        &[Some(q), Some(k), Some(v), mask],
        &attrs,
        &[true],
    )?[0]?;
    let y = b.transpose(y, &[0, 2, 1, 3])?;
    b.reshape(y, &[0, 0, -1])
}

/// Expands Attention.
pub(super) fn attention(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.input(6).is_some()
        || b.int_attr("do_rotary").unwrap_or(0) != 0
        || b.int_attr("past_present_share_buffer").unwrap_or(0) != 0
    {
        return None;
    }
    let (x, w) = (b.input(0)?, b.input(1)?);
    let elem = b.elem(x)?;
    let heads = b.int_attr("num_heads")?;
    let total = *b.dims(w)?.last()?;
    let sizes = match b.int_list("qkv_hidden_sizes") {
        Some(s) if s.len() == 3 => s,
        Some(_) => return None,
        None if total % 3 == 0 => vec![total / 3; 3],
        None => return None,
    };
    let mut qkv = b.binary(MatMul, x, w)?;
    if let Some(bias) = b.input(2) {
        qkv = b.binary(Add, qkv, bias)?;
    }
    let parts = split_last(b, qkv, &sizes)?;
    let q = split_heads(b, parts[0], heads)?;
    let k = split_heads(b, parts[1], heads)?;
    let v = split_heads(b, parts[2], heads)?;
    let (past_k, past_v) = match b.input(4) {
        Some(past) => {
            let (first, second) = (
                b.constant(TensorData::scalar(0i64))?,
                b.constant(TensorData::scalar(1i64))?,
            );
            let axis = [("axis", Attr::Int(0))];
            (
                Some(b.op(Gather, &[past, first], &axis)?),
                Some(b.op(Gather, &[past, second], &axis)?),
            )
        }
        None => (None, None),
    };
    let (k, past_len) = append(b, past_k, k)?;
    let (v, _) = append(b, past_v, v)?;
    let keep = keep_of(b, b.input(3), q, k, past_len)?;
    let mask = additive(b, keep, b.input(5), elem)?;
    let y = attend(b, (q, k, v), mask, &[])?;
    let present = if b.wants_result(1) {
        let k = b.squeeze_like(Unsqueeze, k, &[0])?;
        let v = b.squeeze_like(Unsqueeze, v, &[0])?;
        Some(b.op(Concat, &[k, v], &[("axis", Attr::Int(0))])?)
    } else {
        None
    };
    Some(vec![Some(y), present])
}

/// What the contrib mask and `unidirectional` keep of queries `q`
/// (`[B, H, S, D]`) over keys `k` (`[B, H, T, D]`), each condition with
/// what a key failing it adds to its score: `mask_filter_value` for the
/// mask, -∞ for the causal order (onnxruntime's kernels never read the
/// keys after a query).
fn keep_of(
    b: &mut Builder,
    mask: Option<Value>,
    q: Value,
    k: Value,
    past_len: Size,
) -> Option<Vec<(Value, f64)>> {
    let key_pos = positions(b, b.size(k, 2)?, None)?;
    let filter = f64::from(b.float_attr("mask_filter_value").unwrap_or(-10000.0));
    let by_mask = match mask {
        Some(m) => Some((mask_keep(b, m, key_pos)?, filter)),
        None => None,
    };
    let by_order = if b.int_attr("unidirectional").unwrap_or(0) != 0 {
        let offset = scalar_of(b, past_len)?;
        let query_pos = positions(b, b.size(q, 2)?, Some(offset))?;
        Some((causal(b, query_pos, key_pos)?, f64::NEG_INFINITY))
    } else {
        None
    };
    Some(by_mask.into_iter().chain(by_order).collect())
}

/// Expands MultiHeadAttention (3-D query, key and value).
pub(super) fn multi_head_attention(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.input(8).is_some() || b.input(9).is_some() || b.wants_result(3) {
        return None;
    }
    let (query, key, value) = (b.input(0)?, b.input(1)?, b.input(2)?);
    if b.rank(query)? != 3 || b.rank(key)? != 3 || b.rank(value)? != 3 {
        return None;
    }
    let elem = b.elem(query)?;
    let heads = b.int_attr("num_heads")?;
    let (mut query, mut key, mut value) = (query, key, value);
    if let Some(bias) = b.input(3) {
        let sizes = [
            *b.dims(query)?.last()?,
            *b.dims(key)?.last()?,
            *b.dims(value)?.last()?,
        ];
        let parts = split_last(b, bias, &sizes)?;
        query = b.binary(Add, query, parts[0])?;
        key = b.binary(Add, key, parts[1])?;
        value = b.binary(Add, value, parts[2])?;
    }
    let q = split_heads(b, query, heads)?;
    let k = split_heads(b, key, heads)?;
    let v = split_heads(b, value, heads)?;
    let (k, past_len) = append(b, b.input(6), k)?;
    let (v, _) = append(b, b.input(7), v)?;
    let keep = keep_of(b, b.input(4), q, k, past_len)?;
    let mask = additive(b, keep, b.input(5), elem)?;
    let y = attend(b, (q, k, v), mask, &[])?;
    Some(vec![Some(y), Some(k), Some(v)])
}

/// Expands GroupQueryAttention.
pub(super) fn group_query_attention(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let unsupported = (9..16).any(|i| b.input(i).is_some())
        || b.int_attr("smooth_softmax").unwrap_or(-1) > 0
        || b.int_attr("qk_output").unwrap_or(0) != 0
        || b.int_attr("sliding_window_cache").unwrap_or(0) != 0
        || b.string_attr("k_quant_type").is_some_and(|t| t != "NONE")
        || b.string_attr("v_quant_type").is_some_and(|t| t != "NONE")
        || b.wants_result(3);
    if unsupported {
        return None;
    }
    let heads = b.int_attr("num_heads")?;
    let kv_heads = b.int_attr("kv_num_heads")?;
    let query = b.input(0)?;
    let (query, key, value) = match (b.input(1), b.input(2)) {
        (Some(k), Some(v)) => (query, k, v),
        (None, None) => {
            let width = *b.dims(query)?.last()?;
            let size = width / (heads + 2 * kv_heads);
            let parts = split_last(b, query, &[heads * size, kv_heads * size, kv_heads * size])?;
            (parts[0], parts[1], parts[2])
        }
        _ => return None,
    };
    let mut q = split_heads(b, query, heads)?;
    let mut k = split_heads(b, key, kv_heads)?;
    let v = split_heads(b, value, kv_heads)?;
    let (past_k, past_v) = (b.input(3), b.input(4));
    let past_len = match past_k {
        Some(p) => b.size(p, 2)?,
        None => Size::Fixed(0),
    };
    let offset = scalar_of(b, past_len)?;
    let query_pos = positions(b, b.size(q, 2)?, Some(offset))?;
    if b.int_attr("do_rotary").unwrap_or(0) != 0 {
        let (cos, sin) = (b.input(7)?, b.input(8)?);
        let ids = b.squeeze_like(Unsqueeze, query_pos, &[0])?;
        let attrs = [(
            "interleaved",
            Attr::Int(b.int_attr("rotary_interleaved").unwrap_or(0)),
        )];
        q = rotate(b, q, cos, sin, ids, &attrs)?;
        k = rotate(b, k, cos, sin, ids, &attrs)?;
    }
    let (k, _) = append(b, past_k, k)?;
    let (v, _) = append(b, past_v, v)?;
    let key_pos = positions(b, b.size(k, 2)?, None)?;
    // Keys beyond each batch's total length (seqlens_k + 1) are padding.
    let lengths = b.cast(b.input(5)?, ElemType::I64)?;
    let one = b.constant(TensorData::scalar(1i64))?;
    let lengths = b.binary(Add, lengths, one)?;
    let lengths = b.squeeze_like(Unsqueeze, lengths, &[1])?;
    let keep = b.binary(Less, key_pos, lengths)?;
    let mut keep = b.squeeze_like(Unsqueeze, keep, &[1, 2])?;
    if b.int_attr("causal").unwrap_or(1) != 0 {
        let order = causal(b, query_pos, key_pos)?;
        keep = b.binary(And, keep, order)?;
        let window = b.int_attr("local_window_size").unwrap_or(-1);
        if window >= 0 {
            let reach = b.constant(TensorData::scalar(window))?;
            let start = b.binary(Sub, query_pos, reach)?;
            let start = b.squeeze_like(Unsqueeze, start, &[1])?;
            let inside = b.binary(Greater, key_pos, start)?;
            keep = b.binary(And, keep, inside)?;
        }
    }
    let mut extra = vec![];
    if let Some(cap) = b.float_attr("softcap").filter(|&c| c > 0.0) {
        extra.push(("softcap", Attr::Float(cap)));
    }
    let y = attend(b, (q, k, v), Some(keep), &extra)?;
    Some(vec![Some(y), Some(k), Some(v)])
}

/// RotaryEmbedding-23 of `x` (`[B, H, S, D]`) at positions `ids`.
fn rotate(
    b: &mut Builder,
    x: Value,
    cos: Value,
    sin: Value,
    ids: Value,
    attrs: &[(&str, Attr)],
) -> Option<Value> {
    let inputs = [Some(x), Some(cos), Some(sin), Some(ids)];
    b.expanded(
        super::rotary::rotary_embedding,
        (RotaryEmbedding, 23),
        &inputs,
        attrs,
        &[true],
    )?[0]
}

/// Expands contrib RotaryEmbedding.
pub(super) fn rotary_embedding(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.int_attr("is_packed_batching").unwrap_or(0) != 0
        || b.float_attr("scale").is_some_and(|s| s != 1.0)
    {
        return None;
    }
    let (x, ids, cos, sin) = (b.input(0)?, b.input(1)?, b.input(2)?, b.input(3)?);
    let rank = b.rank(x)?;
    let ids = match b.rank(ids)? {
        2 => ids,
        1 => {
            let len = b.size(x, if rank == 4 { 2 } else { 1 })?;
            let offset = b.reshape(ids, &[])?;
            let pos = positions(b, len, Some(offset))?;
            b.squeeze_like(Unsqueeze, pos, &[0])?
        }
        _ => return None,
    };
    let rotary = b.int_attr("rotary_embedding_dim").unwrap_or(0);
    let mut attrs = vec![
        (
            "interleaved",
            Attr::Int(b.int_attr("interleaved").unwrap_or(0)),
        ),
        ("rotary_embedding_dim", Attr::Int(rotary)),
    ];
    if rank == 3 {
        let heads = match b.int_attr("num_heads").unwrap_or(0) {
            0 => {
                let hidden = *b.dims(x)?.last()?;
                let half = *b.dims(cos)?.last()?;
                if rotary != 0 || half == 0 || hidden % (2 * half) != 0 {
                    return None;
                }
                hidden / (2 * half)
            }
            h => h,
        };
        attrs.push(("num_heads", Attr::Int(heads)));
    }
    Some(vec![rotate(b, x, cos, sin, ids, &attrs)])
}
