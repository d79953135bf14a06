//! TensorScatter (ai.onnx 24): writes an update into a KV cache at a
//! write index per batch, along the sequence axis.
//!
//! The expansion reads rather than writes: each cache position `p` of
//! batch `b` takes the update's step `s = p - write_indices[b]` (modulo the
//! cache length in `circular` mode) when `0 ≤ s < sequence_length`, and
//! keeps the past value otherwise.
//!
//! ```text
//! past_cache  [B, …, M, …], update [B, …, S, …] (M, S on `axis`), write_indices [B] (zeros without)
//! s           = p - write_indices[b]              p in 0..M, broadcast [B, 1, …, M, …, 1]
//! s           = s mod M                           (circular)
//! hit         = 0 ≤ s < S
//! taken       = GatherElements(update, Expand(Where(hit, s, 0)), axis)
//! present     = Where(hit, taken, past_cache)
//! ```
//!
//! Reading keeps every access in bounds, even for write indices the
//! `linear` mode forbids (those positions keep the past). Both modes are
//! handled, with symbolic sizes too: the positions are then a running sum
//! of ones and the lengths and the cache's shape are read with `Shape`.

use super::builder::{Builder, Size};
use crate::attr::Attr;
use crate::dim::Dim;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// Expands TensorScatter as described in the module docs.
pub(super) fn tensor_scatter(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (cache, update) = (b.input(0)?, b.input(1)?);
    let circular = match b.string_attr("mode")?.as_str() {
        "linear" => false,
        "circular" => true,
        _ => return None,
    };
    let dims = b.sym_dims(cache)?;
    let update_dims = b.sym_dims(update)?;
    let rank = dims.len() as i64;
    let axis = b.int_attr("axis")?;
    let axis = if axis < 0 { axis + rank } else { axis };
    if axis <= 0 || axis >= rank || update_dims.len() != dims.len() {
        return None;
    }
    let axis_index = axis as usize;
    // The gather reads the update at the cache's positions off the axis:
    // they must be the same (symbolic ones are clamped into the update by
    // the gather, so that bad inputs stay in bounds).
    let differs = |a: &Dim, b: &Dim| matches!((a, b), (Dim::Known(x), Dim::Known(y)) if x != y);
    let longer = matches!(
        (&dims[axis_index], &update_dims[axis_index]),
        (Dim::Known(m), Dim::Known(s)) if s > m
    );
    let same_elsewhere =
        (0..dims.len()).all(|i| i == axis_index || !differs(&dims[i], &update_dims[i]));
    if !same_elsewhere || longer {
        return None;
    }
    let (max_len, seq_len) = (b.size(cache, axis_index)?, b.size(update, axis_index)?);
    // The cache positions along the axis, `[1, …, M, …, 1]`.
    let positions = match max_len {
        Size::Fixed(m) => {
            let mut positions_dims = vec![1; dims.len()];
            positions_dims[axis_index] = m;
            let positions: Vec<i64> = (0..m).collect();
            b.constant(TensorData::from_vec(positions_dims, &positions).ok()?)?
        }
        Size::Of(..) => {
            let mut sizes = vec![Size::Fixed(1); dims.len()];
            sizes[axis_index] = max_len;
            let shape = b.size_vector(&sizes)?;
            let positions = b.iota(max_len)?;
            b.op(Reshape, &[positions, shape], &[])?
        }
    };
    let steps = match b.input(2) {
        Some(indices) => {
            let indices = b.cast(indices, ElemType::I64)?;
            let mut batch_dims = vec![1; dims.len()];
            batch_dims[0] = -1;
            let starts = b.reshape(indices, &batch_dims)?;
            b.binary(Sub, positions, starts)?
        }
        None => positions,
    };
    let steps = if circular {
        let len = b.size_scalar(max_len)?;
        b.binary(Mod, steps, len)?
    } else {
        steps
    };
    let zero = b.constant(TensorData::scalar(0_i64))?;
    let len = b.size_scalar(seq_len)?;
    let after_start = b.binary(GreaterOrEqual, steps, zero)?;
    let before_end = b.binary(Less, steps, len)?;
    let hit = b.binary(And, after_start, before_end)?;
    let clamped = b.select(hit, steps, zero)?;
    let sizes = (0..dims.len())
        .map(|i| b.size(cache, i))
        .collect::<Option<Vec<_>>>()?;
    let shape = b.size_vector(&sizes)?;
    let indices = b.op(Expand, &[clamped, shape], &[])?;
    let taken = b.op(
        GatherElements,
        &[update, indices],
        &[("axis", Attr::Int(axis))],
    )?;
    let present = b.select(hit, taken, cache)?;
    Some(vec![Some(present)])
}
