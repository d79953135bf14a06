//! Normalizations the lowering has no kernel for.
//!
//! ```text
//! RMSNormalization(X, scale) = Cast(x / sqrt(ReduceMean(x², axes) + epsilon), T) · scale
//!   with x = Cast(X, stash_type), axes = [axis, rank)
//! LpNormalization(x)         = Where(n == 0, 0, x / n),  n = ReduceL1/L2(x, axis)
//! MeanVarianceNormalization  = (x - E[x]) / (sqrt(E[x²] - E[x]²) + 1e-9)
//! GroupNormalization(x)      = per group of channels (x - E[x]) / sqrt(Var[x] + epsilon), · scale + bias
//! Hardmax(x)                 = Cast(ArgMax(x, axis, keepdims) == iota along axis, T)
//! BatchNormalization, training_mode = 1 (the inference form lowers as it is):
//!   m, v = E[x], E[(x - E[x])²] over every axis but the channels (axis 1)
//!   Y    = (x - m) / sqrt(v + epsilon) · scale + B
//!   running_mean = mean · momentum + m · (1 - momentum)   (running_var alike, from var and v)
//! ```
//!
//! Each function says which versions and variants it handles; inputs of
//! unknown rank (or, for GroupNormalization, of unknown shape; for
//! Hardmax, of an unknown size) are not. Hardmax's iota along the axis
//! is built at the axis's run-time size when it is symbolic
//! (`Builder::iota`).

use super::builder::{Builder, Size};
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// Expands RMSNormalization-23 (every axis, epsilon and stash type).
pub(super) fn rms_normalization(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, scale) = (b.input(0)?, b.input(1)?);
    let elem = b.elem(x)?;
    let rank = b.rank(x)? as i64;
    let axis = b.int_attr("axis").unwrap_or(-1);
    let axis = if axis < 0 { axis + rank } else { axis };
    if !(0..rank).contains(&axis) {
        return None;
    }
    let stash = ElemType::from_onnx(i32::try_from(b.int_attr("stash_type").unwrap_or(1)).ok()?)?;
    let wide = b.cast(x, stash)?;
    let square = b.binary(Mul, wide, wide)?;
    let axes: Vec<i64> = (axis..rank).collect();
    let mean = b.reduce(ReduceMean, square, &axes, true)?;
    let epsilon = b.scalar(stash, f64::from(b.float_attr("epsilon").unwrap_or(1e-5)))?;
    let shifted = b.binary(Add, mean, epsilon)?;
    let rms = b.unary(Sqrt, shifted)?;
    let normalized = b.binary(Div, wide, rms)?;
    let narrow = b.cast(normalized, elem)?;
    Some(vec![Some(b.binary(Mul, narrow, scale)?)])
}

/// Expands LpNormalization: `x / Lp(x, axis)`, 0 where the norm is 0.
pub(super) fn lp_normalization(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let reduce = match b.int_attr("p").unwrap_or(2) {
        1 => ReduceL1,
        2 => ReduceL2,
        _ => return None,
    };
    let norm = b.reduce(reduce, x, &[b.int_attr("axis").unwrap_or(-1)], true)?;
    let zero = b.scalar(elem, 0.0)?;
    let is_zero = b.binary(Equal, norm, zero)?;
    let scaled = b.binary(Div, x, norm)?;
    Some(vec![Some(b.select(is_zero, zero, scaled)?)])
}

/// Expands MeanVarianceNormalization (9, 13):
/// `(x - E[x]) / (sqrt(E[x²] - E[x]²) + 1e-9)` over `axes`.
pub(super) fn mean_variance_normalization(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let axes = match b.attr("axes") {
        Some(Attr::Ints(axes)) => axes,
        _ => vec![0, 2, 3],
    };
    let mean = b.reduce(ReduceMean, x, &axes, true)?;
    let mean_squared = b.binary(Mul, mean, mean)?;
    let square = b.binary(Mul, x, x)?;
    let mean_of_square = b.reduce(ReduceMean, square, &axes, true)?;
    let variance = b.binary(Sub, mean_of_square, mean_squared)?;
    let std = b.unary(Sqrt, variance)?;
    let epsilon = b.scalar(elem, 1e-9)?;
    let std = b.binary(Add, std, epsilon)?;
    let centered = b.binary(Sub, x, mean)?;
    Some(vec![Some(b.binary(Div, centered, std)?)])
}

/// Expands GroupNormalization-21: the channels of `x` `[N, C, …]` in
/// `num_groups` groups, each normalized to `(x - mean) / sqrt(var +
/// epsilon)` (in `stash_type`), then `· scale[c] + bias[c]`. The
/// per-group scale and bias of GroupNormalization-18 are not handled.
pub(super) fn group_normalization(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.target().version < 21 {
        return None;
    }
    let (x, scale, bias) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let elem = b.elem(x)?;
    let dims = b.dims(x)?;
    let groups = b.int_attr("num_groups")?;
    let stash = ElemType::from_onnx(i32::try_from(b.int_attr("stash_type").unwrap_or(1)).ok()?)?;
    let wide = b.cast(x, stash)?;
    let grouped = b.reshape(wide, &[0, groups, -1])?;
    let mean = b.reduce(ReduceMean, grouped, &[2], true)?;
    let centered = b.binary(Sub, grouped, mean)?;
    let square = b.binary(Mul, centered, centered)?;
    let variance = b.reduce(ReduceMean, square, &[2], true)?;
    let epsilon = b.scalar(stash, f64::from(b.float_attr("epsilon").unwrap_or(1e-5)))?;
    let shifted = b.binary(Add, variance, epsilon)?;
    let std = b.unary(Sqrt, shifted)?;
    let normalized = b.binary(Div, centered, std)?;
    let normalized = b.reshape(normalized, &dims)?;
    let normalized = b.cast(normalized, elem)?;
    let spatial: Vec<i64> = (1..dims.len() as i64 - 1).collect();
    let scale = b.squeeze_like(Unsqueeze, scale, &spatial)?;
    let bias = b.squeeze_like(Unsqueeze, bias, &spatial)?;
    let scaled = b.binary(Mul, normalized, scale)?;
    Some(vec![Some(b.binary(Add, scaled, bias)?)])
}

/// Expands BatchNormalization-14 and -15 with `training_mode` = 1: the
/// batch statistics normalize `x`, and the running statistics are the
/// inputs' moved towards them by `1 - momentum`. The inference form (and
/// the older versions) stay as they are.
pub(super) fn batch_normalization_training(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.target().version < 14 || b.int_attr("training_mode").unwrap_or(0) == 0 {
        return None;
    }
    let (x, scale, bias) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let (mean_in, var_in) = (b.input(3)?, b.input(4)?);
    let elem = b.elem(x)?;
    let rank = b.rank(x)? as i64;
    if rank < 2 {
        return None;
    }
    let axes: Vec<i64> = (0..rank).filter(|&a| a != 1).collect();
    let spatial: Vec<i64> = (1..rank - 1).collect();
    let mean = b.reduce(ReduceMean, x, &axes, true)?;
    let centered = b.binary(Sub, x, mean)?;
    let square = b.binary(Mul, centered, centered)?;
    let var = b.reduce(ReduceMean, square, &axes, true)?;
    let epsilon = b.scalar(elem, f64::from(b.float_attr("epsilon").unwrap_or(1e-5)))?;
    let shifted = b.binary(Add, var, epsilon)?;
    let std = b.unary(Sqrt, shifted)?;
    let normalized = b.binary(Div, centered, std)?;
    let scale = b.cast(scale, elem)?;
    let bias = b.cast(bias, elem)?;
    let scale = b.squeeze_like(Unsqueeze, scale, &spatial)?;
    let bias = b.squeeze_like(Unsqueeze, bias, &spatial)?;
    let scaled = b.binary(Mul, normalized, scale)?;
    let y = b.binary(Add, scaled, bias)?;
    let momentum = f64::from(b.float_attr("momentum").unwrap_or(0.9));
    let mut results = vec![Some(y)];
    for (i, (batch, running)) in [(mean, mean_in), (var, var_in)].into_iter().enumerate() {
        if !b.wants_result(i + 1) {
            results.push(None);
            continue;
        }
        let stat_elem = b.elem(running)?;
        let flat = b.reshape(batch, &[-1])?;
        let flat = b.cast(flat, stat_elem)?;
        let keep = b.scalar(stat_elem, momentum)?;
        let moved = b.scalar(stat_elem, 1.0 - momentum)?;
        let kept = b.binary(Mul, running, keep)?;
        let added = b.binary(Mul, flat, moved)?;
        results.push(Some(b.binary(Add, kept, added)?));
    }
    Some(results)
}

/// Expands Hardmax-13: 1 at the first maximum along `axis`, 0 elsewhere,
/// as `Cast(ArgMax(x, axis) == iota(axis))`. The 2-D coercion of
/// Hardmax-1 and -11 is not handled.
pub(super) fn hardmax(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if b.target().version < 13 {
        return None;
    }
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let rank = b.sym_dims(x)?.len() as i64;
    let axis = b.int_attr("axis").unwrap_or(-1);
    let axis = if axis < 0 { axis + rank } else { axis };
    let len = b.size(x, usize::try_from(axis).ok()?)?;
    let first = ("select_last_index", Attr::Int(0));
    let arg = b.op(
        ArgMax,
        &[x],
        &[("axis", Attr::Int(axis)), ("keepdims", Attr::Int(1)), first],
    )?;
    // `0, 1, …` along `axis`, 1 along the other dims.
    let iota = match len {
        Size::Fixed(n) => {
            let mut dims = vec![1; rank as usize];
            dims[axis as usize] = n;
            let iota: Vec<i64> = (0..n).collect();
            b.constant(TensorData::from_vec(dims, &iota).ok()?)?
        }
        Size::Of(..) => {
            let mut dims = vec![Size::Fixed(1); rank as usize];
            dims[axis as usize] = len;
            let iota = b.iota(len)?;
            let shape = b.size_vector(&dims)?;
            b.op(Reshape, &[iota, shape], &[])?
        }
    };
    let hot = b.binary(Equal, arg, iota)?;
    Some(vec![Some(b.cast(hot, elem)?)])
}
