//! Normalizations the lowering has no kernel for: RMSNormalization
//! (ai.onnx 23).
//!
//! ```text
//! RMSNormalization(X, scale) = Cast(x / sqrt(ReduceMean(x², axes) + epsilon), T) · scale
//!   with x = Cast(X, stash_type), axes = [axis, rank)
//! ```
//!
//! Every axis and epsilon is handled; X of unknown rank is not.

use super::Builder;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::types::ElemType;

/// Expands RMSNormalization.
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
