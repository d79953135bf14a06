//! MaxPool's `Indices` output (8–22) and MaxUnpool (9–22).
//!
//! The lowering computes MaxPool's values; when the `Indices` result is
//! used, the op is expanded instead. Each of the kernel's `K` offsets
//! gathers, for every output position, the input element it covers from
//! the input flattened over its spatial dims (`[N, C, P]`, one `-inf` pad
//! element appended for positions outside the input); a running
//! comparison keeps the first largest value and its index, as the
//! reference's scan in kernel order does:
//!
//! ```text
//! v_k   = Gather(Concat(Reshape(X, [N, C, P]), -inf), G_k, axis 2)   [N, C, O]
//! best  = v_0;  at = I_0
//! best, at = Where(v_k > best, (v_k, I_k), (best, at))           k = 1 … K-1
//! Indices = at + (n·C + c)·P
//! ```
//!
//! `G_k` and `I_k` are compile-time constants: the gathered position and
//! its index within the channel, row-major (`storage_order = 0`) or with
//! the spatial dims column-major (`storage_order = 1`). Only the begin pads
//! matter (`pads`, or the ones `auto_pad = SAME_*` implies); the end of the
//! window is wherever the declared output size puts it (`ceil_mode`).
//!
//! MaxUnpool scatters `X` into zeros of the shape MaxPool's input had
//! (`(in − 1)·stride − pads + kernel` per spatial dim), at the flat
//! indices given; an `output_shape` larger than that pads at the end, as
//! the reference does:
//!
//! ```text
//! Y = Pad(Reshape(ScatterElements(zeros[total], Flatten(I), Flatten(X)), inferred), end)
//! ```
//!
//! Not handled (the op stays): non-static shapes, non-float values (MaxPool),
//! kernels of more than [`MAX_OFFSETS`] positions.

use super::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// The largest kernel (positions) unrolled.
const MAX_OFFSETS: i64 = 256;

/// Expands MaxPool when its `Indices` result is used.
pub(super) fn max_pool(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    if !b.wants_result(1) {
        return None;
    }
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    if !matches!(elem, ElemType::F16 | ElemType::F32 | ElemType::F64) {
        return None;
    }
    let dims = b.dims(x)?;
    let result = b.target().results.first().copied().flatten()?;
    let out = b.dims(result)?;
    let spatial = dims.len().checked_sub(2).filter(|&s| s > 0)?;
    let (n, c) = (dims[0], dims[1]);
    let (inner, outer) = (&dims[2..], &out[2..]);
    let kernel = b.int_list("kernel_shape")?;
    let ones = vec![1; spatial];
    let strides = b.int_list("strides").unwrap_or_else(|| ones.clone());
    let dilations = b.int_list("dilations").unwrap_or(ones);
    if kernel.len() != spatial || strides.len() != spatial || dilations.len() != spatial {
        return None;
    }
    let begin: Vec<i64> = match b.string_attr("auto_pad").as_deref() {
        None | Some("NOTSET") => {
            let pads = b.int_list("pads").unwrap_or_else(|| vec![0; 2 * spatial]);
            pads.get(..spatial)?.to_vec()
        }
        Some("VALID") => vec![0; spatial],
        Some(mode) => (0..spatial)
            .map(|i| {
                let extent = (outer[i] - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1;
                let total = (extent - inner[i]).max(0);
                if mode == "SAME_LOWER" {
                    total - total / 2
                } else {
                    total / 2
                }
            })
            .collect(),
    };
    let column_major = b.int_attr("storage_order").unwrap_or(0) != 0;
    let positions: i64 = inner.iter().product();
    let outputs: i64 = outer.iter().product();
    let offsets: i64 = kernel.iter().product();
    if offsets > MAX_OFFSETS || positions <= 0 || outputs <= 0 {
        return None;
    }
    // Strides of a position's flat index in the channel: row-major for
    // gathering, and in the requested storage order for the result.
    let row_major = flat_strides(inner.iter().copied());
    let mut stored = flat_strides(inner.iter().rev().copied());
    stored.reverse();
    let stored = if column_major {
        stored
    } else {
        row_major.clone()
    };

    let flat = b.reshape(x, &[n, c, positions])?;
    let pad = b.floats(
        elem,
        vec![n, c, 1],
        &vec![f64::NEG_INFINITY; (n * c) as usize],
    )?;
    let padded = b.op(Concat, &[flat, pad], &[("axis", Attr::Int(2))])?;
    let mut best: Option<(Value, Value)> = None;
    for k in 0..offsets {
        let offset = unravel(k, &kernel);
        let (mut gather, mut index) = (vec![], vec![]);
        for o in 0..outputs {
            let at = unravel(o, outer);
            let mut inside = true;
            let (mut g, mut s) = (0, 0);
            for i in 0..spatial {
                let p = at[i] * strides[i] - begin[i] + offset[i] * dilations[i];
                inside &= (0..inner[i]).contains(&p);
                g += p * row_major[i];
                s += p * stored[i];
            }
            gather.push(if inside { g } else { positions });
            index.push(if inside { s } else { -1 });
        }
        let gather = b.ints(&gather)?;
        let values = b.op(Gather, &[padded, gather], &[("axis", Attr::Int(2))])?;
        let index = b.ints(&index)?;
        best = Some(match best {
            None => (values, index),
            Some((v, i)) => {
                let better = b.binary(Greater, values, v)?;
                (b.select(better, values, v)?, b.select(better, index, i)?)
            }
        });
    }
    let (values, index) = best?;
    let bases: Vec<i64> = (0..n * c).map(|nc| nc * positions).collect();
    let bases = b.constant(TensorData::from_vec(vec![n, c, 1], &bases).ok()?)?;
    let index = b.binary(Add, index, bases)?;
    let y = b.reshape(values, &out)?;
    let indices = b.reshape(index, &out)?;
    Some(vec![Some(y), Some(indices)])
}

/// Row-major strides of a flat index over `dims`.
fn flat_strides(dims: impl DoubleEndedIterator<Item = i64>) -> Vec<i64> {
    let mut strides: Vec<i64> = dims
        .rev()
        .scan(1, |acc, d| {
            let s = *acc;
            *acc *= d;
            Some(s)
        })
        .collect();
    strides.reverse();
    strides
}

/// The multi-index of flat index `i` over `dims`, row-major.
fn unravel(mut i: i64, dims: &[i64]) -> Vec<i64> {
    let mut at = vec![0; dims.len()];
    for (a, &d) in at.iter_mut().zip(dims).rev() {
        *a = i % d;
        i /= d;
    }
    at
}

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
    let zero = super::float_data(elem, vec![1], &[0.0])?;
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
