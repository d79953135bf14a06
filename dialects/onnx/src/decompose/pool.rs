//! MaxUnpool (9–22): `X` scattered into zeros of the shape MaxPool's
//! input had (`(in − 1)·stride − pads + kernel` per spatial dim), at the
//! flat indices given; an `output_shape` larger than that pads at the end,
//! as the reference does:
//!
//! ```text
//! Y = Pad(Reshape(ScatterElements(zeros[total], Flatten(I), Flatten(X)), inferred), end)
//! ```
//!
//! (MaxPool's `Indices` output is lowered directly, with its values:
//! `compiler/lowering/src/ops/conv.rs`.)
//!
//! Not handled (the op stays, and the lowering's loop stores each value:
//! `compiler/lowering/src/ops/conv/unpool.rs`): non-static shapes.

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::types::ElemType;

/// Expands MaxUnpool as described in the module docs.
pub(super) fn max_unpool(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, indices) = (b.input(0)?, b.input(1)?);
    let elem = b.elem(x)?;
    let dims = b.dims(x)?;
    let result = b.target().results.first().copied().flatten()?;
    let out = b.dims(result)?;
    let spatial = dims.len().checked_sub(2).filter(|&s| s > 0)?;
    let kernel = b.int_list("kernel_shape")?;
    let strides = b.int_list("strides").unwrap_or_else(|| vec![1; spatial]);
    let pads = b.int_list("pads").unwrap_or_else(|| vec![0; 2 * spatial]);
    if kernel.len() != spatial || strides.len() != spatial || pads.len() != 2 * spatial {
        return None;
    }
    let mut inferred = dims[..2].to_vec();
    inferred.extend(
        (0..spatial)
            .map(|i| (dims[i + 2] - 1) * strides[i] - pads[i] - pads[spatial + i] + kernel[i]),
    );
    if out.len() != inferred.len() || out.iter().zip(&inferred).any(|(o, i)| o < i) {
        return None;
    }
    let total: i64 = inferred.iter().product();
    let size = b.ints(&[total])?;
    let zero = super::builder::float_data(elem, vec![1], &[0.0])?;
    let zeros = b.op(ConstantOfShape, &[size], &[("value", Attr::Tensor(zero))])?;
    let flat_indices = b.reshape(indices, &[-1])?;
    let flat_indices = b.cast(flat_indices, ElemType::I64)?;
    let flat_x = b.reshape(x, &[-1])?;
    let scattered = b.op(
        ScatterElements,
        &[zeros, flat_indices, flat_x],
        &[("axis", Attr::Int(0))],
    )?;
    let y = b.reshape(scattered, &inferred)?;
    if out == inferred {
        return Some(vec![Some(y)]);
    }
    let mut end_pads = vec![0; inferred.len()];
    end_pads.extend(out.iter().zip(&inferred).map(|(o, i)| o - i));
    let end_pads = b.ints(&end_pads)?;
    Some(vec![Some(b.op(Pad, &[y, end_pads], &[])?)])
}
