//! `ai.onnx.ml` ops that are plain tensor ops in disguise:
//!
//! ```text
//! Binarizer(x)                = Cast(x > threshold, type of x)
//! ArrayFeatureExtractor(x, y) = Gather(x, Reshape(y, [-1]), axis = -1)
//!                               (with a leading 1 for a 1-D x)
//! ```

use super::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// Expands Binarizer over float, double, int32 and int64 inputs.
pub(super) fn binarizer(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let threshold = f64::from(b.float_attr("threshold")?);
    let threshold = match elem {
        ElemType::I64 => b.constant(TensorData::scalar(threshold as i64))?,
        ElemType::I32 => b.constant(TensorData::scalar(threshold as i32))?,
        e if e.is_float() => b.scalar(e, threshold)?,
        _ => return None,
    };
    let above = b.binary(Greater, x, threshold)?;
    Some(vec![Some(b.cast(above, elem)?)])
}

/// Expands ArrayFeatureExtractor: the entries of the last axis that the
/// (flattened) indices pick.
pub(super) fn array_feature_extractor(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let indices = b.input(1)?;
    let indices = if b.rank(indices)? == 1 {
        indices
    } else {
        b.reshape(indices, &[-1])?
    };
    let picked = b.op(Gather, &[x, indices], &[("axis", Attr::Int(-1))])?;
    let picked = if b.rank(x)? == 1 {
        b.squeeze_like(Unsqueeze, picked, &[0])?
    } else {
        picked
    };
    Some(vec![Some(picked)])
}
