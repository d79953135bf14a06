//! Windows of a tensor: Slice (a strided window, reversed along negative
//! steps; bounds read at run time computed in the body), Split (one
//! window per output) and Concat (each input copied into its window of
//! the output).

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::OpId;

use super::copy::finish_root;
use crate::builder::{
    d, elem_of, generic, identity_map, map, CmpiPredicate, Emitter, Expr, Size, DYNAMIC,
};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{const_ints, norm_axis, per_axis};

pub(super) fn slice(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let (xd, _) = kb.shape(data.inputs[0].expect("input"))?;
    let rank = xd.len();
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    // `Some(None)` for an absent input, `None` for one known only at run time.
    let known = |i: usize| match input(i) {
        None => Some(None),
        Some(v) => const_ints(kb.model, v).map(Some),
    };
    if xd.contains(&DYNAMIC) {
        return slice_at_run_time(kb, op);
    }
    let (starts, axes, steps) = if data.version < 10 {
        (
            data.attrs.ints("starts").unwrap_or_default().to_vec(),
            data.attrs.ints("axes").map(<[i64]>::to_vec),
            None,
        )
    } else {
        match (known(1), known(3), known(4)) {
            (Some(Some(starts)), Some(axes), Some(steps)) => (starts, axes, steps),
            _ => return slice_at_run_time(kb, op),
        }
    };
    let n = starts.len();
    let axes = axes.unwrap_or_else(|| (0..n as i64).collect());
    let steps = steps.unwrap_or_else(|| vec![1; n]);
    let (yd, _) = kb.shape(data.results[0].expect("output"))?;
    let mut offsets = vec![0; rank];
    let mut strides = vec![1; rank];
    let mut reversed = vec![false; rank];
    for k in 0..n {
        let a = norm_axis(axes[k], rank);
        let (dim, step) = (xd[a], steps[k]);
        let mut s = starts[k];
        if s < 0 {
            s += dim;
        }
        s = if step > 0 {
            s.clamp(0, dim)
        } else {
            s.clamp(0, (dim - 1).max(0))
        };
        // A negative step reads the same elements as a positive one from
        // the last of them, reversed.
        offsets[a] = if step > 0 {
            s
        } else {
            s + (yd[a] - 1).max(0) * step
        };
        strides[a] = step.abs();
        reversed[a] = step < 0;
        if step < 0 && yd[a] == DYNAMIC {
            // A count known at run time only, read backwards.
            return slice_at_run_time(kb, op);
        }
    }
    strided_copy(kb, op, &offsets, &strides, &reversed)
}

/// Slice with starts, axes or steps known only at run time, or of an input
/// of symbolic sizes (opset 10 on): the output's (inferred) shape gives
/// each dim's count, so only each dim's first index and step are computed,
/// in the body, from the inputs and the input's run-time sizes (`ends` is
/// not needed). Indices are clamped into the input, so values that
/// disagree with the inferred shape read in bounds (and with constant
/// bounds, the model's entry checks the counts, `layout::checks`).
fn slice_at_run_time(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let y = data.results[0].expect("output");
    let (xd, _) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    if xd.contains(&0) && !yd.contains(&0) {
        return Err(kb.unsupported(op, "a non-empty slice of an empty input"));
    }
    let rank = xd.len();
    // The attribute form (opset 1): constant starts on the named axes, unit
    // steps.
    let attribute_starts = (data.version < 10).then(|| {
        let starts = data.attrs.ints("starts").unwrap_or_default().to_vec();
        let axes = data.attrs.ints("axes").map_or_else(
            || (0..starts.len()).collect(),
            |a| a.iter().map(|&a| norm_axis(a, rank)).collect::<Vec<_>>(),
        );
        let mut begin = vec![0; rank];
        for (&a, &s) in axes.iter().zip(&starts) {
            begin[a] = s;
        }
        begin
    });
    let inputs = match &attribute_starts {
        Some(_) => None,
        None => {
            let starts = data.inputs[1].expect("starts");
            let tensor = |i: usize| data.inputs.get(i).copied().flatten().map(|v| kb.tensor(v));
            Some((
                kb.sizes(starts)?[0],
                kb.tensor(starts),
                tensor(3),
                tensor(4),
            ))
        }
    };
    let sizes: Vec<MValue> = kb.sizes(x)?.iter().map(|s| s.value(&kb.e)).collect();
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let e = kb.e;
    let g = generic(
        e,
        &[],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, _| {
            let zero = be.index(0);
            let (begin, step) = match (&attribute_starts, inputs) {
                (Some(begin), _) => (
                    begin.iter().map(|&s| be.index(s)).collect(),
                    vec![be.index(1); rank],
                ),
                (None, Some((n, st, axes, steps))) => (
                    per_axis(be, rank, n, axes, st, 0, 0),
                    match steps {
                        Some(t) => per_axis(be, rank, n, axes, t, 0, 1),
                        None => vec![be.index(1); rank],
                    },
                ),
                (None, None) => unreachable!("starts from the attributes or the inputs"),
            };
            let mut coords = vec![];
            for k in 0..rank {
                let dim = sizes[k];
                let last = be.subi(dim, be.index(1));
                let last = be.maxsi(last, zero);
                let s = begin[k];
                let s = be.select(be.cmpi(CmpiPredicate::Slt, s, zero), be.addi(s, dim), s);
                let s = be.maxsi(s, zero);
                // A positive step starts at most at the end, a negative one
                // at the last element.
                let forward = be.cmpi(CmpiPredicate::Sgt, step[k], zero);
                let s = be.minsi(s, be.select(forward, dim, last));
                let i = be.addi(s, be.muli(be.loop_index(k), step[k]));
                let i = be.minsi(be.maxsi(i, zero), last);
                coords.push(i);
            }
            vec![be.extract(xt, &coords)]
        },
    );
    finish_root(kb, g, y)
}

/// Copies the window of input 0 at `offsets` with `strides` (the output's
/// dims as sizes, static or bound at run time: a slice of a constant up to
/// a symbolic length) to output 0, reading the `reversed` dims backwards
/// (static ones only).
fn strided_copy(
    kb: &mut KernelBuilder,
    op: OpId,
    offsets: &[i64],
    strides: &[i64],
    reversed: &[bool],
) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input 0");
    let y = data.results[0].expect("output 0");
    let (yd, _) = kb.shape(y)?;
    let sizes = kb.sizes(y)?;
    let window = sub_tensor(kb, kb.tensor(x), &Size::statics(offsets), &sizes, strides)?;
    let rank = yd.len();
    let cx = kb.e.cx;
    let exprs: Vec<Expr> = (0..rank)
        .map(|i| {
            if reversed[i] {
                Expr::constant(cx, yd[i] - 1) + d(cx, i) * -1
            } else {
                d(cx, i)
            }
        })
        .collect();
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &[(window, map(cx, rank, &exprs))],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |_, a| vec![a[0]],
    );
    if reversed.contains(&true) {
        // Tiling cannot slice an operand read backwards: one loop nest.
        let g = kb.structured(g);
        kb.define(y, g.result(0).expect("one result").into());
        Ok(())
    } else {
        finish_root(kb, g, y)
    }
}

/// `tensor.extract_slice` of `t` with `offsets` and `sizes` (static or
/// run-time) and static `strides`; a fresh tensor when it has no element
/// (MLIR refuses a static offset at a dim's end).
fn sub_tensor<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    t: MValue<'c, 'a>,
    offsets: &[Size<'c, 'a>],
    sizes: &[Size<'c, 'a>],
    strides: &[i64],
) -> Result<MValue<'c, 'a>> {
    let e = kb.e;
    if is_empty(sizes) {
        return Ok(e.empty(sizes, elem_of(t)));
    }
    Ok(e.extract_slice(t, offsets, sizes, strides))
}

/// `tensor.insert_slice` of `t` into `dest` at `offsets` (static or
/// run-time), `t`'s `sizes`, unit strides; `dest` itself when `t` has no
/// element.
fn insert<'c, 'a>(
    e: Emitter<'c, 'a>,
    t: MValue<'c, 'a>,
    dest: MValue<'c, 'a>,
    offsets: &[Size<'c, 'a>],
    sizes: &[Size<'c, 'a>],
) -> MValue<'c, 'a> {
    if is_empty(sizes) {
        return dest;
    }
    e.insert_slice(t, dest, offsets, sizes)
}

/// Whether `sizes` hold no element whatever the run-time ones are.
fn is_empty(sizes: &[Size]) -> bool {
    sizes.iter().any(|s| matches!(s, Size::Static(0)))
}

/// `a + b`, static when both are. A run-time sum is taken in `i64` and
/// cast back, so that each slice offset is one opaque value to
/// bufferization's check that a slice is written where it was read:
/// summed as `index`, every check re-derives the whole chain of sums
/// before it (cubic in the inputs; minutes for the 90-way Concat of a
/// detection head's per-class boxes).
fn add_sizes<'c, 'a>(e: Emitter<'c, 'a>, a: Size<'c, 'a>, b: Size<'c, 'a>) -> Size<'c, 'a> {
    match (a, b) {
        (Size::Static(x), Size::Static(y)) => Size::Static(x + y),
        _ => {
            let i64t = e.int_type(64);
            let sum = e.addi(
                e.index_cast(a.value(&e), i64t),
                e.index_cast(b.value(&e), i64t),
            );
            Size::Dynamic(e.index_cast(sum, Type::index(e.cx)))
        }
    }
}

pub(super) fn split(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let rank = kb.shape(x)?.0.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(0), rank);
    let mut offset = Size::Static(0);
    for &y in &data.results {
        let Some(y) = y else { continue };
        let sizes = kb.sizes(y)?;
        let mut offsets = vec![Size::Static(0); rank];
        offsets[axis] = offset;
        offset = add_sizes(kb.e, offset, sizes[axis]);
        let window = sub_tensor(kb, kb.tensor(x), &offsets, &sizes, &vec![1; rank])?;
        let init = kb.init(y)?;
        let id = identity_map(kb.e.cx, rank);
        let g = generic(
            kb.e,
            &[(window, id)],
            &[(init, id)],
            &vec![false; rank],
            |_, a| vec![a[0]],
        );
        let g = kb.structured(g);
        kb.define(y, g.result(0).expect("one result").into());
    }
    Ok(())
}

pub(super) fn concat(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let y = data.results[0].expect("output");
    let rank = kb.shape(y)?.0.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(0), rank);
    let mut acc = kb.init(y)?;
    let mut offset = Size::Static(0);
    for &x in data.inputs.iter().flatten() {
        let sizes = kb.sizes(x)?;
        if matches!(sizes[axis], Size::Static(0)) {
            continue;
        }
        let mut offsets = vec![Size::Static(0); rank];
        offsets[axis] = offset;
        offset = add_sizes(kb.e, offset, sizes[axis]);
        let dest = sub_tensor(kb, acc, &offsets, &sizes, &vec![1; rank])?;
        let id = identity_map(kb.e.cx, rank);
        let copy = generic(
            kb.e,
            &[(kb.tensor(x), id)],
            &[(dest, id)],
            &vec![false; rank],
            |_, a| vec![a[0]],
        );
        let copied: MValue = kb.structured(copy).result(0).expect("one result").into();
        acc = insert(kb.e, copied, acc, &offsets, &sizes);
    }
    kb.define(y, acc);
    Ok(())
}
