//! Dropout at inference: the identity, with an all-true mask.
//!
//! ```text
//! Dropout(x) = (x, ConstantOfShape(Shape(x), 1))   when not training
//! ```
//!
//! Dropout-7 to -11 are always in inference mode; Dropout-1 to -6 when
//! their `is_test` attribute is 1; Dropout-12 on when its `training_mode`
//! input is absent or a constant false. Training draws random numbers and
//! is not expanded. The mask is of the mask result's declared type (bool since
//! Dropout-10, the input's type before).

use bytes::Bytes;

use super::Builder;
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
        _ => b.input(2).is_none_or(|t| b.known(t).is_some_and(|v| v == [0])),
    };
    if !keeps_all {
        return None;
    }
    let output = b.unary(Identity, x)?;
    if !b.wants_result(1) {
        return Some(vec![Some(output)]);
    }
    let mask_elem = b.result_elem(1).unwrap_or(ElemType::Bool);
    let one = if mask_elem == ElemType::Bool {
        TensorData::from_raw(ElemType::Bool, vec![1], Bytes::from_static(&[1])).ok()?
    } else {
        super::float_data(mask_elem, vec![1], &[1.0])?
    };
    let shape = b.unary(Shape, x)?;
    let mask = b.op(ConstantOfShape, &[shape], &[("value", Attr::Tensor(one))])?;
    Some(vec![Some(output), Some(mask)])
}
