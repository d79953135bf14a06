//! Host kernels for the operators whose result shapes depend on the input
//! values: compiled code needs every result size before it runs, so these
//! run here, whatever their element types.
//!
//! | op | computes | handled |
//! |---|---|---|
//! | `NonZero` (9, 13) | the coordinates of the non-zero elements, `[rank, n]` int64 in row-major order | strings (non-empty is non-zero) and every fixed-width type of a byte or more; NaN is non-zero, `-0.0` zero; a scalar counts as shape `[1]` (as onnxruntime) |
//! | `Unique` (11) | the distinct elements (or slices along `axis`), their first indices, the inverse indices and the counts | `sorted` 0/1, `axis` (negative too), strings (byte order) and every fixed-width type of a byte or more; NaNs are one value, `-0.0` equals `0.0` (numpy's `unique`) |
//! | `NonMaxSuppression` (10, 11) | greedy selection of boxes per batch and class by descending score, dropping boxes whose IoU with a selected one exceeds the threshold | `center_point_box` 0/1, optional `max_output_boxes_per_class` (absent: 0), `iou_threshold`, `score_threshold` (strict `>`); float boxes and scores; `[n, 3]` int64 |

use std::cmp::Ordering;

use half::{bf16, f16};
use onnx_mlc_dialect::{ElemType, OpKind};

use crate::element::TensorElement;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::value::{StringTensor, Value};

use super::operand::{invalid, mismatch, optional, required, tensor, unsupported};
use super::HostOp;

/// Calls `$f::<T>(op, slice, $args…)` with the tensor's values typed by its
/// element type; sub-byte and float8 types are refused.
macro_rules! typed {
    ($op:expr, $t:expr, $f:ident($($arg:expr),*)) => {
        match $t.elem() {
            ElemType::F32 => $f($op, $t.as_slice::<f32>()?, $($arg),*),
            ElemType::F64 => $f($op, $t.as_slice::<f64>()?, $($arg),*),
            ElemType::F16 => $f($op, $t.as_slice::<f16>()?, $($arg),*),
            ElemType::BF16 => $f($op, $t.as_slice::<bf16>()?, $($arg),*),
            ElemType::I8 => $f($op, $t.as_slice::<i8>()?, $($arg),*),
            ElemType::I16 => $f($op, $t.as_slice::<i16>()?, $($arg),*),
            ElemType::I32 => $f($op, $t.as_slice::<i32>()?, $($arg),*),
            ElemType::I64 => $f($op, $t.as_slice::<i64>()?, $($arg),*),
            ElemType::U8 => $f($op, $t.as_slice::<u8>()?, $($arg),*),
            ElemType::U16 => $f($op, $t.as_slice::<u16>()?, $($arg),*),
            ElemType::U32 => $f($op, $t.as_slice::<u32>()?, $($arg),*),
            ElemType::U64 => $f($op, $t.as_slice::<u64>()?, $($arg),*),
            ElemType::Bool => $f($op, $t.as_slice::<bool>()?, $($arg),*),
            other => Err(unsupported($op, format!("{other} elements are"))),
        }
    };
}

/// Whether this file has a kernel for `kind`.
pub(crate) fn handles(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::NonZero | OpKind::Unique | OpKind::NonMaxSuppression
    )
}

/// Runs one of the operators [`handles`] accepts.
pub(crate) fn run(op: &HostOp, inputs: &[Option<&Value>]) -> Result<Vec<Value>> {
    match op.op.kind {
        OpKind::NonZero => match required(op, inputs, 0)? {
            Value::Strings(x) => non_zero_of(op, &x.data, &x.shape),
            _ => {
                let x = tensor(op, inputs, 0)?;
                typed!(op, x, non_zero_of(x.shape()))
            }
        },
        OpKind::Unique => unique(op, required(op, inputs, 0)?),
        OpKind::NonMaxSuppression => non_max_suppression(op, inputs),
        _ => unreachable!("select::run called for {}", op.op),
    }
}

/// `NonZero` on typed values (`T::default()` is zero; for strings, the
/// empty string).
fn non_zero_of<T: PartialEq + Default>(
    _op: &HostOp,
    values: &[T],
    shape: &[i64],
) -> Result<Vec<Value>> {
    let shape = if shape.is_empty() { &[1][..] } else { shape };
    let hits: Vec<usize> = (0..values.len())
        .filter(|&i| values[i] != T::default())
        .collect();
    let mut coords = vec![0i64; shape.len() * hits.len()];
    for (n, &flat) in hits.iter().enumerate() {
        let mut rest = flat;
        for axis in (0..shape.len()).rev() {
            let d = shape[axis] as usize;
            coords[axis * hits.len() + n] = (rest % d) as i64;
            rest /= d;
        }
    }
    let result = Tensor::from_vec(vec![shape.len() as i64, hits.len() as i64], coords)?;
    Ok(vec![Value::Tensor(result)])
}

/// A total order for `Unique`: the values' order, with NaN after every
/// number and equal to itself.
fn total_cmp<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    #[allow(clippy::eq_op)] // `x != x` is the generic NaN test.
    let nan = |x: &T| x != x;
    a.partial_cmp(b).unwrap_or_else(|| nan(a).cmp(&nan(b)))
}

/// The distinct slices of a `Unique` and where each input slice went.
struct Groups {
    /// For each output slice, the input slice it is (its first occurrence).
    first: Vec<usize>,
    /// For each input slice, its output slice.
    inverse: Vec<i64>,
    /// For each output slice, how many input slices equal it.
    counts: Vec<i64>,
}

/// Groups the `n` slices of `values` (viewed as `[outer, n, inner]`)
/// that are equal, in sorted order or in order of first occurrence.
fn group<T: PartialOrd>(
    _op: &HostOp,
    values: &[T],
    [outer, n, inner]: [usize; 3],
    sorted: bool,
) -> Result<Groups> {
    let cmp = |&i: &usize, &j: &usize| {
        (0..outer)
            .flat_map(|o| (0..inner).map(move |k| (o * n * inner, k)))
            .map(|(base, k)| {
                total_cmp(&values[base + i * inner + k], &values[base + j * inner + k])
            })
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    };
    let mut order: Vec<usize> = (0..n).collect();
    // Stable: within a run of equal slices, the first occurrence comes first.
    order.sort_by(|i, j| cmp(i, j));
    // (start in `order`, length) of each run of equal slices.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (pos, i) in order.iter().enumerate() {
        match runs.last_mut() {
            Some((start, len)) if cmp(&order[*start], i).is_eq() => *len += 1,
            _ => runs.push((pos, 1)),
        }
    }
    if !sorted {
        runs.sort_by_key(|&(start, _)| order[start]);
    }
    let mut inverse = vec![0i64; n];
    for (slot, &(start, len)) in runs.iter().enumerate() {
        for &i in &order[start..start + len] {
            inverse[i] = slot as i64;
        }
    }
    Ok(Groups {
        first: runs.iter().map(|&(start, _)| order[start]).collect(),
        inverse,
        counts: runs.iter().map(|&(_, len)| len as i64).collect(),
    })
}

/// The elements of the slices `picks` of `values` (viewed as `[outer, n,
/// inner]`), in that order: `values[:, picks, :]`.
fn gather_slices<T: Clone>(values: &[T], [outer, n, inner]: [usize; 3], picks: &[usize]) -> Vec<T> {
    let mut out = Vec::with_capacity(outer * picks.len() * inner);
    for o in 0..outer {
        for &i in picks {
            out.extend_from_slice(&values[(o * n + i) * inner..][..inner]);
        }
    }
    out
}

/// `Unique`: see the module docs.
fn unique(op: &HostOp, x: &Value) -> Result<Vec<Value>> {
    let sorted = op.attrs.int("sorted").unwrap_or(1) != 0;
    let shape: &[i64] = match x {
        Value::Strings(s) => &s.shape,
        Value::Tensor(t) => t.shape(),
        other => {
            return Err(invalid(
                op,
                format!("the input must be a tensor, got {}", other.kind()),
            ))
        }
    };
    let rank = shape.len() as i64;
    let axis = match op.attrs.int("axis") {
        None => None,
        Some(a) if (-rank..rank).contains(&a) => Some(a.rem_euclid(rank) as usize),
        Some(a) => {
            return Err(invalid(
                op,
                format!("axis {a} is out of range for rank {rank}"),
            ));
        }
    };
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let split = match axis {
        None => [1, dims.iter().product(), 1],
        Some(a) => [
            dims[..a].iter().product(),
            dims[a],
            dims[a + 1..].iter().product(),
        ],
    };
    let groups = match x {
        Value::Strings(s) => group(op, &s.data, split, sorted)?,
        _ => {
            let t = tensor(op, &[Some(x)], 0)?;
            typed!(op, t, group(split, sorted))?
        }
    };
    let k = groups.first.len() as i64;
    let y_shape = match axis {
        None => vec![k],
        Some(a) => {
            let mut s = shape.to_vec();
            s[a] = k;
            s
        }
    };
    let y = match x {
        Value::Strings(s) => Value::Strings(StringTensor {
            shape: y_shape,
            data: gather_slices(&s.data, split, &groups.first),
        }),
        _ => {
            let t = tensor(op, &[Some(x)], 0)?;
            // Whole elements as byte chunks: sub-byte types were refused.
            let width = t.elem().bit_width() as usize / 8;
            let chunks: Vec<&[u8]> = t.as_bytes().chunks_exact(width).collect();
            let bytes = gather_slices(&chunks, split, &groups.first).concat();
            Value::Tensor(Tensor::from_bytes(t.elem(), &y_shape, &bytes)?)
        }
    };
    let n = split[1] as i64;
    let mut results = vec![
        y,
        Value::Tensor(Tensor::from_vec(
            vec![k],
            groups.first.iter().map(|&i| i as i64).collect(),
        )?),
        Value::Tensor(Tensor::from_vec(vec![n], groups.inverse)?),
        Value::Tensor(Tensor::from_vec(vec![k], groups.counts)?),
    ];
    results.truncate(op.results.len());
    Ok(results)
}

/// A box as `[min x, min y, max x, max y]`.
fn corners(b: &[f32], center_point_box: bool) -> [f32; 4] {
    if center_point_box {
        let (hw, hh) = (b[2] / 2.0, b[3] / 2.0);
        [b[0] - hw, b[1] - hh, b[0] + hw, b[1] + hh]
    } else {
        // [y1, x1, y2, x2], either corner first.
        [
            b[1].min(b[3]),
            b[0].min(b[2]),
            b[1].max(b[3]),
            b[0].max(b[2]),
        ]
    }
}

/// Whether two boxes overlap by more than `threshold` (intersection over
/// union); degenerate boxes never do.
fn overlaps(a: [f32; 4], b: [f32; 4], threshold: f32) -> bool {
    let (x0, x1) = (a[0].max(b[0]), a[2].min(b[2]));
    let (y0, y1) = (a[1].max(b[1]), a[3].min(b[3]));
    if x1 <= x0 || y1 <= y0 {
        return false;
    }
    let intersection = (x1 - x0) * (y1 - y0);
    let area_a = (a[2] - a[0]) * (a[3] - a[1]);
    let area_b = (b[2] - b[0]) * (b[3] - b[1]);
    let union = area_a + area_b - intersection;
    if intersection <= 0.0 || area_a <= 0.0 || area_b <= 0.0 || union <= 0.0 {
        return false;
    }
    intersection / union > threshold
}

/// The first value of an optional scalar input of type `T`.
fn scalar_input<T: TensorElement>(
    op: &HostOp,
    inputs: &[Option<&Value>],
    i: usize,
) -> Result<Option<T>> {
    if optional(inputs, i).is_none() {
        return Ok(None);
    }
    let t = tensor(op, inputs, i)?;
    let values = t
        .as_slice::<T>()
        .map_err(|e| invalid(op, format!("input {i}: {e}")))?;
    Ok(values.first().copied())
}

/// `NonMaxSuppression`: see the module docs.
fn non_max_suppression(op: &HostOp, inputs: &[Option<&Value>]) -> Result<Vec<Value>> {
    let (boxes, scores) = (tensor(op, inputs, 0)?, tensor(op, inputs, 1)?);
    let (Ok(box_data), Ok(score_data)) = (boxes.as_slice::<f32>(), scores.as_slice::<f32>()) else {
        return Err(invalid(op, "boxes and scores must be float tensors"));
    };
    let (&[batches, n, 4], &[score_batches, classes, score_n]) = (boxes.shape(), scores.shape())
    else {
        return Err(invalid(
            op,
            format!(
                "boxes must be [batches, boxes, 4] and scores [batches, classes, boxes], got {:?} and {:?}",
                boxes.shape(),
                scores.shape()
            ),
        ));
    };
    if (score_batches, score_n) != (batches, n) {
        return Err(mismatch(
            op,
            format!(
                "boxes {:?} and scores {:?} disagree",
                boxes.shape(),
                scores.shape()
            ),
        ));
    }
    let (batches, classes, n) = (batches as usize, classes as usize, n as usize);
    let max_per_class = scalar_input::<i64>(op, inputs, 2)?.unwrap_or(0).max(0) as usize;
    let iou_threshold = scalar_input::<f32>(op, inputs, 3)?.unwrap_or(0.0);
    let score_threshold = scalar_input::<f32>(op, inputs, 4)?;
    let center_point_box = match op.attrs.int("center_point_box").unwrap_or(0) {
        0 => false,
        1 => true,
        other => {
            return Err(invalid(
                op,
                format!("center_point_box must be 0 or 1, got {other}"),
            ))
        }
    };
    let mut selected: Vec<i64> = Vec::new();
    for b in 0..batches {
        let batch_boxes: Vec<[f32; 4]> = (0..n)
            .map(|i| corners(&box_data[(b * n + i) * 4..][..4], center_point_box))
            .collect();
        for c in 0..classes {
            let class_scores = &score_data[(b * classes + c) * n..][..n];
            let mut candidates: Vec<usize> = (0..n)
                .filter(|&i| score_threshold.is_none_or(|t| class_scores[i] > t))
                .collect();
            // Descending score, ties by ascending index (stable sort).
            candidates.sort_by(|&i, &j| total_cmp(&class_scores[j], &class_scores[i]));
            let mut kept: Vec<usize> = Vec::new();
            for i in candidates {
                if kept.len() >= max_per_class {
                    break;
                }
                if kept
                    .iter()
                    .all(|&k| !overlaps(batch_boxes[i], batch_boxes[k], iou_threshold))
                {
                    kept.push(i);
                    selected.extend([b as i64, c as i64, i as i64]);
                }
            }
        }
    }
    let rows = selected.len() as i64 / 3;
    Ok(vec![Value::Tensor(Tensor::from_vec(
        vec![rows, 3],
        selected,
    )?)])
}

#[cfg(test)]
mod tests {
    use onnx_mlc_dialect::Attr;

    use super::*;
    use crate::host::operand::test_op as op;
    use crate::host::run as run_host;

    fn t<T: TensorElement>(shape: &[i64], values: &[T]) -> Value {
        Value::Tensor(Tensor::from_slice(shape, values).unwrap())
    }

    fn run(op: &HostOp, inputs: &[Option<Value>]) -> Vec<Value> {
        let inputs: Vec<Option<&Value>> = inputs.iter().map(Option::as_ref).collect();
        run_host(op, &inputs).unwrap()
    }

    fn vals<T: TensorElement>(v: &Value) -> (Vec<i64>, Vec<T>) {
        let Value::Tensor(t) = v else {
            panic!("not a tensor: {v:?}")
        };
        (t.shape().to_vec(), t.to_vec::<T>().unwrap())
    }

    // Expected values below come from the ONNX reference evaluator
    // (onnx 1.23.2); onnxruntime agrees unless a comment says otherwise.

    #[test]
    fn non_zero() {
        let nz = op(OpKind::NonZero, 13, 1, vec![]);
        let out = run(&nz, &[Some(t(&[2, 2], &[true, false, true, true]))]);
        assert_eq!(vals::<i64>(&out[0]), (vec![2, 3], vec![0, 1, 1, 0, 0, 1]));
        let out = run(
            &nz,
            &[Some(t(&[2, 3], &[0.0f32, -0.0, f32::NAN, 3.0, 0.0, -1.0]))],
        );
        assert_eq!(vals::<i64>(&out[0]), (vec![2, 3], vec![0, 1, 1, 2, 0, 2]));
        let out = run(&nz, &[Some(t(&[0, 3], &[] as &[i32]))]);
        assert_eq!(vals::<i64>(&out[0]), (vec![2, 0], vec![]));
        // A scalar: onnxruntime's [1, n] (numpy refuses 0-d input).
        let out = run(&nz, &[Some(t(&[], &[5u8]))]);
        assert_eq!(vals::<i64>(&out[0]), (vec![1, 1], vec![0]));
    }

    #[test]
    fn unique_without_axis() {
        let x = [2.0f32, 1.0, 1.0, 3.0, 4.0, 3.0];
        let sorted = run(&op(OpKind::Unique, 11, 4, vec![]), &[Some(t(&[6], &x))]);
        assert_eq!(vals::<f32>(&sorted[0]), (vec![4], vec![1.0, 2.0, 3.0, 4.0]));
        assert_eq!(vals::<i64>(&sorted[1]).1, vec![1, 0, 3, 4]);
        assert_eq!(vals::<i64>(&sorted[2]), (vec![6], vec![1, 0, 0, 2, 3, 2]));
        assert_eq!(vals::<i64>(&sorted[3]).1, vec![2, 1, 2, 1]);
        let unsorted = run(
            &op(OpKind::Unique, 11, 4, vec![("sorted", Attr::Int(0))]),
            &[Some(t(&[6], &x))],
        );
        assert_eq!(vals::<f32>(&unsorted[0]).1, vec![2.0, 1.0, 3.0, 4.0]);
        assert_eq!(vals::<i64>(&unsorted[1]).1, vec![0, 1, 3, 4]);
        assert_eq!(vals::<i64>(&unsorted[2]).1, vec![0, 1, 1, 2, 3, 2]);
        assert_eq!(vals::<i64>(&unsorted[3]).1, vec![1, 2, 2, 1]);
        let b: Vec<bf16> = x.iter().map(|&v| bf16::from_f32(v)).collect();
        let out = run(&op(OpKind::Unique, 11, 1, vec![]), &[Some(t(&[2, 3], &b))]);
        assert_eq!(out.len(), 1);
        assert_eq!(
            vals::<bf16>(&out[0]).1,
            [1.0, 2.0, 3.0, 4.0].map(bf16::from_f32)
        );
        // NaNs are one value, sorted last (numpy >= 1.21).
        let out = run(
            &op(OpKind::Unique, 11, 4, vec![]),
            &[Some(t(&[4], &[f64::NAN, 1.0, f64::NAN, -0.0]))],
        );
        let (_, y) = vals::<f64>(&out[0]);
        assert_eq!((y.len(), y[0], y[1]), (3, -0.0, 1.0));
        assert!(y[2].is_nan());
        assert_eq!(vals::<i64>(&out[3]).1, vec![1, 1, 2]);
        let out = run(
            &op(OpKind::Unique, 11, 4, vec![]),
            &[Some(t(&[0], &[] as &[i64]))],
        );
        assert_eq!(vals::<i64>(&out[0]).0, vec![0]);
    }

    #[test]
    fn strings() {
        let x = Value::Strings(
            StringTensor::new(
                vec![2, 2],
                ["b", "", "a", "b"].map(|s| s.as_bytes().to_vec()).to_vec(),
            )
            .unwrap(),
        );
        let out = run(&op(OpKind::NonZero, 13, 1, vec![]), &[Some(x.clone())]);
        assert_eq!(vals::<i64>(&out[0]), (vec![2, 3], vec![0, 1, 1, 0, 0, 1]));
        let out = run(&op(OpKind::Unique, 11, 4, vec![]), &[Some(x)]);
        let Value::Strings(y) = &out[0] else {
            panic!("not strings")
        };
        assert_eq!(y.data, ["", "a", "b"].map(|s| s.as_bytes().to_vec()));
        assert_eq!(vals::<i64>(&out[1]).1, vec![1, 2, 0]);
        assert_eq!(vals::<i64>(&out[2]).1, vec![2, 0, 1, 2]);
        assert_eq!(vals::<i64>(&out[3]).1, vec![1, 1, 2]);
    }

    #[test]
    fn unique_with_axis() {
        let x = [
            1.0f32, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0, 1.0,
        ];
        let out = run(
            &op(OpKind::Unique, 11, 4, vec![("axis", Attr::Int(1))]),
            &[Some(t(&[2, 4, 2], &x))],
        );
        assert_eq!(
            vals::<f32>(&out[0]),
            (
                vec![2, 3, 2],
                vec![0.0, 1.0, 1.0, 1.0, 2.0, 1.0, 0.0, 1.0, 1.0, 1.0, 2.0, 1.0]
            )
        );
        assert_eq!(vals::<i64>(&out[1]).1, vec![1, 0, 2]);
        assert_eq!(vals::<i64>(&out[2]).1, vec![1, 0, 2, 0]);
        assert_eq!(vals::<i64>(&out[3]).1, vec![2, 1, 1]);
        let x = [1.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 3.0, 3.0];
        let out = run(
            &op(OpKind::Unique, 11, 4, vec![("axis", Attr::Int(-1))]),
            &[Some(t(&[3, 3], &x))],
        );
        assert_eq!(
            vals::<f32>(&out[0]),
            (vec![3, 2], vec![0.0, 1.0, 0.0, 1.0, 3.0, 2.0])
        );
        assert_eq!(vals::<i64>(&out[1]).1, vec![1, 0]);
        assert_eq!(vals::<i64>(&out[2]).1, vec![1, 0, 0]);
        assert_eq!(vals::<i64>(&out[3]).1, vec![2, 1]);
        let err = run_host(
            &op(OpKind::Unique, 11, 4, vec![("axis", Attr::Int(2))]),
            &[Some(&t(&[3, 3], &x))],
        );
        assert!(err.unwrap_err().to_string().contains("Unique-11"));
    }

    fn nms(
        boxes: &[f32],
        scores: &[f32],
        shape: [i64; 3],
        max: i64,
        iou: f32,
        score: Option<f32>,
        center: i64,
    ) -> Vec<i64> {
        let [b, c, n] = shape;
        let op = op(
            OpKind::NonMaxSuppression,
            11,
            1,
            vec![("center_point_box", Attr::Int(center))],
        );
        let out = run(
            &op,
            &[
                Some(t(&[b, n, 4], boxes)),
                Some(t(&[b, c, n], scores)),
                Some(t(&[1], &[max])),
                Some(t(&[1], &[iou])),
                score.map(|s| t(&[1], &[s])),
            ],
        );
        let (shape, v) = vals::<i64>(&out[0]);
        assert_eq!(shape, vec![v.len() as i64 / 3, 3]);
        v
    }

    const BOXES: [f32; 24] = [
        0.0, 0.0, 1.0, 1.0, 0.0, 0.1, 1.0, 1.1, 0.0, -0.1, 1.0, 0.9, //
        0.0, 10.0, 1.0, 11.0, 0.0, 10.1, 1.0, 11.1, 0.0, 100.0, 1.0, 101.0,
    ];
    const SCORES: [f32; 6] = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3];

    #[test]
    fn non_max_suppression() {
        assert_eq!(
            nms(&BOXES, &SCORES, [1, 1, 6], 3, 0.5, Some(0.0), 0),
            vec![0, 0, 3, 0, 0, 0, 0, 0, 5]
        );
        assert_eq!(
            nms(&BOXES, &SCORES, [1, 1, 6], 2, 0.5, Some(0.0), 0),
            vec![0, 0, 3, 0, 0, 0]
        );
        assert_eq!(
            nms(&BOXES, &SCORES, [1, 1, 6], 3, 0.5, Some(0.4), 0),
            vec![0, 0, 3, 0, 0, 0]
        );
        let two_classes = [SCORES, SCORES].concat();
        assert_eq!(
            nms(&BOXES, &two_classes, [1, 2, 6], 2, 0.5, Some(0.0), 0),
            vec![0, 0, 3, 0, 0, 0, 0, 1, 3, 0, 1, 0]
        );
        let two_batches = [BOXES, BOXES].concat();
        assert_eq!(
            nms(&two_batches, &two_classes, [2, 1, 6], 2, 0.5, Some(0.0), 0),
            vec![0, 0, 3, 0, 0, 0, 1, 0, 3, 1, 0, 0]
        );
        let flipped = [
            1.0f32, 1.0, 0.0, 0.0, 0.0, 0.1, 1.0, 1.1, 0.0, 0.9, 1.0, -0.1, //
            0.0, 10.0, 1.0, 11.0, 1.0, 10.1, 0.0, 11.1, 1.0, 101.0, 0.0, 100.0,
        ];
        assert_eq!(
            nms(&flipped, &SCORES, [1, 1, 6], 3, 0.5, Some(0.0), 0),
            vec![0, 0, 3, 0, 0, 0, 0, 0, 5]
        );
        let centers = [
            0.5f32, 0.5, 1.0, 1.0, 0.5, 0.6, 1.0, 1.0, 0.5, 0.4, 1.0, 1.0, //
            0.5, 10.5, 1.0, 1.0, 0.5, 10.6, 1.0, 1.0, 0.5, 100.5, 1.0, 1.0,
        ];
        assert_eq!(
            nms(&centers, &SCORES, [1, 1, 6], 3, 0.5, Some(0.0), 1),
            vec![0, 0, 3, 0, 0, 0, 0, 0, 5]
        );
        // IoU exactly at the threshold (1/7) does not suppress.
        let pair = [0.0f32, 0.0, 1.0, 1.0, 0.5, 0.5, 1.5, 1.5];
        assert_eq!(
            nms(&pair, &[0.9, 0.8], [1, 1, 2], 3, 0.142_857_15, Some(0.0), 0),
            vec![0, 0, 0, 0, 0, 1]
        );
        // Identical boxes and scores: the lowest index wins.
        let same: Vec<f32> = (0..10).flat_map(|_| [0.0, 0.0, 1.0, 1.0]).collect();
        assert_eq!(
            nms(&same, &[0.9; 10], [1, 1, 10], 3, 0.5, Some(0.0), 0),
            vec![0, 0, 0]
        );
        // No score threshold: every box is a candidate; no max: nothing.
        assert_eq!(nms(&BOXES, &[-1.0; 6], [1, 1, 6], 6, 0.5, None, 0).len(), 9);
        assert_eq!(nms(&BOXES, &SCORES, [1, 1, 6], 0, 0.5, None, 0), vec![]);
    }

    #[test]
    fn non_max_suppression_rejects_bad_shapes() {
        let op = op(OpKind::NonMaxSuppression, 11, 1, vec![]);
        let boxes = t(&[1, 6, 4], &BOXES);
        let scores = t(&[1, 1, 5], &SCORES[..5]);
        let err = run_host(&op, &[Some(&boxes), Some(&scores)])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("NonMaxSuppression-11") && err.contains("disagree"),
            "{err}"
        );
    }
}
