//! Dropout: the identity with an all-true mask at inference, a random
//! mask in training.
//!
//! ```text
//! Dropout(x) = (x, ConstantOfShape(Shape(x), 1))     when not training
//! keep       = u ≥ ratio                              u uniform in [0, 1), random.rs
//! Dropout(x) = (Where(keep, x / (1 − ratio), 0), keep)   when training
//! ```
//!
//! Dropout-7 to -11 are always in inference mode; Dropout-1 to -6 when
//! their `is_test` attribute is 1; Dropout-12 on when its `training_mode`
//! input is absent or a constant false. Dropout-12 on with a training mode
//! known only at run time keeps every element (scale 1) where it is false.
//! The random numbers come from `random.rs` with the `seed` attribute.
//! The mask is of the mask result's declared type (bool since Dropout-10,
//! the input's type before).

use bytes::Bytes;

use super::builder::Builder;
use super::random::{key, uniform, Sizes};
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// Expands Dropout when it drops nothing.
pub(super) fn dropout(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let version = b.target().version;
    let keeps_all = match version {
        ..=6 => b.int_attr("is_test") == Some(1),
        7..=11 => true,
        _ => b
            .input(2)
            .is_none_or(|t| b.known(t).is_some_and(|v| v == [0])),
    };
    if !keeps_all {
        return if version >= 12 { training(b, x) } else { None };
    }
    let output = b.unary(Identity, x)?;
    if !b.wants_result(1) {
        return Some(vec![Some(output)]);
    }
    let mask_elem = b.result_elem(1).unwrap_or(ElemType::Bool);
    let one = if mask_elem == ElemType::Bool {
        TensorData::from_raw(ElemType::Bool, vec![1], Bytes::from_static(&[1])).ok()?
    } else {
        super::builder::float_data(mask_elem, vec![1], &[1.0])?
    };
    let shape = b.unary(Shape, x)?;
    let mask = b.op(ConstantOfShape, &[shape], &[("value", Attr::Tensor(one))])?;
    Some(vec![Some(output), Some(mask)])
}

/// Dropout-12+ in training mode (or with the mode known at run time only).
fn training(b: &mut Builder, x: Value) -> Option<Vec<Option<Value>>> {
    b.sym_dims(x)?;
    let elem = b.elem(x)?;
    let ratio = match b.input(1) {
        Some(r) => r,
        None => b.scalar(elem, 0.5)?,
    };
    let ratio = b.cast(ratio, elem)?;
    let key = key(b);
    let u = uniform(b, &Sizes::Of(x), elem, key)?;
    let mut keep = b.binary(GreaterOrEqual, u, ratio)?;
    let one = b.scalar(elem, 1.0)?;
    let kept = b.binary(Sub, one, ratio)?;
    let mut scale = b.binary(Div, one, kept)?;
    if let Some(mode) = b.input(2).filter(|&t| b.known(t).is_none()) {
        let mode = b.cast(mode, ElemType::Bool)?;
        let inference = b.unary(Not, mode)?;
        keep = b.binary(Or, keep, inference)?;
        scale = b.select(mode, scale, one)?;
    }
    let scaled = b.binary(Mul, x, scale)?;
    let zero = b.scalar(elem, 0.0)?;
    let output = b.select(keep, scaled, zero)?;
    if !b.wants_result(1) {
        return Some(vec![Some(output)]);
    }
    let mask_elem = b.result_elem(1).unwrap_or(ElemType::Bool);
    let mask = b.cast(keep, mask_elem)?;
    Some(vec![Some(output), Some(mask)])
}
