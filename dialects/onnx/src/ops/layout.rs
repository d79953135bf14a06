//! Layout and shape-manipulation operators: they move or reinterpret data
//! without computing on it, or make constants. This family carries most of
//! the value propagation that resolves exporter shape arithmetic.
//!
//! | op | computes | result shape | opsets |
//! |----|----------|--------------|--------|
//! | Shape | the input's dims `[start, end)` as int64 | `[end - start]` (value: the dims) | 1, 13, 15 (start/end), 19, 21, 23–25 |
//! | Size | the element count as int64 | scalar (value: the product) | 1, 13, 19, 21, 23–25 |
//! | Reshape | same data, new dims | the target with `0` = copy (unless `allowzero`), `-1` = the rest | 1 (`shape` attr), 5, 13, 14 (allowzero), 19, 21, 23–25 |
//! | Flatten | 2-D view | `[prod(d[..axis]), prod(d[axis..])]` | 1, 9, 11, 13, 21, 23–25 |
//! | Squeeze / Unsqueeze | drop / insert size-1 dims | axes attr before 13, input after; no axes = every 1 | 1, 11, 13, 21, 23–25 |
//! | Transpose | permute dims | `d[perm[i]]`, perm defaults to reversed | 1, 13, 21, 23–25 |
//! | Concat | join along `axis` | sum on the axis, the others equal | 1, 4, 11, 13 |
//! | Split | cut along `axis` | `split` attr (< 13) / input, `num_outputs` (18, last chunk smaller), else equal parts | 1, 2, 11, 13, 18 |
//! | Slice | strided window | numpy clamping rules; attrs (1) / inputs (10+) | 1, 10, 11, 13 |
//! | Expand | broadcast to a shape | `broadcast(d, shape)` | 8, 13 |
//! | Tile | repeat | `d[i] * repeats[i]` | 1, 6, 13 |
//! | Pad | pad/crop edges | `d + begin + end` on `axes` (18) or all | 1 (`paddings`), 2 (`pads` attr), 11 (inputs), 13, 18, 19, 21, 23–25 |
//! | DepthToSpace / SpaceToDepth | move channel blocks to space / back | `[N, C/b², H·b, W·b]` / `[N, C·b², H/b, W/b]` | 1, 11, 13, 28 / 1, 13, 28 |
//! | CenterCropPad | crop or pad centred | `shape` on `axes` | 18 |
//! | Identity | copy (any type: tensor, sequence, optional) | the input's | 1, 13, 14, 16, 19, 21, 23–25 |
//! | Constant | a literal | the literal's (every attribute form; `sparse_value` gives a dense tensor) | 1, 9, 11 (sparse), 12 (value_*), 13, 19, 21, 23–25 |
//! | ConstantOfShape | fill | the shape input | 9, 20, 21, 23–25 |
//! | Range | arithmetic sequence | `[max(ceil((limit - start) / delta), 0)]` | 11, 27 |
//! | EyeLike | identity matrix | the input's 2-D shape, `dtype` | 9, 22 |
//! | Trilu | triangle of matrices | the input's | 14 |
//!
//! Known integer values flow through Shape, Size, Reshape, Flatten,
//! Squeeze, Unsqueeze, Concat, Split, Slice, Expand, Tile, Identity,
//! Constant, ConstantOfShape and Range, so that `Shape → Slice → Concat →
//! Reshape` chains give static (or symbolic) shapes.

use super::elementwise::zip_broadcast;
use super::operand::{
    const_ints, dims_min_rank, dims_of_rank, elem_type, expect_dim, flat_index, forward_value,
    input_name, ints_attr_or_input, known_dims, normalize_axes, pick_elems, product, shape_input,
    static_len, unify,
};
use crate::attr::Attr;
use crate::dim::Dim;
use crate::ops::ctx::{invalid, unknown, Fail, InferCtx};
use crate::ops::knowledge::{SymTensor, MAX_TRACKED_ELEMS};
use crate::ops::shape::{broadcast, fmt_dims, normalize_axis};
use crate::schema::{LayoutOp, OpKind};
use crate::types::{ElemType, TensorType, Type};

pub(crate) fn infer(op: LayoutOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use LayoutOp::*;
    match op {
        Shape => shape(cx),
        Size => size(cx),
        Reshape => reshape(cx),
        Flatten => flatten(cx),
        Squeeze => squeeze(cx),
        Unsqueeze => unsqueeze(cx),
        Transpose => transpose(cx),
        Concat => concat(cx),
        Split => split(cx),
        Slice => slice(cx),
        Expand => expand(cx),
        Tile => tile(cx),
        Pad => pad(cx),
        DepthToSpace | SpaceToDepth => depth_space(cx),
        CenterCropPad => center_crop_pad(cx),
        Identity => identity(cx),
        Constant => constant(cx),
        ConstantOfShape => constant_of_shape(cx),
        Range => range(cx),
        EyeLike => eye_like(cx),
        Trilu => {
            let elem = cx.elem(0)?;
            let dims = dims_min_rank(cx, 0, 2)?;
            cx.set_tensor(0, elem, dims);
            Ok(())
        }
    }
}

/// Input 0's dims, or, when its rank is unknown, an unranked result of its
/// element type and the `Unknown` that stops inference.
fn dims_or_unranked(cx: &mut InferCtx) -> Result<Vec<Dim>, Fail> {
    let elem = cx.elem(0)?;
    match cx.dims(0) {
        Ok(d) => Ok(d.to_vec()),
        Err(e) => {
            cx.set_unranked(0, elem);
            Err(e)
        }
    }
}

fn shape(cx: &mut InferCtx) -> Result<(), Fail> {
    let dims = match cx.dims(0) {
        Ok(d) => d.to_vec(),
        Err(e) => {
            cx.set_tensor(0, ElemType::I64, vec![Dim::Unknown]);
            return Err(e);
        }
    };
    let r = dims.len() as i64;
    let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
    let start = clamp(cx.int_opt("start")?.unwrap_or(0));
    let end = clamp(cx.int_opt("end")?.unwrap_or(r));
    let elems = if start < end {
        dims[start..end].to_vec()
    } else {
        vec![]
    };
    cx.set_tensor(0, ElemType::I64, vec![Dim::Known(elems.len() as i64)]);
    cx.set_value(0, SymTensor::vector(elems));
    Ok(())
}

fn size(cx: &mut InferCtx) -> Result<(), Fail> {
    cx.set_tensor(0, ElemType::I64, vec![]);
    let n = product(cx.dims(0)?);
    if n != Dim::Unknown {
        cx.set_value(0, SymTensor::scalar(n));
    }
    Ok(())
}

/// Sets result 0 to `elem` with as many unknown dims as the 1-D shape
/// operand `i` has elements (or unranked), and returns why.
fn unknown_shape_operand(
    cx: &mut InferCtx,
    elem: ElemType,
    i: usize,
    why: Fail,
) -> Result<(), Fail> {
    match static_len(cx, i) {
        Some(n) => cx.set_tensor(0, elem, vec![Dim::Unknown; n]),
        None => cx.set_unranked(0, elem),
    }
    Err(why)
}

fn reshape(cx: &mut InferCtx) -> Result<(), Fail> {
    let input = cx.tensor(0)?.clone();
    let target: Vec<Dim> = if cx.version() < 5 {
        let shape = cx
            .ints_opt("shape")?
            .ok_or_else(|| invalid!("attribute 'shape' is required"))?;
        shape.into_iter().map(Dim::Known).collect()
    } else {
        match shape_input(cx, 1) {
            Ok(v) => v,
            Err(why) => return unknown_shape_operand(cx, input.elem, 1, why),
        }
    };
    let allowzero = cx.int_opt("allowzero")?.unwrap_or(0) != 0;
    let in_dims = input.dims();
    let mut out = Vec::with_capacity(target.len());
    let mut infer_at = None;
    // Output positions that copy the input dim at the same position.
    let mut copied = vec![];
    for (i, d) in target.iter().enumerate() {
        match d {
            Dim::Known(-1) => {
                if infer_at.replace(i).is_some() {
                    return Err(invalid!(
                        "target shape {} has more than one -1",
                        fmt_dims(&target)
                    ));
                }
                out.push(Dim::Unknown);
            }
            Dim::Known(0) if allowzero && target.contains(&Dim::Known(-1)) => {
                return Err(invalid!(
                    "target shape {} has both 0 and -1 with allowzero=1",
                    fmt_dims(&target)
                ));
            }
            Dim::Known(0) if !allowzero => match in_dims {
                Some(dims) if i < dims.len() => {
                    out.push(dims[i].clone());
                    copied.push(i);
                }
                Some(dims) => {
                    return Err(invalid!(
                        "target shape {} copies dim {i} (0) of an input of rank {}",
                        fmt_dims(&target),
                        dims.len()
                    ));
                }
                None => out.push(Dim::Unknown),
            },
            Dim::Known(k) if *k < 0 => {
                return Err(invalid!(
                    "target shape {} has the invalid dim {k}",
                    fmt_dims(&target)
                ));
            }
            d => out.push(d.clone()),
        }
    }
    if let Some(dims) = in_dims {
        let rest = |ds: &[Dim], skip: Option<usize>| {
            product(
                ds.iter()
                    .enumerate()
                    .filter(|(i, _)| !copied.contains(i) && Some(*i) != skip)
                    .map(|(_, d)| d),
            )
        };
        let total = rest(dims, None);
        match infer_at {
            Some(at) => {
                let known = rest(&out, Some(at));
                out[at] = match (&total, &known) {
                    (_, Dim::Known(0)) => {
                        return Err(invalid!(
                            "cannot infer the -1 of {}: the other dims are 0",
                            fmt_dims(&target)
                        ));
                    }
                    (Dim::Known(t), Dim::Known(k)) if t.checked_rem(*k) != Some(0) => {
                        return Err(invalid!(
                            "cannot reshape {} ({t} elements) to {}",
                            fmt_dims(dims),
                            fmt_dims(&target)
                        ));
                    }
                    _ => total.quotient(&known),
                };
            }
            None => {
                if let (Dim::Known(t), Dim::Known(o)) = (&total, &rest(&out, None)) {
                    if t != o {
                        return Err(invalid!(
                            "cannot reshape {} to {}",
                            fmt_dims(dims),
                            fmt_dims(&target)
                        ));
                    }
                }
            }
        }
    }
    cx.set_tensor(0, input.elem, out.clone());
    forward_value(cx, &out);
    Ok(())
}

fn flatten(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = cx.dims(0)?;
    let r = dims.len() as i64;
    let axis = cx.int("axis")?;
    if axis < -r || axis > r {
        return Err(invalid!("axis {axis} is out of range for rank {r}"));
    }
    let axis = if axis < 0 { axis + r } else { axis } as usize;
    let out = vec![product(&dims[..axis]), product(&dims[axis..])];
    cx.set_tensor(0, elem, out.clone());
    forward_value(cx, &out);
    Ok(())
}

fn squeeze(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = dims_or_unranked(cx)?;
    let axes = ints_attr_or_input(cx, "axes", 1, 13).inspect_err(|_| cx.set_unranked(0, elem))?;
    let squeezed = match axes {
        Some(axes) => {
            let axes = normalize_axes(&axes, dims.len())?;
            for &a in &axes {
                expect_dim(&dims[a], &Dim::Known(1), &format!("squeezed dim {a}"))?;
            }
            axes
        }
        None => {
            if dims.iter().any(|d| !d.is_known()) {
                cx.set_unranked(0, elem);
                return Err(unknown!(
                    "which dims of {} are 1 is not known",
                    fmt_dims(&dims)
                ));
            }
            (0..dims.len())
                .filter(|&i| dims[i] == Dim::Known(1))
                .collect()
        }
    };
    let out: Vec<Dim> = dims
        .iter()
        .enumerate()
        .filter(|(i, _)| !squeezed.contains(i))
        .map(|(_, d)| d.clone())
        .collect();
    cx.set_tensor(0, elem, out.clone());
    forward_value(cx, &out);
    Ok(())
}

fn unsqueeze(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = dims_or_unranked(cx)?;
    let axes = ints_attr_or_input(cx, "axes", 1, 13)
        .inspect_err(|_| cx.set_unranked(0, elem))?
        .ok_or_else(|| invalid!("axes are required"))?;
    let axes = normalize_axes(&axes, dims.len() + axes.len())?;
    let mut rest = dims.into_iter();
    let out: Vec<Dim> = (0..axes.len() + rest.len())
        .map(|i| {
            if axes.contains(&i) {
                Dim::Known(1)
            } else {
                rest.next().expect("counted")
            }
        })
        .collect();
    cx.set_tensor(0, elem, out.clone());
    forward_value(cx, &out);
    Ok(())
}

fn transpose(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = dims_or_unranked(cx)?;
    let r = dims.len();
    let perm = match cx.ints_opt("perm")? {
        Some(p) => p,
        None => (0..r as i64).rev().collect(),
    };
    let mut sorted = perm.clone();
    sorted.sort_unstable();
    if sorted != (0..r as i64).collect::<Vec<_>>() {
        return Err(invalid!(
            "perm {perm:?} is not a permutation of the {r} dims"
        ));
    }
    cx.set_tensor(
        0,
        elem,
        perm.iter().map(|&p| dims[p as usize].clone()).collect(),
    );
    Ok(())
}

fn concat(cx: &mut InferCtx) -> Result<(), Fail> {
    let n = cx.num_inputs();
    if n == 0 {
        return Err(invalid!("needs at least one input"));
    }
    let elem = cx.elem(0)?;
    let mut shapes = Vec::with_capacity(n);
    for i in 0..n {
        let t = cx.tensor(i)?;
        if t.elem != elem {
            return Err(invalid!("input {i} is {}, input 0 is {elem}", t.elem));
        }
        shapes.push(t.dims().map(<[Dim]>::to_vec));
    }
    let Some(rank) = shapes.iter().flatten().map(Vec::len).next() else {
        cx.set_unranked(0, elem);
        return Err(unknown!("no input has a known rank"));
    };
    if rank == 0 {
        return Err(invalid!("cannot concatenate scalars"));
    }
    let axis = normalize_axis(cx.int("axis")?, rank)?;
    let mut out: Vec<Dim> = vec![Dim::Unknown; rank];
    out[axis] = Dim::Known(0);
    for (i, s) in shapes.iter().enumerate() {
        let Some(s) = s else {
            out[axis] = Dim::Unknown;
            continue;
        };
        if s.len() != rank {
            return Err(invalid!(
                "input {i} has rank {}, input 0 rank {rank}",
                s.len()
            ));
        }
        for (j, d) in s.iter().enumerate() {
            out[j] = if j == axis {
                out[j].add(d)
            } else {
                unify(&out[j], d, &format!("dim {j} of input {i}"))?
            };
        }
    }
    cx.set_tensor(0, elem, out);
    if rank == 1 {
        let parts: Option<Vec<SymTensor>> = (0..n).map(|i| cx.sym_input(i).cloned()).collect();
        if let Some(parts) = parts {
            cx.set_value(
                0,
                SymTensor::vector(parts.into_iter().flat_map(|p| p.elems).collect()),
            );
        }
    }
    Ok(())
}

fn split(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let n = cx.num_outputs();
    if n == 0 {
        return Err(invalid!("needs at least one output"));
    }
    let dims = match cx.dims(0) {
        Ok(d) => d.to_vec(),
        Err(e) => {
            (0..n).for_each(|i| cx.set_unranked(i, elem));
            return Err(e);
        }
    };
    let axis = normalize_axis(cx.int("axis")?, dims.len())?;
    let d = dims[axis].clone();
    let num_outputs = cx.int_opt("num_outputs")?;
    let given = ints_attr_or_input(cx, "split", 1, 13);
    let set = |cx: &mut InferCtx, sizes: &[Dim]| {
        for (i, s) in sizes.iter().enumerate() {
            let mut out = dims.clone();
            out[axis] = s.clone();
            cx.set_tensor(i, elem, out);
        }
    };
    // Sizes computed from other dims (RotaryEmbedding's `[head_size, 0]`
    // or `[rotary_dim, head_size - rotary_dim]`): the lowering checks at
    // run time that they add up to the dim, and the model's entry that
    // those that subtract are not negative.
    let symbolic = (cx.version() >= 13 && num_outputs.is_none())
        .then(|| cx.sym_vector(1))
        .flatten()
        .filter(|v| {
            v.len() == n
                && !v.iter().any(|d| d.as_known().is_some_and(|k| k < 0))
                && !v.iter().all(Dim::is_known)
        });
    let sizes: Vec<Dim> = match (given, num_outputs) {
        (Ok(Some(_)), Some(_)) => return Err(invalid!("both 'split' and 'num_outputs' are given")),
        (Err(_), _) if symbolic.is_some() => {
            let split = symbolic.expect("checked");
            let total = split.iter().fold(Dim::Known(0), |acc, s| acc.add(s));
            if total.definitely_ne(&d) {
                return Err(invalid!(
                    "dim {axis} of size {d} is split into {}",
                    fmt_dims(&split)
                ));
            }
            split
        }
        (Err(why), _) => {
            set(cx, &vec![Dim::Unknown; n]);
            return Err(why);
        }
        (Ok(Some(split)), None) => {
            if split.len() != n {
                return Err(invalid!(
                    "'split' {split:?} has {} sizes for {n} outputs",
                    split.len()
                ));
            }
            if split.iter().any(|&s| s < 0) {
                return Err(invalid!("'split' {split:?} has a negative size"));
            }
            let total: i64 = split.iter().sum();
            expect_dim(
                &d,
                &Dim::Known(total),
                &format!("dim {axis} split as {split:?}"),
            )?;
            split.into_iter().map(Dim::Known).collect()
        }
        (Ok(None), Some(parts)) => {
            if parts < 1 || parts as usize != n {
                return Err(invalid!(
                    "'num_outputs' = {parts} but the op has {n} outputs"
                ));
            }
            match &d {
                // Uneven: every chunk has ceil(d / n), the last the rest.
                Dim::Known(v) if v % parts != 0 => {
                    let chunk = v.div_euclid(parts) + 1;
                    let last = v - chunk * (parts - 1);
                    if last < 0 {
                        return Err(invalid!(
                            "cannot split dim {axis} of size {v} into {parts} chunks"
                        ));
                    }
                    let mut s = vec![Dim::Known(chunk); n - 1];
                    s.push(Dim::Known(last));
                    s
                }
                // (uneven chunks are allowed: no quotient atom) Halves of
                // a size are `ceil(d/2)` and `floor(d/2)`, exact with the
                // truncating division of sizes.
                _ => match d.div_exact(&Dim::Known(parts)) {
                    Dim::Unknown if parts == 2 && d.is_nonnegative() => {
                        let two = Dim::Known(2);
                        vec![d.add(&Dim::Known(1)).trunc_div(&two), d.trunc_div(&two)]
                    }
                    q => vec![q; n],
                },
            }
        }
        (Ok(None), None) => {
            if let Dim::Known(v) = d {
                if v % n as i64 != 0 {
                    return Err(invalid!(
                        "dim {axis} of size {v} does not split into {n} equal parts"
                    ));
                }
            }
            vec![d.quotient(&Dim::Known(n as i64)); n]
        }
    };
    set(cx, &sizes);
    if let (1, Some(v), Some(sizes)) = (dims.len(), cx.sym_input(0).cloned(), known_dims(&sizes)) {
        let mut start = 0usize;
        for (i, s) in sizes.into_iter().enumerate() {
            let end = start.saturating_add(s as usize).min(v.elems.len());
            cx.set_value(i, SymTensor::vector(v.elems[start..end].to_vec()));
            start = end;
        }
    }
    Ok(())
}

/// Values at or beyond these bounds mean "to the end" / "from the start"
/// (exporters pass `INT_MAX`/`INT_MIN` of 32 or 64 bits).
const SLICE_END: i64 = i32::MAX as i64;
const SLICE_BEGIN: i64 = i32::MIN as i64;

/// Effective start and end of a slice of a static dim (the spec's clamping).
fn clamp_slice(d: i64, start: i64, end: i64, step: i64) -> (i64, i64) {
    let adjust = |v: i64| if v < 0 { v.saturating_add(d) } else { v };
    let (start, end) = (adjust(start), adjust(end));
    if step < 0 {
        (
            start.clamp(0, d.saturating_sub(1).max(0)),
            end.clamp(-1, d.saturating_sub(1)),
        )
    } else {
        (start.clamp(0, d), end.clamp(0, d))
    }
}

/// Number of elements `[start, end)` by `step` selects.
fn slice_count(start: &Dim, end: &Dim, step: i64) -> Dim {
    let (span, k) = if step > 0 {
        (end.sub(start), step)
    } else {
        (start.sub(end), -step)
    };
    let n = match span.ceil_div(k) {
        // `ceil(span / k)` as a floor-quotient atom when `span + k - 1` is
        // never negative (so neither is the count: no entry check needed).
        Dim::Unknown if k > 1 && span.add(&Dim::Known(k - 1)).is_nonnegative() => {
            span.ceil_quotient(k)
        }
        n => n,
    };
    match n {
        Dim::Known(k) if k < 0 => Dim::Known(0),
        n => n,
    }
}

/// Length of a slice of dim `d`. Static dims and bounds follow the spec
/// exactly; for symbolic dims the bounds are assumed in range (a negative
/// bound counts from the end, an `INT_MAX`-like one is the end), which is
/// what exporters rely on when they slice symbolic dims, and the model's
/// entry checks (`Check::SliceLength`). A dim not known yet, or known
/// only as a size found at run time (`"?…"`: a count a NonZero or a
/// NonMaxSuppression computes, a dim the model leaves unnamed), gives an
/// unknown length, itself sized at run time: a detection head's
/// `keep[:1000]` may keep fewer.
fn slice_len(d: &Dim, start: &Dim, end: &Dim, step: i64) -> Dim {
    if let (Dim::Known(d), Dim::Known(s), Dim::Known(e)) = (d, start, end) {
        let (s, e) = clamp_slice(*d, *s, *e, step);
        return slice_count(&Dim::Known(s), &Dim::Known(e), step);
    }
    let found_at_run_time = d.as_param().is_some_and(|p| p.starts_with('?'));
    if *d == Dim::Unknown || found_at_run_time {
        return Dim::Unknown;
    }
    let bound = |v: &Dim, is_end: bool| match v {
        Dim::Known(k) if *k >= SLICE_END => {
            if step > 0 {
                d.clone()
            } else {
                d.sub(&Dim::Known(1))
            }
        }
        Dim::Known(k) if *k <= SLICE_BEGIN => Dim::Known(if step < 0 && is_end { -1 } else { 0 }),
        Dim::Known(k) if *k < 0 => d.add(&Dim::Known(*k)),
        v => v.clone(),
    };
    slice_count(&bound(start, false), &bound(end, true), step)
}

/// Slice parameters, one entry per sliced axis.
struct SliceParams {
    starts: Vec<Dim>,
    ends: Vec<Dim>,
    axes: Vec<usize>,
    steps: Vec<i64>,
}

fn slice_params(cx: &InferCtx, rank: usize) -> Result<SliceParams, Fail> {
    let known = |v: Vec<i64>| v.into_iter().map(Dim::Known).collect::<Vec<_>>();
    let (starts, ends, axes, steps) = if cx.version() < 10 {
        let req = |name| {
            cx.ints_opt(name)?
                .ok_or_else(|| invalid!("attribute '{name}' is required"))
        };
        (
            known(req("starts")?),
            known(req("ends")?),
            cx.ints_opt("axes")?,
            None,
        )
    } else {
        let axes = if cx.has_input(3) {
            Some(const_ints(cx, 3)?)
        } else {
            None
        };
        let steps = if cx.has_input(4) {
            Some(const_ints(cx, 4)?)
        } else {
            None
        };
        (shape_input(cx, 1)?, shape_input(cx, 2)?, axes, steps)
    };
    let n = starts.len();
    let axes = axes.unwrap_or_else(|| (0..n as i64).collect());
    let steps = steps.unwrap_or_else(|| vec![1; n]);
    if ends.len() != n || axes.len() != n || steps.len() != n {
        return Err(invalid!(
            "starts, ends, axes and steps have different lengths ({n}, {}, {}, {})",
            ends.len(),
            axes.len(),
            steps.len()
        ));
    }
    if steps.contains(&0) {
        return Err(invalid!("steps {steps:?} contain 0"));
    }
    Ok(SliceParams {
        starts,
        ends,
        axes: normalize_axes(&axes, rank)?,
        steps,
    })
}

fn slice(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = dims_or_unranked(cx)?;
    let p = match slice_params(cx, dims.len()) {
        Ok(p) => p,
        Err(Fail::Unknown(why)) => {
            // Which axes are sliced may be known even when the bounds are not.
            let mut out = dims.clone();
            match (cx.version() >= 10 && cx.has_input(3)).then(|| cx.const_ints(3)) {
                Some(Some(axes)) => normalize_axes(&axes, dims.len())?
                    .into_iter()
                    .for_each(|a| out[a] = Dim::Unknown),
                Some(None) => out.fill(Dim::Unknown),
                None => out
                    .iter_mut()
                    .take(static_len(cx, 1).unwrap_or(dims.len()))
                    .for_each(|d| *d = Dim::Unknown),
            }
            cx.set_tensor(0, elem, out);
            return Err(Fail::Unknown(why));
        }
        Err(e) => return Err(e),
    };
    let mut out = dims.clone();
    for (k, &a) in p.axes.iter().enumerate() {
        out[a] = slice_len(&dims[a], &p.starts[k], &p.ends[k], p.steps[k]);
    }
    cx.set_tensor(0, elem, out.clone());
    slice_value(cx, &dims, &out, &p);
    Ok(())
}

/// Slices input 0's known value when everything is static.
fn slice_value(cx: &mut InferCtx, dims: &[Dim], out: &[Dim], p: &SliceParams) {
    let (Some(src), Some(dims), Some(out)) = (cx.sym_input(0), known_dims(dims), known_dims(out))
    else {
        return;
    };
    let mut first = vec![0i64; dims.len()];
    let mut step = vec![1i64; dims.len()];
    for (k, &a) in p.axes.iter().enumerate() {
        let (Some(s), Some(e)) = (p.starts[k].as_known(), p.ends[k].as_known()) else {
            return;
        };
        first[a] = clamp_slice(dims[a], s, e, p.steps[k]).0;
        step[a] = p.steps[k];
    }
    let value = pick_elems(src, &out, |c| {
        let coord: Vec<i64> = c
            .iter()
            .enumerate()
            .map(|(k, &i)| first[k].saturating_add(i.saturating_mul(step[k])))
            .collect();
        Some(flat_index(&coord, &dims))
    });
    if let Some(v) = value {
        cx.set_value(0, v);
    }
}

fn expand(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = dims_or_unranked(cx)?;
    let (shape, why) = match shape_input(cx, 1) {
        Ok(s) => (s, None),
        Err(why) => match static_len(cx, 1) {
            Some(n) => (vec![Dim::Unknown; n], Some(why)),
            None => return unknown_shape_operand(cx, elem, 1, why),
        },
    };
    let out = broadcast(&dims, &shape)?;
    cx.set_tensor(0, elem, out.clone());
    if let Some(why) = why {
        return Err(why);
    }
    if let (Some(src), Some(out)) = (cx.sym_input(0).cloned(), known_dims(&out)) {
        if checked_len(&out) <= MAX_TRACKED_ELEMS {
            let shape = SymTensor {
                elems: vec![Dim::Known(0); checked_len(&out)],
                dims: out,
            };
            if let Some(v) = zip_broadcast(&[&src, &shape], |e| Some(e[0].clone())) {
                cx.set_value(0, v);
            }
        }
    }
    Ok(())
}

/// Element count of static dims, saturating (for size checks).
fn checked_len(dims: &[i64]) -> usize {
    crate::tensor::checked_numel(dims).unwrap_or(usize::MAX)
}

fn tile(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = dims_or_unranked(cx)?;
    if cx.version() < 6 {
        return tile_v1(cx, elem, dims);
    }
    let repeats = match shape_input(cx, 1) {
        Ok(r) => r,
        Err(why) => {
            cx.set_tensor(0, elem, vec![Dim::Unknown; dims.len()]);
            return Err(why);
        }
    };
    if repeats.len() != dims.len() {
        return Err(invalid!(
            "{} repeats for an input of rank {}",
            repeats.len(),
            dims.len()
        ));
    }
    if let Some(r) = repeats
        .iter()
        .find(|r| matches!(r, Dim::Known(k) if *k < 0))
    {
        return Err(invalid!(
            "repeats {} has the negative count {r}",
            fmt_dims(&repeats)
        ));
    }
    let out: Vec<Dim> = dims.iter().zip(&repeats).map(|(d, r)| d.mul(r)).collect();
    cx.set_tensor(0, elem, out.clone());
    if let (Some(src), Some(dims), Some(out)) =
        (cx.sym_input(0), known_dims(&dims), known_dims(&out))
    {
        let v = pick_elems(src, &out, |c| {
            let coord: Vec<i64> = c.iter().zip(&dims).map(|(&i, &d)| i % d).collect();
            Some(flat_index(&coord, &dims))
        });
        if let Some(v) = v {
            cx.set_value(0, v);
        }
    }
    Ok(())
}

/// Tile-1: `tiles` (a count) and `axis` (scalar inputs) repeat one axis.
fn tile_v1(cx: &mut InferCtx, elem: ElemType, dims: Vec<Dim>) -> Result<(), Fail> {
    let mut out = dims.clone();
    let (tiles, axis) = match (cx.const_ints(1), cx.const_ints(2)) {
        (Some(t), Some(a)) if t.len() == 1 && a.len() == 1 => (t[0], a[0]),
        _ => {
            cx.set_tensor(0, elem, vec![Dim::Unknown; dims.len()]);
            return Err(unknown!("'tiles' and 'axis' are not known constants"));
        }
    };
    let axis = normalize_axis(axis, dims.len())?;
    out[axis] = dims[axis].scale(tiles);
    cx.set_tensor(0, elem, out);
    Ok(())
}

fn pad(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = dims_or_unranked(cx)?;
    let axes = if cx.version() >= 18 && cx.has_input(3) {
        match cx.const_ints(3) {
            Some(a) => Some(normalize_axes(&a, dims.len())?),
            None => {
                cx.set_tensor(0, elem, vec![Dim::Unknown; dims.len()]);
                return Err(unknown!("'axes' (input 3) is not a known constant"));
            }
        }
    } else {
        None
    };
    let axes = axes.unwrap_or_else(|| (0..dims.len()).collect());
    let pads: Vec<Dim> = match cx.version() {
        v if v < 11 => {
            let name = if v < 2 { "paddings" } else { "pads" };
            let p = cx
                .ints_opt(name)?
                .ok_or_else(|| invalid!("attribute '{name}' is required"))?;
            p.into_iter().map(Dim::Known).collect()
        }
        _ => match shape_input(cx, 1) {
            Ok(p) => p,
            Err(why) => {
                let mut out = dims.clone();
                axes.iter().for_each(|&a| out[a] = Dim::Unknown);
                cx.set_tensor(0, elem, out);
                return Err(why);
            }
        },
    };
    if pads.len() != 2 * axes.len() {
        return Err(invalid!(
            "{} pads for {} axes (need begin and end for each)",
            pads.len(),
            axes.len()
        ));
    }
    let mut out = dims.clone();
    for (k, &a) in axes.iter().enumerate() {
        out[a] = dims[a].add(&pads[k]).add(&pads[k + axes.len()]);
        if matches!(out[a], Dim::Known(n) if n < 0) {
            return Err(invalid!(
                "pads {} make dim {a} ({}) negative",
                fmt_dims(&pads),
                dims[a]
            ));
        }
    }
    cx.set_tensor(0, elem, out);
    Ok(())
}

fn depth_space(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let d = dims_of_rank(cx, 0, 4)?;
    let b = cx.int("blocksize")?;
    let bb = b
        .checked_mul(b)
        .filter(|_| b > 0)
        .ok_or_else(|| invalid!("blocksize {b} is out of range"))?;
    let divide = |x: &Dim, k: i64, what: &str| -> Result<Dim, Fail> {
        match x {
            Dim::Known(v) if v % k != 0 => Err(invalid!("{what} ({v}) is not a multiple of {k}")),
            x => Ok(x.quotient(&Dim::Known(k))),
        }
    };
    let out = if cx.kind() == OpKind::DepthToSpace {
        vec![
            d[0].clone(),
            divide(&d[1], bb, "channels")?,
            d[2].scale(b),
            d[3].scale(b),
        ]
    } else {
        vec![
            d[0].clone(),
            d[1].scale(bb),
            divide(&d[2], b, "height")?,
            divide(&d[3], b, "width")?,
        ]
    };
    cx.set_tensor(0, elem, out);
    Ok(())
}

fn center_crop_pad(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = dims_or_unranked(cx)?;
    let axes = match cx.ints_opt("axes")? {
        Some(a) => normalize_axes(&a, dims.len())?,
        None => (0..dims.len()).collect(),
    };
    let mut out = dims.clone();
    let shape = match shape_input(cx, 1) {
        Ok(s) => s,
        Err(why) => {
            axes.iter().for_each(|&a| out[a] = Dim::Unknown);
            cx.set_tensor(0, elem, out);
            return Err(why);
        }
    };
    if shape.len() != axes.len() {
        return Err(invalid!(
            "'shape' has {} dims for {} axes",
            shape.len(),
            axes.len()
        ));
    }
    for (&a, s) in axes.iter().zip(shape) {
        out[a] = s;
    }
    cx.set_tensor(0, elem, out);
    Ok(())
}

fn identity(cx: &mut InferCtx) -> Result<(), Fail> {
    let ty = cx.required_type(0)?.clone();
    cx.set_type(0, ty);
    if let Some(v) = cx.sym_input(0).cloned() {
        cx.set_value(0, v);
    }
    Ok(())
}

/// The attributes that can hold a `Constant`'s value.
const CONSTANT_FORMS: [&str; 8] = [
    "value",
    "sparse_value",
    "value_float",
    "value_floats",
    "value_int",
    "value_ints",
    "value_string",
    "value_strings",
];

fn constant(cx: &mut InferCtx) -> Result<(), Fail> {
    let given: Vec<&str> = CONSTANT_FORMS
        .into_iter()
        .filter(|n| cx.attrs().get(n).is_some())
        .collect();
    let [form] = given[..] else {
        return Err(invalid!(
            "exactly one of the value attributes must be given, got {given:?}"
        ));
    };
    let attr = cx.attrs().get(form).expect("present").clone();
    let vector = |elem, n: usize| Type::Tensor(TensorType::new(elem, &[n as i64]));
    let scalar = |elem| Type::Tensor(TensorType::new(elem, &[]));
    let (ty, value) = match (form, attr) {
        ("value", Attr::Tensor(t)) => (Type::Tensor(t.ty()), SymTensor::from_data(&t)),
        // The output is dense even when the literal is given sparse.
        ("sparse_value", Attr::SparseTensor(s)) => {
            (Type::Tensor(TensorType::new(s.values.elem, &s.dims)), None)
        }
        ("value_float", Attr::Float(_)) => (scalar(ElemType::F32), None),
        ("value_floats", Attr::Floats(v)) => (vector(ElemType::F32, v.len()), None),
        ("value_int", Attr::Int(v)) => (
            scalar(ElemType::I64),
            Some(SymTensor::scalar(Dim::Known(v))),
        ),
        ("value_ints", Attr::Ints(v)) => (
            vector(ElemType::I64, v.len()),
            Some(SymTensor::vector(v.into_iter().map(Dim::Known).collect())),
        ),
        ("value_string", Attr::String(_)) => (scalar(ElemType::String), None),
        ("value_strings", Attr::Strings(v)) => (vector(ElemType::String, v.len()), None),
        (form, a) => {
            return Err(invalid!(
                "attribute '{form}' has the wrong kind {}",
                a.kind().name()
            ))
        }
    };
    cx.set_type(0, ty);
    if let Some(v) = value {
        cx.set_value(0, v);
    }
    Ok(())
}

fn constant_of_shape(cx: &mut InferCtx) -> Result<(), Fail> {
    let fill = cx.tensor_attr("value")?;
    let elem = fill.as_ref().map_or(ElemType::F32, |t| t.elem);
    if let Some(t) = &fill {
        if t.numel() != 1 {
            return Err(invalid!(
                "'value' must hold one element, got shape {:?}",
                t.dims
            ));
        }
    }
    let shape = match shape_input(cx, 0) {
        Ok(s) => s,
        Err(why) => return unknown_shape_operand(cx, elem, 0, why),
    };
    if let Some(d) = shape.iter().find(|d| matches!(d, Dim::Known(k) if *k < 0)) {
        return Err(invalid!(
            "shape {} has the negative dim {d}",
            fmt_dims(&shape)
        ));
    }
    cx.set_tensor(0, elem, shape.clone());
    let fill_value = match &fill {
        Some(t) => SymTensor::from_data(t).map(|s| s.elems[0].clone()),
        None => None,
    };
    if let (Some(x), Some(dims)) = (fill_value, known_dims(&shape)) {
        if checked_len(&dims) <= MAX_TRACKED_ELEMS {
            cx.set_value(
                0,
                SymTensor {
                    elems: vec![x; checked_len(&dims)],
                    dims,
                },
            );
        }
    }
    Ok(())
}

fn range(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    for i in 0..3 {
        if cx.elem(i)? != elem {
            return Err(invalid!(
                "'{}' is {}, 'start' is {elem}",
                input_name(cx, i),
                cx.elem(i)?
            ));
        }
        if let Ok(d) = cx.dims(i) {
            // A one-element vector is tolerated (as onnxruntime does); so is
            // a vector whose length is only known at run time.
            if !d.is_empty() && !matches!(d, [Dim::Known(1) | Dim::Sym(_) | Dim::Unknown]) {
                return Err(invalid!(
                    "'{}' must be a scalar, got shape {}",
                    input_name(cx, i),
                    fmt_dims(d)
                ));
            }
        }
    }
    cx.set_tensor(0, elem, vec![Dim::Unknown]);
    let scalar = |cx: &InferCtx, i| {
        cx.sym_vector(i)
            .filter(|v| v.len() == 1)
            .map(|v| v[0].clone())
    };
    if elem.is_int() {
        let (Some(start), Some(limit), Some(delta)) = (scalar(cx, 0), scalar(cx, 1), scalar(cx, 2))
        else {
            return Err(unknown!("start, limit and delta are not all known"));
        };
        let Some(step) = delta.as_known() else {
            return Err(unknown!("delta {delta} is not static"));
        };
        if step == 0 {
            return Err(invalid!("delta is 0"));
        }
        let n = slice_count(&start, &limit, step);
        cx.set_tensor(0, elem, vec![n.clone()]);
        if let Dim::Known(n) = n {
            if n as usize <= MAX_TRACKED_ELEMS {
                let elems: Option<Vec<Dim>> = (0..n)
                    .map(|i| Some(start.add(&Dim::Known(i.checked_mul(step)?))))
                    .collect();
                if let Some(elems) = elems {
                    cx.set_value(0, SymTensor::vector(elems));
                }
            }
        }
        return Ok(());
    }
    let float = |i| cx.known_numbers(i).filter(|v| v.len() == 1).map(|v| v[0]);
    let (Some(start), Some(limit), Some(delta)) = (float(0), float(1), float(2)) else {
        return Err(unknown!(
            "start, limit and delta are not all known constants"
        ));
    };
    if delta == 0.0 {
        return Err(invalid!("delta is 0"));
    }
    let n = ((limit - start) / delta).ceil().max(0.0);
    cx.set_tensor(0, elem, vec![Dim::Known(n as i64)]);
    Ok(())
}

fn eye_like(cx: &mut InferCtx) -> Result<(), Fail> {
    let dims = dims_of_rank(cx, 0, 2)?;
    let elem = match cx.int_opt("dtype")? {
        Some(code) => elem_type(code, "dtype")?,
        None => cx.elem(0)?,
    };
    cx.set_tensor(0, elem, dims);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::attr::Attr;
    use crate::schema::OpKind::*;
    use crate::tensor::TensorData;
    use crate::types::{ElemType, TensorType, Type};
    use crate::Dim;

    #[test]
    fn shape_and_size_carry_values() {
        infers! {
            21 Shape(ti("2xNx4xf32"); start = int(-2)) => "2xi64";
            15 Shape(ti("2x3x4xf32"); start = int(5), end = int(-7)) => "0xi64";
            15 Shape(ti("2x3x4xf32"); start = int(1), end = int(-1)) => Valued("1xi64", &[3]);
            13 Shape(ti("*xf32")) => "?xi64";
            13 Size(ti("2x3x4xf32")) => Valued("i64", &[24]);
        }
        let out = run(13, Size, &[ti("2xNx4xf32")], &[], 1).unwrap();
        assert_eq!(out.values[0].as_ref().unwrap().elems, vec![dim("(8*N)")]);
        let out = run(21, Shape, &[ti("2xNx4xf32")], &[("start", int(-2))], 1).unwrap();
        assert_eq!(
            out.values[0].as_ref().unwrap().elems,
            vec![dim("N"), dim("4")]
        );
    }

    #[test]
    fn reshape_resolves_zero_and_minus_one() {
        infers! {
            14 Reshape(ti("2x3x4xf32"), ci(&[0, -1])) => "2x12xf32";
            14 Reshape(ti("2x3x4xf32"), ci(&[-1, 2])) => "12x2xf32";
            14 Reshape(ti("?x3x4xf32"), ci(&[0, 0, -1, 2])) => "?x3x2x2xf32";
            14 Reshape(ti("0x3xf32"), ci(&[3, 0]); allowzero = int(1)) => "3x0xf32";
            1 Reshape(ti("2x3xf32"); shape = ints(&[6])) => "6xf32";
            14 Reshape(ti("BxSx768xf32"), ci(&[-1, 768])) => "(B*S)x768xf32";
            14 Reshape(ti("BxSx768xf32"), ci(&[0, 0, 12, -1])) => "BxSx12x64xf32";
            14 Reshape(ti("2x3xf32"), ti("3xi64")) => "?x?x?xf32";
            14 Reshape(ti("2x3xf32"), ci(&[-1, -1])) => Fails(1, "more than one -1");
            14 Reshape(ti("2x3xf32"), ci(&[4, -1])) => Fails(1, "cannot reshape");
            14 Reshape(ti("2x3xf32"), ci(&[5])) => Fails(1, "cannot reshape");
            14 Reshape(ti("2x3xf32"), ci(&[0, 0, 0])) => Fails(1, "copies dim 2");
            14 Reshape(ti("2x3xf32"), ci(&[0, -1]); allowzero = int(1)) => Fails(1, "both 0 and -1");
            14 Reshape(ci(&[1, 2, 3, 4]), ci(&[2, 2])) => Valued("2x2xi64", &[1, 2, 3, 4]);
        }
    }

    #[test]
    fn unknown_operands_are_reported_not_rejected() {
        let out = run(14, Reshape, &[ti("2x3xf32"), ti("3xi64")], &[], 1).unwrap();
        let why = out.incomplete.expect("inference is incomplete");
        assert!(why.contains("'shape' (input 1) is not known"), "{why}");
        let out = run(14, Reshape, &[ti("2x3xf32"), ci(&[3, 2])], &[], 1).unwrap();
        assert_eq!(out.incomplete, None);
    }

    #[test]
    fn exporter_shape_chain_resolves_to_a_static_shape() {
        // Shape -> Gather -> Unsqueeze -> Concat -> Reshape, as torch.onnx emits.
        let mut g = Graph::new(17);
        let x = g.input(t("2x3x4xf32"));
        let s = g.op(Shape, &[x], &[], 1)[0];
        let zero = g.constant(TensorData::scalar(0i64));
        let d0 = g.op(Gather, &[s, zero], &[("axis", int(0))], 1)[0];
        let axes = g.ints(&[0]);
        let u = g.op(Unsqueeze, &[d0, axes], &[], 1)[0];
        let minus_one = g.ints(&[-1]);
        let shape = g.op(Concat, &[u, minus_one], &[("axis", int(0))], 1)[0];
        let y = g.op(Reshape, &[x, shape], &[], 1)[0];
        let k = g.infer().unwrap();
        assert_eq!(g.ty(y), "tensor<2x12xf32>");
        assert_eq!(k.values[&shape].as_known(), Some(vec![2, -1]));
    }

    #[test]
    fn flatten_squeeze_unsqueeze() {
        infers! {
            13 Flatten(ti("2x3x4x5xf32"); axis = int(2)) => "6x20xf32";
            13 Flatten(ti("2x3x4x5xf32"); axis = int(0)) => "1x120xf32";
            13 Flatten(ti("2x3x4x5xf32"); axis = int(-1)) => "24x5xf32";
            13 Flatten(ti("Nx3x4xf32")) => "Nx12xf32";
            13 Flatten(ti("2x3xf32"); axis = int(3)) => Fails(1, "out of range");
            13 Squeeze(ti("1x3x1x5xf32"), ci(&[0, -2])) => "3x5xf32";
            11 Squeeze(ti("1x3x1x5xf32"); axes = ints(&[2])) => "1x3x5xf32";
            13 Squeeze(ti("1x3x1x5xf32")) => "3x5xf32";
            13 Squeeze(ti("1xNx5xf32")) => "*xf32";
            13 Squeeze(ti("1xNx5xf32"), ci(&[1])) => "1x5xf32";
            13 Squeeze(ti("2x3xf32"), ci(&[0])) => Fails(1, "squeezed dim 0 must be 1");
            13 Squeeze(ci(&[7]), ci(&[0])) => Valued("i64", &[7]);
            13 Unsqueeze(ti("3x4xf32"), ci(&[0, 3])) => "1x3x4x1xf32";
            13 Unsqueeze(ti("3x4x5xf32"), ci(&[1, 4])) => "3x1x4x5x1xf32";
            11 Unsqueeze(ti("3x4xf32"); axes = ints(&[-1])) => "3x4x1xf32";
            13 Unsqueeze(ti("f32"), ci(&[0])) => "1xf32";
            13 Unsqueeze(ti("3xf32"), ci(&[0, 0])) => Fails(1, "repeated");
            13 Unsqueeze(ti("3xf32"), ci(&[2])) => Fails(1, "out of range");
            13 Unsqueeze(cs(5), ci(&[0])) => Valued("1xi64", &[5]);
        }
    }

    #[test]
    fn transpose_and_concat() {
        infers! {
            13 Transpose(ti("2x3x4xf32")) => "4x3x2xf32";
            13 Transpose(ti("2xNx4xf32"); perm = ints(&[1, 2, 0])) => "Nx4x2xf32";
            13 Transpose(ti("2x3xf32"); perm = ints(&[0, 0])) => Fails(1, "not a permutation");
            13 Concat(ti("2x3xf32"), ti("2x5xf32"); axis = int(1)) => "2x8xf32";
            13 Concat(ti("2xPxf32"), ti("?x?xf32"); axis = int(-1)) => "2x?xf32";
            13 Concat(ti("2xPxf32"), ti("?xSxf32"); axis = int(1)) => "2x(P+S)xf32";
            13 Concat(ti("2x3xf32"), ti("3x3xf32"); axis = int(1)) => Fails(1, "dim 0 of input 1");
            13 Concat(ti("2x3xf32"), ti("3xf32"); axis = int(0)) => Fails(1, "rank");
            13 Concat(ti("2xf32"), ti("3xi64"); axis = int(0)) => Fails(1, "input 1 is i64");
            13 Concat(ti("f32"), ti("f32"); axis = int(0)) => Fails(1, "scalars");
            13 Concat(ci(&[1]), ci(&[2, 3]); axis = int(0)) => Valued("3xi64", &[1, 2, 3]);
        }
    }

    #[test]
    fn split_forms() {
        infers! {
            13 Split(ti("2x7xf32"), ci(&[3, 4]); axis = int(1)) => ["2x3xf32", "2x4xf32"];
            11 Split(ti("2x7xf32"); axis = int(1), split = ints(&[2, 5])) => ["2x2xf32", "2x5xf32"];
            13 Split(ti("2x7xf32")) => ["1x7xf32", "1x7xf32"];
            // num_outputs: every chunk has ceil(7 / 3) = 3, the last the rest.
            18 Split(ti("2x7xf32"); axis = int(1), num_outputs = int(3)) => ["2x3xf32", "2x3xf32", "2x1xf32"];
            18 Split(ti("2x8xf32"); axis = int(1), num_outputs = int(3)) => ["2x3xf32", "2x3xf32", "2x2xf32"];
            18 Split(ti("2xNxf32"); axis = int(1), num_outputs = int(3)) => ["2x?xf32", "2x?xf32", "2x?xf32"];
            18 Split(ti("2x(2*N)xf32"); axis = int(1), num_outputs = int(2)) => ["2xNxf32", "2xNxf32"];
            13 Split(ti("2x7xf32"), ti("2xi64"); axis = int(1)) => ["2x?xf32", "2x?xf32"];
            13 Split(ti("2x7xf32"), ci(&[3, 3]); axis = int(1)) => Fails(2, "split as [3, 3]");
            13 Split(ti("2x7xf32"); axis = int(1)) => Fails(2, "does not split into 2 equal parts");
            18 Split(ti("2x7xf32"); num_outputs = int(3)) => Fails(2, "'num_outputs' = 3");
        }
        let out = run(13, Split, &[ci(&[1, 2, 3, 4, 5]), ci(&[2, 3])], &[], 2).unwrap();
        assert_eq!(
            out.values[1].as_ref().unwrap().as_known(),
            Some(vec![3, 4, 5])
        );
    }

    #[test]
    fn slice_follows_numpy_clamping() {
        let x = || ti("20x10x5xf32");
        infers! {
            13 Slice(x(), ci(&[0, 0]), ci(&[3, 10]), ci(&[0, 1]), ci(&[1, 1])) => "3x10x5xf32";
            13 Slice(x(), ci(&[1]), ci(&[1000]), ci(&[1]), ci(&[3])) => "20x3x5xf32";
            13 Slice(x(), ci(&[-1]), ci(&[i64::MIN]), ci(&[1]), ci(&[-1])) => "20x10x5xf32";
            13 Slice(x(), ci(&[20]), ci(&[0]), ci(&[1]), ci(&[-3])) => "20x3x5xf32";
            13 Slice(x(), ci(&[0]), ci(&[-1])) => "19x10x5xf32";
            13 Slice(x(), ci(&[1000]), ci(&[1000])) => "0x10x5xf32";
            13 Slice(x(), ci(&[0, 0, 3]), ci(&[20, 10, 4])) => "20x10x1xf32";
            1 Slice(x(); starts = ints(&[0, 0]), ends = ints(&[3, 10]), axes = ints(&[0, 1])) => "3x10x5xf32";
            13 Slice(x(), ci(&[0]), ci(&[1]), ci(&[0]), ci(&[0])) => Fails(1, "contain 0");
            13 Slice(x(), ci(&[0]), ci(&[1]), ci(&[3])) => Fails(1, "out of range");
            13 Slice(x(), ci(&[0, 1]), ci(&[1])) => Fails(1, "different lengths");
            // Unknown bounds keep the rank and the axes that are not sliced.
            13 Slice(x(), ti("1xi64"), ti("1xi64"), ci(&[1])) => "20x?x5xf32";
            13 Slice(x(), ti("1xi64"), ti("1xi64")) => "?x10x5xf32";
            13 Slice(x(), ci(&[0]), ci(&[1]), ti("1xi64")) => "?x?x?xf32";
            13 Slice(ci(&[10, 11, 12, 13, 14]), ci(&[-1]), ci(&[0]), ci(&[0]), ci(&[-2])) => Valued("2xi64", &[14, 12]);
            13 Slice(ci(&[10, 11, 12, 13, 14]), ci(&[1]), ci(&[i64::MAX])) => Valued("4xi64", &[11, 12, 13, 14]);
        }
    }

    #[test]
    fn slice_of_symbolic_dims_assumes_in_range_bounds() {
        let x = || ti("BxSx64xf32");
        infers! {
            13 Slice(x(), ci(&[1]), ci(&[i64::MAX]), ci(&[1])) => "Bx(S-1)x64xf32";
            13 Slice(x(), ci(&[-4]), ci(&[i64::MAX]), ci(&[1])) => "Bx4x64xf32";
            13 Slice(x(), ci(&[0]), ci(&[-1]), ci(&[1])) => "Bx(S-1)x64xf32";
            13 Slice(x(), ci(&[0]), ci(&[i64::MAX]), ci(&[1])) => "BxSx64xf32";
            13 Slice(x(), ci(&[0]), ci(&[1]), ci(&[0])) => "1xSx64xf32";
            13 Slice(x(), ci(&[-1]), ci(&[i64::MIN]), ci(&[1]), ci(&[-1])) => "BxSx64xf32";
        }
        // Every second row: ceil(S / 2), the floor-quotient atom floor((S + 1) / 2).
        let rows = dim("S").ceil_quotient(2);
        let every_second = Type::Tensor(TensorType::with_dims(
            ElemType::F32,
            vec![dim("B"), rows, Dim::Known(64)],
        ));
        infers! {
            13 Slice(x(), ci(&[0]), ci(&[i64::MAX]), ci(&[1]), ci(&[2])) => every_second;
        }
    }

    #[test]
    fn expand_and_tile() {
        infers! {
            13 Expand(ti("3x1xf32"), ci(&[2, 1, 6])) => "2x3x6xf32";
            13 Expand(ti("3x1xf32"), ci(&[3, 4])) => "3x4xf32";
            13 Expand(ti("3x1xf32"), ti("3xi64")) => "?x3x?xf32";
            13 Expand(ti("Nx1xf32"), ci(&[1, 5])) => "Nx5xf32";
            13 Expand(ti("3x2xf32"), ci(&[4, 3])) => Fails(1, "do not broadcast");
            13 Expand(ci(&[7]), ci(&[3])) => Valued("3xi64", &[7, 7, 7]);
            13 Tile(ti("2x3xf32"), ci(&[3, 2])) => "6x6xf32";
            13 Tile(ti("Nx3xf32"), ci(&[2, 1])) => "(2*N)x3xf32";
            13 Tile(ti("2x3xf32"), ti("2xi64")) => "?x?xf32";
            13 Tile(ti("2x3xf32"), ci(&[3])) => Fails(1, "1 repeats for an input of rank 2");
            13 Tile(ci(&[1, 2]), ci(&[2])) => Valued("4xi64", &[1, 2, 1, 2]);
        }
    }

    #[test]
    fn pad_forms() {
        infers! {
            13 Pad(ti("3x4xf32"), ci(&[0, 2, 0, 0])) => "3x6xf32";
            13 Pad(ti("3x4xf32"), ci(&[1, -1, 1, -1])) => "5x2xf32";
            18 Pad(ti("1x3x4x5xf32"), ci(&[1, 2, 3, 4]), In::Absent, ci(&[1, 3])) => "1x7x4x11xf32";
            18 Pad(ti("1x3x4x5xf32"), ci(&[1, 2, 3, 4]), In::Absent, ci(&[-3, -1])) => "1x7x4x11xf32";
            13 Pad(ti("Nx4xf32"), ci(&[1, 0, 1, 0])) => "(N+2)x4xf32";
            13 Pad(ti("3x4xf32"), ti("4xi64")) => "?x?xf32";
            2 Pad(ti("3x4xf32"); pads = ints(&[1, 1, 1, 1])) => "5x6xf32";
            1 Pad(ti("3x4xf32"); paddings = ints(&[1, 1, 1, 1])) => "5x6xf32";
            13 Pad(ti("3x4xf32"), ci(&[1, 1])) => Fails(1, "2 pads for 2 axes");
            13 Pad(ti("3x4xf32"), ci(&[0, -3, 0, -2])) => Fails(1, "negative");
        }
    }

    #[test]
    fn depth_space_and_crop() {
        infers! {
            13 DepthToSpace(ti("1x8x2x3xf32"); blocksize = int(2)) => "1x2x4x6xf32";
            13 SpaceToDepth(ti("1x2x4x6xf32"); blocksize = int(2)) => "1x8x2x3xf32";
            13 DepthToSpace(ti("1x6x2x3xf32"); blocksize = int(2)) => Fails(1, "not a multiple of 4");
            13 SpaceToDepth(ti("1x2x3xf32"); blocksize = int(2)) => Fails(1, "rank 4");
            18 CenterCropPad(ti("20x10x3xf32"), ci(&[10, 7, 3])) => "10x7x3xf32";
            18 CenterCropPad(ti("20x8x3xf32"), ci(&[10, 9]); axes = ints(&[0, 1])) => "10x9x3xf32";
            18 CenterCropPad(ti("3x20x8xf32"), ci(&[10, 9]); axes = ints(&[-2, -1])) => "3x10x9xf32";
            18 CenterCropPad(ti("3x20x8xf32"), ci(&[10]); axes = ints(&[-2, -1])) => Fails(1, "1 dims for 2 axes");
        }
    }

    #[test]
    fn identity_takes_any_type() {
        let seq = Type::Sequence(Box::new(t("2xf32")));
        let out = run(16, Identity, &[In::T(seq.clone())], &[], 1).unwrap();
        assert_eq!(out.types[0], seq);
        infers! { 16 Identity(ci(&[3, 4])) => Valued("2xi64", &[3, 4]); }
    }

    #[test]
    fn constant_forms() {
        let sparse = crate::attr::SparseTensorData {
            dims: vec![3, 4],
            values: TensorData::from_vec(vec![2], &[1.0f32, 2.0]).unwrap(),
            indices: TensorData::i64s(&[0, 5]),
        };
        let i32s = TensorData::from_vec(vec![2], &[3i32, 4]).unwrap();
        infers! {
            13 Constant(; value_float = Attr::Float(1.0)) => "f32";
            13 Constant(; value_floats = Attr::Floats(vec![1.0, 2.0])) => "2xf32";
            13 Constant(; value_string = Attr::str("a")) => "string";
            13 Constant(; value_strings = Attr::Strings(vec![vec![]; 3])) => "3xstring";
            13 Constant(; value_ints = ints(&[4, 5])) => Valued("2xi64", &[4, 5]);
            13 Constant(; value_int = int(4)) => Valued("i64", &[4]);
            13 Constant(; value = Attr::Tensor(i32s)) => Valued("2xi32", &[3, 4]);
            13 Constant(; value_int = int(1), value_float = Attr::Float(1.0)) => Fails(1, "exactly one");
            13 Constant(; value_int = Attr::Float(1.0)) => Fails(1, "wrong kind FLOAT");
        }
        let out = run(
            13,
            Constant,
            &[],
            &[("sparse_value", Attr::SparseTensor(sparse))],
            1,
        )
        .unwrap();
        assert_eq!(out.types[0], t("3x4xf32"));
    }

    #[test]
    fn constant_of_shape_range_eyelike_trilu() {
        let one = || Attr::Tensor(TensorData::from_vec(vec![1], &[1i64]).unwrap());
        let f = |v: f32| In::C(TensorData::scalar(v));
        infers! {
            20 ConstantOfShape(ci(&[2, 3]); value = one()) => Valued("2x3xi64", &[1; 6]);
            20 ConstantOfShape(ci(&[4])) => "4xf32";
            20 ConstantOfShape(ci(&[])) => "f32";
            20 ConstantOfShape(ti("3xi64")) => "?x?x?xf32";
            20 ConstantOfShape(ci(&[-1])) => Fails(1, "negative dim");
            11 Range(cs(1), cs(10), cs(3)) => Valued("3xi64", &[1, 4, 7]);
            11 Range(cs(10), cs(6), cs(-3)) => "2xi64";
            11 Range(cs(10), cs(6), cs(3)) => "0xi64";
            11 Range(f(1.0), f(2.0), f(0.3)) => "4xf32";
            11 Range(ti("f32"), f(2.0), f(0.3)) => "?xf32";
            11 Range(cs(1), cs(10), cs(0)) => Fails(1, "delta is 0");
            11 Range(cs(1), ci(&[10, 11]), cs(1)) => Fails(1, "must be a scalar");
            9 EyeLike(ti("3x4xi32"); dtype = int(1)) => "3x4xf32";
            9 EyeLike(ti("3x4xi32")) => "3x4xi32";
            9 EyeLike(ti("3xf32")) => Fails(1, "rank 2");
            14 Trilu(ti("2x3x4xf32")) => "2x3x4xf32";
            14 Trilu(ti("4xf32")) => Fails(1, "rank at least 2");
        }
    }

    #[test]
    fn range_of_a_symbolic_limit() {
        let mut g = Graph::new(17);
        let x = g.input(t("BxSxf32"));
        let s = g.op(Shape, &[x], &[], 1)[0];
        let one = g.constant(TensorData::scalar(1i64));
        let seq = g.op(Gather, &[s, one], &[], 1)[0];
        let zero = g.constant(TensorData::scalar(0i64));
        let r = g.op(Range, &[zero, seq, one], &[], 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(r), r#"tensor<"S"xi64>"#);
    }

    #[test]
    fn float_range_over_a_cast_size() {
        // A window function's body: Range(0.0, float(size), 1.0) with the
        // size computed from a shape. A cast to float16 is not looked
        // through (its rounding is not checked), nor is an unknown size.
        let mut g = Graph::new(17);
        let x = g.input(t("2x7xf32"));
        let s = g.op(Shape, &[x], &[], 1)[0];
        let one = g.constant(TensorData::scalar(1i64));
        let n = g.op(Gather, &[s, one], &[], 1)[0];
        let cast = |g: &mut Graph, v, to: i64| g.op(Cast, &[v], &[("to", int(to))], 1)[0];
        let limit = cast(&mut g, n, 1);
        let zero = g.constant(TensorData::scalar(0f32));
        let step = g.constant(TensorData::scalar(2f32));
        let r = g.op(Range, &[zero, limit, step], &[], 1)[0];
        let wide = cast(&mut g, n, 11);
        let zero_i = g.constant(TensorData::scalar(0i64));
        let (zero64, one64) = (cast(&mut g, zero_i, 11), cast(&mut g, one, 11));
        let r64 = g.op(Range, &[zero64, wide, one64], &[], 1)[0];
        let half = cast(&mut g, n, 10);
        let (zero16, step16) = (cast(&mut g, zero, 10), cast(&mut g, step, 10));
        let r16 = g.op(Range, &[zero16, half, step16], &[], 1)[0];
        let y = g.input(t("f32"));
        let unknown = g.op(Range, &[zero, y, step], &[], 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(r), "tensor<4xf32>");
        assert_eq!(g.ty(r64), "tensor<7xf64>");
        assert_eq!(g.ty(r16), "tensor<?xf16>");
        assert_eq!(g.ty(unknown), "tensor<?xf32>");
    }
}
