//! Reductions and scans: ArgMax/ArgMin, the Reduce* family, CumSum/CumProd
//! and TopK.
//!
//! | op | computes | result shape | opsets |
//! |----|----------|--------------|--------|
//! | ArgMax / ArgMin | index of the extreme along `axis` (`select_last_index` from 12) | `axis` kept as 1 or dropped (`keepdims`), int64 | 1, 11, 12, 13 |
//! | ReduceSum | sum over `axes` | reduced axes kept as 1 or dropped; no axes = all, or none with `noop_with_empty_axes` | 1, 11 (attr), 13 (input) |
//! | ReduceL1/L2/LogSum/LogSumExp/Max/Mean/Min/Prod/SumSquare | the named reduction over `axes` | as ReduceSum | 1, 11, 12, 13 (attr), 18, 20, 28 (input) |
//! | CumSum / CumProd | running sum / product along the `axis` input | the input's | 11, 14 / 26 |
//! | TopK | the `k` largest/smallest along `axis`, and their indices | `axis` becomes `k` (attr in 1, input from 10) | 1, 10, 11, 24 |
//!
//! ReduceSum and ReduceProd of known integer vectors are propagated
//! (element counts computed from `Shape` outputs).

use super::operand::{input_name, ints_attr_or_input, static_len};
use crate::dim::Dim;
use crate::ops::ctx::{invalid, unknown, Fail, InferCtx};
use crate::ops::knowledge::SymTensor;
use crate::ops::shape::{fmt_dims, normalize_axis};
use crate::schema::{OpKind, ReduceOp};
use crate::types::ElemType;

pub(crate) fn infer(op: ReduceOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use ReduceOp::*;
    match op {
        ArgMax | ArgMin => arg_extreme(cx),
        ReduceL1 | ReduceL2 | ReduceLogSum | ReduceLogSumExp | ReduceMax | ReduceMean
        | ReduceMin | ReduceProd | ReduceSum | ReduceSumSquare => reduce(cx),
        CumSum | CumProd => cumulative(cx),
        TopK => top_k(cx),
    }
}

/// The dims left after reducing `axes` (sorted, in range) of `dims`.
fn reduced(dims: &[Dim], axes: &[usize], keepdims: bool) -> Vec<Dim> {
    dims.iter()
        .enumerate()
        .filter_map(|(i, d)| match axes.contains(&i) {
            false => Some(d.clone()),
            true if keepdims => Some(Dim::Known(1)),
            true => None,
        })
        .collect()
}

fn arg_extreme(cx: &mut InferCtx) -> Result<(), Fail> {
    let dims = cx.dims(0)?.to_vec();
    let axis = normalize_axis(cx.int("axis")?, dims.len())?;
    let keepdims = cx.int("keepdims")? != 0;
    cx.set_tensor(0, ElemType::I64, reduced(&dims, &[axis], keepdims));
    Ok(())
}

/// The version from which the reduction takes its axes as an input.
fn axes_input_since(kind: OpKind) -> u32 {
    if kind == OpKind::ReduceSum {
        13
    } else {
        18
    }
}

fn reduce(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = cx.dims(0)?.to_vec();
    let keepdims = cx.int("keepdims")? != 0;
    let noop = cx.int_opt("noop_with_empty_axes")?.unwrap_or(0) != 0;
    let axes = match ints_attr_or_input(cx, "axes", 1, axes_input_since(cx.kind())) {
        Ok(axes) => axes.unwrap_or_default(),
        // An `axes` input of no entries names none, whatever it holds.
        Err(_) if static_len(cx, 1) == Some(0) => vec![],
        Err(why) => {
            // Unknown axes: with keepdims the rank stays, else it drops by their count.
            let rank = if keepdims {
                Some(dims.len())
            } else {
                static_len(cx, 1).and_then(|n| dims.len().checked_sub(n))
            };
            match rank {
                Some(r) => cx.set_tensor(0, elem, vec![Dim::Unknown; r]),
                None => cx.set_unranked(0, elem),
            }
            return Err(why);
        }
    };
    if axes.is_empty() && noop {
        cx.set_tensor(0, elem, dims);
        if let Some(v) = cx.sym_input(0).cloned() {
            cx.set_value(0, v);
        }
        return Ok(());
    }
    let mut axes = axes
        .iter()
        .map(|&a| normalize_axis(a, dims.len()))
        .collect::<Result<Vec<_>, _>>()?;
    if axes.is_empty() {
        axes = (0..dims.len()).collect();
    }
    let out = reduced(&dims, &axes, keepdims);
    cx.set_tensor(0, elem, out.clone());
    reduce_value(cx, &out);
    Ok(())
}

/// Sums, multiplies or takes the maximum or minimum of a known vector
/// reduced to a single element (of sizes: [`Dim::max_of`] and
/// [`Dim::min_of`] compare them exactly).
fn reduce_value(cx: &mut InferCtx, out: &[Dim]) {
    type Fold = fn(&Dim, &Dim) -> Dim;
    let (fold, init): (Fold, Option<i64>) = match cx.kind() {
        OpKind::ReduceSum => (Dim::add, Some(0)),
        OpKind::ReduceProd => (Dim::mul, Some(1)),
        OpKind::ReduceMax => (Dim::max_of, None),
        OpKind::ReduceMin => (Dim::min_of, None),
        _ => return,
    };
    let Some(src) = cx.sym_input(0) else { return };
    if src.dims.len() > 1 || out.iter().any(|d| d != &Dim::Known(1)) {
        return;
    }
    // Max and Min of no elements have no integer value.
    let (init, rest) = match (init, src.elems.split_first()) {
        (Some(n), _) => (Dim::Known(n), &src.elems[..]),
        (None, Some((first, rest))) => (first.clone(), rest),
        (None, None) => return,
    };
    let total = rest.iter().fold(init, |acc, e| fold(&acc, e));
    if total != Dim::Unknown {
        let dims = vec![1; out.len()];
        cx.set_value(
            0,
            SymTensor {
                dims,
                elems: vec![total],
            },
        );
    }
}

fn cumulative(cx: &mut InferCtx) -> Result<(), Fail> {
    let t = cx.tensor(0)?.clone();
    if let Ok(d) = cx.dims(1) {
        if !d.is_empty() && !matches!(d, [Dim::Known(1)]) {
            return Err(invalid!(
                "'{}' must be a scalar, got shape {}",
                input_name(cx, 1),
                fmt_dims(d)
            ));
        }
    }
    if let (Some(rank), Some(axis)) = (t.rank(), cx.const_ints(1)) {
        if let [axis] = axis[..] {
            normalize_axis(axis, rank)?;
        }
    }
    cx.set_type(0, crate::types::Type::Tensor(t));
    Ok(())
}

fn top_k(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = cx.dims(0)?.to_vec();
    let axis = normalize_axis(cx.int("axis")?, dims.len())?;
    let k = if cx.version() < 10 {
        Some(Dim::Known(cx.int("k")?))
    } else {
        if let Ok(d) = cx.dims(1) {
            // A length known only at run time (symbolic) may be 1.
            if !matches!(d, [Dim::Known(1) | Dim::Unknown | Dim::Sym(_)]) {
                return Err(invalid!(
                    "'K' must be a one-element vector, got shape {}",
                    fmt_dims(d)
                ));
            }
        }
        cx.sym_vector(1).and_then(|v| v.first().cloned())
    };
    match &k {
        Some(Dim::Known(k)) if *k < 0 => return Err(invalid!("k = {k} is negative")),
        Some(Dim::Known(k)) if matches!(dims[axis], Dim::Known(d) if d < *k) => {
            return Err(invalid!(
                "k = {k} exceeds dim {axis} of size {}",
                dims[axis]
            ));
        }
        _ => {}
    }
    let mut out = dims;
    out[axis] = k.clone().unwrap_or(Dim::Unknown);
    cx.set_tensor(0, elem, out.clone());
    cx.set_tensor(1, ElemType::I64, out);
    match k {
        Some(_) => Ok(()),
        None => Err(unknown!("'K' is not known")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn arg_extremes() {
        infers! {
            13 ArgMax(ti("3x4x5xf32"); axis = int(1)) => "3x1x5xi64";
            13 ArgMin(ti("3x4x5xf32"); axis = int(-1), keepdims = int(0)) => "3x4xi64";
            12 ArgMax(ti("3x4xf32"); select_last_index = int(1)) => "1x4xi64";
            13 ArgMax(ti("3x4xf32"); axis = int(2)) => Fails(1, "out of range");
        }
    }

    #[test]
    fn reductions_by_attribute_and_input() {
        infers! {
            13 ReduceMean(ti("3x4x5xf32"); axes = ints(&[1])) => "3x1x5xf32";
            13 ReduceMax(ti("3x4x5xf32"); axes = ints(&[0, -1]), keepdims = int(0)) => "4xf32";
            13 ReduceMin(ti("3x4x5xf32")) => "1x1x1xf32";
            13 ReduceL2(ti("3x4x5xf32"); keepdims = int(0)) => "f32";
            18 ReduceMean(ti("3x4x5xf32"), ci(&[1])) => "3x1x5xf32";
            18 ReduceMean(ti("3x4x5xf32"), ci(&[1]); keepdims = int(0)) => "3x5xf32";
            18 ReduceProd(ti("3x4x5xf32")) => "1x1x1xf32";
            18 ReduceLogSumExp(ti("3x4x5xf32"), ci(&[]); noop_with_empty_axes = int(1)) => "3x4x5xf32";
            18 ReduceSumSquare(ti("3x4x5xf32"), ci(&[]); keepdims = int(0)) => "f32";
            18 ReduceL1(ti("3x4x5xf32"), ti("1xi64")) => "?x?x?xf32";
            18 ReduceL1(ti("3x4x5xf32"), ti("1xi64"); keepdims = int(0)) => "?x?xf32";
            11 ReduceSum(ti("3x4x5xf32"); axes = ints(&[2])) => "3x4x1xf32";
            13 ReduceSum(ti("3x4x5xf32"), ci(&[2])) => "3x4x1xf32";
            13 ReduceSum(ti("3x4x5xf32"); noop_with_empty_axes = int(1)) => "3x4x5xf32";
            13 ReduceSum(ti("NxSx5xf32"), ci(&[-1]); keepdims = int(0)) => "NxSxf32";
            13 ReduceSum(ti("3x4x5xf32"), ci(&[3])) => Fails(1, "out of range");
            13 ReduceSum(ci(&[2, 3, 4]); keepdims = int(0)) => Valued("i64", &[9]);
            18 ReduceProd(ci(&[2, 3, 4])) => Valued("1xi64", &[24]);
        }
    }

    #[test]
    fn scans_and_top_k() {
        infers! {
            14 CumSum(ti("2x3xf32"), cs(1)) => "2x3xf32";
            26 CumProd(ti("2x3xf32"), cs(0)) => "2x3xf32";
            14 CumSum(ti("2x3xf32"), cs(2)) => Fails(1, "out of range");
            14 CumSum(ti("2x3xf32"), ci(&[0, 1])) => Fails(1, "must be a scalar");
            11 TopK(ti("3x4xf32"), ci(&[3])) => ["3x3xf32", "3x3xi64"];
            11 TopK(ti("3x4xf32"), ci(&[2]); axis = int(0)) => ["2x4xf32", "2x4xi64"];
            1 TopK(ti("3x4xf32"); k = int(2)) => ["3x2xf32", "3x2xi64"];
            11 TopK(ti("3x4xf32"), ti("1xi64")) => ["3x?xf32", "3x?xi64"];
            11 TopK(ti("3x4xf32"), ci(&[5])) => Fails(2, "exceeds dim 1");
        }
    }
}
