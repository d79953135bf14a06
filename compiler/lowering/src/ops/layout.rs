//! Data movement: Transpose, Concat, Split, Slice, Expand, Tile, Pad,
//! ConstantOfShape, Range, Trilu, EyeLike, DepthToSpace and SpaceToDepth (Reshape, Flatten, Squeeze, Unsqueeze and
//! Identity are views the plan resolves without code), and the Shape and
//! Size of tensors whose sizes are known only at run time (`fold-shapes`
//! turns the others into constants).
//!
//! | op | lowering | variants |
//! |---|---|---|
//! | Transpose | generic reading the input through the inverse permutation | `perm` (default: reversed) |
//! | Concat | a copy of each input into its slice of the output | all opsets |
//! | Split | one copy per output from its window of the input | all opsets (offsets from the inferred output shapes) |
//! | Slice | copy from a strided window of the input (`tensor.extract_slice`), reversed along negative steps; with bounds known only at run time, a generic computing each source index | attrs (1), constant or run-time inputs (10+), negative steps, clamping |
//! | Expand, Tile | generic reading broadcast (`0`) or wrapped (`i mod d`) indices | all opsets |
//! | Pad | generic computing each source index (`tensor.extract`) | constant, edge, reflect, wrap; pads/axes constant or read at run time |
//! | ConstantOfShape | `linalg.fill` | all opsets |
//! | Range | generic `start + i·delta` | numeric types (f16 and bf16 computed in f32, rounded once) |
//! | EyeLike | generic writing 1 where `j - i = k`, else 0 | `k`, `dtype` |
//! | DepthToSpace / SpaceToDepth | copy reading the input through `floordiv`/`mod` of the block size | DCR and CRD modes |
//! | Shape / Size | `tensor.from_elements` of the input's run-time sizes `[start, end)` (Size: their product) as int64 | all opsets (`start`/`end` clamped as in inference) |
//! | Trilu | generic keeping `x` where `j - i ≥ k` (upper) or `j - i ≤ k` (lower), else 0 | `upper`, `k` input (constant or run-time), all element types |
//!
//! With symbolic sizes (dynamic shapes), Shape, Size, Concat, Split,
//! Expand, Tile, Slice (opset 10 on, starts of static length),
//! ConstantOfShape, EyeLike, Trilu, Transpose and DepthToSpace/
//! SpaceToDepth take their sizes at run time (`KernelBuilder::sizes`), the
//! conditions they rely on checked at the model's entry
//! ([`runtime_checks`]).
//!
//! Each op with one output is a root over its output's loops
//! (`Schedule::Fused` without producers: chunked along the outer dims).

use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, Value};

use super::elementwise::broadcast_exprs;
use super::half;
use super::structured::{const_ints, norm_axis, per_axis};
use super::unsupported;
use crate::builder::{
    d, elem_of, fill, generic, identity_map, map, CmpiPredicate, Emitter, Expr, Size, DYNAMIC,
};
use crate::error::{LowerError, Result};
use crate::kernel::value_tensor;
use crate::kernel::KernelBuilder;
use crate::symbols::{graph_input, Check};
use crate::types::elem_type;

/// Lowers one data-movement op.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    match kb.model.ir.op(op).kind {
        OpKind::Transpose => transpose(kb, op),
        OpKind::Concat => concat(kb, op),
        OpKind::Split => split(kb, op),
        OpKind::Slice => slice(kb, op),
        OpKind::Expand => expand_or_tile(kb, op, false),
        OpKind::Tile => expand_or_tile(kb, op, true),
        OpKind::Pad => pad(kb, op),
        OpKind::ConstantOfShape => constant_of_shape(kb, op),
        OpKind::Range => range(kb, op),
        OpKind::Trilu => trilu(kb, op),
        OpKind::EyeLike => eye_like(kb, op),
        OpKind::DepthToSpace | OpKind::SpaceToDepth => depth_space(kb, op),
        OpKind::Shape | OpKind::Size => shape_or_size(kb, op),
        _ => Err(unsupported(kb, op, "no lowering for this operator yet")),
    }
}

/// Shape (dims `[start, end)`, negative bounds counted from the end and
/// clamped into `[0, rank]`) or Size (the product of every dim) of input 0,
/// from its run-time sizes: the symbols' polynomials evaluated, static
/// dims as constants.
fn shape_or_size(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let y = data.results[0].expect("output");
    let sizes = kb.sizes(x)?;
    let e = kb.e;
    let mut dims: Vec<MValue> = sizes.iter().map(|s| s.value(&e)).collect();
    if data.kind == OpKind::Size {
        let product = dims.into_iter().fold(e.index(1), |p, d| e.muli(p, d));
        dims = vec![product];
    } else {
        let r = dims.len() as i64;
        let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
        let start = clamp(data.attrs.int("start").unwrap_or(0));
        let end = clamp(data.attrs.int("end").unwrap_or(r));
        dims = dims[start..end.max(start)].to_vec();
    }
    let i64t = e.int_type(64);
    let elems: Vec<MValue> = dims.iter().map(|&d| e.index_cast(d, i64t)).collect();
    let t = e.from_elements(&elems, kb.tensor_type(y)?);
    kb.define(y, t);
    Ok(())
}

/// The run-time shape conditions of a data-movement op whose lowering
/// takes its sizes at run time, `None` for the others (which
/// `symbols::check_kernel` refuses with symbolic sizes): Shape and Size
/// need none; Concat's inputs (Split's outputs) agree with the output
/// (input) off the axis and their lengths along it add up to its length;
/// each of Expand's input dims is 1 or the output's; Expand's shape, Tile's
/// repeats and ConstantOfShape's shape, when they are graph inputs, give
/// the output's dims ([`Check::ShapeOperand`]; otherwise inference took
/// the output's dims from their known values); EyeLike and ReverseSequence
/// (`ops/index.rs`) keep the input's dims (and the sequence lengths are
/// one per batch entry); DepthToSpace/SpaceToDepth's dims scale by the
/// block; a Slice's counts follow from constant bounds
/// ([`Check::SliceLength`]) and its other dims are the input's.
pub(crate) fn runtime_checks(model: &Model, op: OpId) -> Result<Option<Vec<Check>>> {
    let data = model.ir.op(op);
    let dims = |v: Option<Value>| -> Result<Vec<Dim>> {
        let v = v.expect("a required operand");
        Ok(value_tensor(model, v)?.dims().unwrap_or_default().to_vec())
    };
    let mut out = vec![];
    match data.kind {
        OpKind::Shape | OpKind::Size => {}
        OpKind::Concat | OpKind::Split => {
            let (whole, parts) = if data.kind == OpKind::Concat {
                (data.results[0], &data.inputs)
            } else {
                (data.inputs[0], &data.results)
            };
            let whole = dims(whole)?;
            let axis = norm_axis(data.attrs.int("axis").unwrap_or(0), whole.len());
            let mut length = Dim::Known(0);
            for &part in parts {
                let part = dims(Some(part.ok_or_else(|| LowerError::Unsupported {
                    op: model.ir.describe_op(op),
                    message: "with symbolic sizes: an absent output".into(),
                })?))?;
                length = length.add(&part[axis]);
                for (j, (p, w)) in part.iter().zip(&whole).enumerate() {
                    if j != axis {
                        out.push(Check::Equal(p.clone(), w.clone()));
                    }
                }
            }
            out.push(Check::Equal(length, whole[axis].clone()));
        }
        OpKind::Expand | OpKind::Tile => {
            let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
            let tile = data.kind == OpKind::Tile;
            if !tile {
                let lead = y.len().saturating_sub(x.len());
                for (d, y) in x.iter().zip(&y[lead..]) {
                    out.push(Check::Broadcast(d.clone(), y.clone()));
                }
            }
            let operand = data.inputs[1].expect("shape / repeats");
            if let Some(input) = graph_input(model, operand) {
                out.push(Check::ShapeOperand {
                    input,
                    len: dims(Some(operand))?
                        .first()
                        .cloned()
                        .unwrap_or(Dim::Known(1)),
                    tile,
                    x,
                    y,
                });
            }
        }
        OpKind::Pad => {
            let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
            let rank = x.len();
            let operand = |i: usize| data.inputs.get(i).copied().flatten();
            let axes = match operand(3).filter(|_| data.version >= 18) {
                Some(v) => {
                    const_ints(model, v).map(|a| a.iter().map(|&a| norm_axis(a, rank)).collect())
                }
                None => Some((0..rank).collect::<Vec<_>>()),
            };
            let pads = if data.version < 11 {
                let name = if data.version < 2 { "paddings" } else { "pads" };
                data.attrs.ints(name).map(<[i64]>::to_vec)
            } else {
                operand(1).and_then(|v| const_ints(model, v))
            };
            match (pads, axes) {
                (Some(pads), Some(axes)) if pads.len() == 2 * axes.len() => {
                    let mut padded = x.clone();
                    for (k, &a) in axes.iter().enumerate() {
                        padded[a] = padded[a].add(&Dim::Known(pads[k] + pads[k + axes.len()]));
                    }
                    for (p, y) in padded.iter().zip(&y) {
                        out.push(Check::Equal(p.clone(), y.clone()));
                    }
                }
                _ if data.version >= 11 => {
                    // Read at run time: a leading and a trailing pad per
                    // axis.
                    let len = dims(operand(1))?[0].clone();
                    let count = match operand(3).filter(|_| data.version >= 18) {
                        Some(a) => dims(Some(a))?[0].clone(),
                        None => Dim::Known(rank as i64),
                    };
                    out.push(Check::Equal(len, count.scale(2)));
                }
                _ => {}
            }
        }
        OpKind::ConstantOfShape => {
            let shape = data.inputs[0].expect("shape");
            if let Some(input) = graph_input(model, shape) {
                out.push(Check::ShapeOperand {
                    input,
                    len: dims(Some(shape))?.first().cloned().unwrap_or(Dim::Known(1)),
                    tile: false,
                    x: vec![],
                    y: dims(data.results[0])?,
                });
            }
        }
        OpKind::Range => {
            // A symbolic length is inference's `ceil((limit - start) /
            // delta)` over the operands' symbolic values (shape
            // arithmetic the kernels compute exactly), so it holds at run
            // time; operands given as graph inputs have no such values.
            if data
                .inputs
                .iter()
                .flatten()
                .any(|&v| graph_input(model, v).is_some())
            {
                return Ok(None);
            }
        }
        OpKind::EyeLike => {
            let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
            for (d, y) in x.iter().zip(&y) {
                out.push(Check::Equal(d.clone(), y.clone()));
            }
        }
        OpKind::ReverseSequence => {
            // (`ops/index.rs`: a gather over the output, the time axis's
            // run-time size bounding the lengths)
            let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
            let lens = dims(data.inputs[1])?;
            let batch = norm_axis(data.attrs.int("batch_axis").unwrap_or(1), x.len());
            for (d, y) in x.iter().zip(&y) {
                out.push(Check::Equal(d.clone(), y.clone()));
            }
            if let [n] = &lens[..] {
                out.push(Check::Equal(n.clone(), x[batch].clone()));
            }
        }
        OpKind::DepthToSpace | OpKind::SpaceToDepth => {
            let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
            let b = Dim::Known(data.attrs.int("blocksize").unwrap_or(1));
            let bb = b.mul(&b);
            // (the side with the larger sizes, the side scaled by the block)
            let (big, small) = if data.kind == OpKind::DepthToSpace {
                (&y, &x)
            } else {
                (&x, &y)
            };
            if let ([n, c, h, w], [n2, c2, h2, w2]) = (&small[..], &big[..]) {
                out.push(Check::Equal(n.clone(), n2.clone()));
                out.push(Check::Equal(c.clone(), c2.mul(&bb)));
                out.push(Check::Equal(h.mul(&b), h2.clone()));
                out.push(Check::Equal(w.mul(&b), w2.clone()));
            }
        }
        OpKind::Slice => {
            let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
            let known = |i: usize| {
                data.inputs
                    .get(i)
                    .copied()
                    .flatten()
                    .map(|v| const_ints(model, v))
            };
            // The attribute form (opset 1), or inputs (opset 10 on): `None`
            // for an absent one, `Some(None)` for one known at run time only.
            let attr = |name: &str| data.attrs.ints(name).map(|v| Some(v.to_vec()));
            let [starts, ends, axes, steps] = match data.version {
                ..=9 => [attr("starts"), attr("ends"), attr("axes"), None],
                _ => [known(1), known(2), known(3), known(4)],
            };
            if let (Some(Some(starts)), Some(Some(ends))) = (starts, ends) {
                let axes = axes.map_or(Some((0..starts.len() as i64).collect()), |a| a);
                let steps = steps.map_or(Some(vec![1; starts.len()]), |s| s);
                if let (Some(axes), Some(steps)) = (axes, steps) {
                    let axes: Vec<usize> = axes.iter().map(|&a| norm_axis(a, x.len())).collect();
                    for (k, &a) in axes.iter().enumerate() {
                        if x[a].is_known() && y[a].is_known() {
                            continue; // inference clamped exactly
                        }
                        out.push(Check::SliceLength {
                            dim: x[a].clone(),
                            start: starts[k],
                            end: ends[k],
                            step: steps[k],
                            expected: y[a].clone(),
                        });
                    }
                    for (j, (d, y)) in x.iter().zip(&y).enumerate() {
                        if !axes.contains(&j) {
                            out.push(Check::Equal(d.clone(), y.clone()));
                        }
                    }
                }
            } else {
                // Read at run time: `axes` and `steps` have an entry for
                // each start.
                let n = dims(data.inputs[1])?;
                for i in [3, 4] {
                    if let Some(v) = data.inputs.get(i).copied().flatten() {
                        out.push(Check::Equal(dims(Some(v))?[0].clone(), n[0].clone()));
                    }
                }
            }
        }
        _ => return Ok(None),
    }
    // What holds at compile time needs no check.
    out.retain(|c| match c {
        Check::Equal(a, b) => a != b,
        Check::Broadcast(d, y) => crate::symbols::broadcast_at_run_time(d, y),
        _ => true,
    });
    Ok(Some(out))
}

/// Appends `g`, a generic over the loops of output `y`'s dims, as the
/// kernel's root and defines `y` as its result.
fn finish_root<'c>(
    kb: &mut KernelBuilder<'c, '_>,
    g: melior::ir::Operation<'c>,
    y: onnx_mlc_dialect::Value,
) -> Result<()> {
    let (dims, _) = kb.shape(y)?;
    super::structured::fused_root(kb, g, y, &dims);
    Ok(())
}

/// A one-input copy-like generic over output `y`'s loops reading input 0
/// through `exprs` (one affine expression per input dim); the kernel's
/// chunked root when `chunked`, else one loop nest.
fn gather_map<'c>(
    kb: &mut KernelBuilder<'c, '_>,
    op: OpId,
    exprs: &[Expr<'c>],
    chunked: bool,
) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input 0 is required");
    let y = data.results[0].expect("output 0 is produced");
    let rank = kb.shape(y)?.0.len();
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &[(kb.tensor(x), map(kb.e.cx, rank, exprs))],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |_, a| vec![a[0]],
    );
    if chunked {
        finish_root(kb, g, y)
    } else {
        let g = kb.structured(g);
        kb.define(y, g.result(0).expect("one result").into());
        Ok(())
    }
}

fn transpose(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let rank = kb.shape(data.inputs[0].expect("input"))?.0.len();
    let perm: Vec<usize> = match data.attrs.ints("perm") {
        Some(p) => p.iter().map(|&a| norm_axis(a, rank)).collect(),
        None => (0..rank).rev().collect(),
    };
    // Output dim k is input dim perm[k]: input dim j is read at loop k.
    let mut exprs = vec![None; rank];
    for (k, &j) in perm.iter().enumerate() {
        exprs[j] = Some(d(kb.e.cx, k));
    }
    let exprs: Vec<Expr> = exprs
        .into_iter()
        .map(|e| e.expect("perm is a permutation (verified)"))
        .collect();
    gather_map(kb, op, &exprs, true)
}

fn expand_or_tile(kb: &mut KernelBuilder, op: OpId, tile: bool) -> Result<()> {
    // Tiling a loop nest cannot slice an operand read through `mod`, so a
    // Tile is one unchunked loop nest.
    let data = kb.model.ir.op(op);
    let (xd, _) = kb.shape(data.inputs[0].expect("input"))?;
    let (yd, _) = kb.shape(data.results[0].expect("output"))?;
    if xd.iter().chain(&yd).any(|&d| d == DYNAMIC) {
        return wrapped_read(kb, op);
    }
    let cx = kb.e.cx;
    let exprs: Vec<Expr> = if tile {
        xd.iter()
            .enumerate()
            .map(|(i, &n)| match n {
                1 => Expr::constant(cx, 0),
                _ if n == yd[i] => d(cx, i),
                _ => d(cx, i) % n,
            })
            .collect()
    } else {
        broadcast_exprs(cx, &xd, &yd)
    };
    gather_map(kb, op, &exprs, !tile)
}

/// Expand or Tile with sizes known only at run time: one loop nest over
/// the output reading the input at `i mod n` along each dim of run-time
/// size `n`: Tile's definition, and Expand's broadcast read since each of
/// its input dims is 1 or the output's (checked at run time,
/// [`runtime_checks`]).
fn wrapped_read(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let x = kb.model.ir.op(op).inputs[0].expect("input");
    let sizes = kb.sizes(x)?;
    let rank = kb
        .shape(kb.model.ir.op(op).results[0].expect("output"))?
        .0
        .len();
    let lead = rank - sizes.len();
    let e = kb.e;
    // A size is at least 1 where the output is not empty.
    let sizes: Vec<Option<MValue>> = sizes
        .iter()
        .map(|s| match s {
            Size::Static(1) => None,
            s => Some(e.maxsi(s.value(&e), e.index(1))),
        })
        .collect();
    read_at(kb, op, |be, i| {
        sizes
            .iter()
            .enumerate()
            .map(|(j, n)| match n {
                None => be.index(0),
                Some(n) => be.remui(i[lead + j], *n),
            })
            .collect()
    })
}

/// One loop nest over output 0 of `op` reading input 0 at the coordinates
/// `coords` computes in the body from the loop indices: for index
/// arithmetic on sizes known only at run time, which affine maps cannot
/// take.
fn read_at<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    coords: impl for<'b> FnOnce(Emitter<'c, 'b>, &[MValue<'c, 'b>]) -> Vec<MValue<'c, 'b>>,
) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let y = data.results[0].expect("output");
    let rank = kb.shape(y)?.0.len();
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &[],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, _| {
            let i: Vec<MValue> = (0..rank).map(|k| be.loop_index(k)).collect();
            vec![be.extract(xt, &coords(be, &i))]
        },
    );
    let g = kb.structured(g);
    kb.define(y, g.result(0).expect("one result").into());
    Ok(())
}

fn slice(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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
    }
    strided_copy(kb, op, &offsets, &strides, &reversed)
}

/// Slice with starts, axes or steps known only at run time, or of an input
/// of symbolic sizes (opset 10 on): the output's (inferred) shape gives
/// each dim's count, so only each dim's first index and step are computed,
/// in the body, from the inputs and the input's run-time sizes (`ends` is
/// not needed). Indices are clamped into the input, so values that
/// disagree with the inferred shape read in bounds (and with constant
/// bounds, the model's entry checks the counts, [`runtime_checks`]).
fn slice_at_run_time(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let y = data.results[0].expect("output");
    let (xd, _) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    if xd.contains(&0) && !yd.contains(&0) {
        return Err(unsupported(kb, op, "a non-empty slice of an empty input"));
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
/// dims as sizes) to output 0, reading the `reversed` dims backwards.
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
    let window = sub_tensor(
        kb,
        kb.tensor(x),
        &Size::statics(offsets),
        &Size::statics(&yd),
        strides,
    )?;
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

/// `a + b`, static when both are.
fn add_sizes<'c, 'a>(e: Emitter<'c, 'a>, a: Size<'c, 'a>, b: Size<'c, 'a>) -> Size<'c, 'a> {
    match (a, b) {
        (Size::Static(x), Size::Static(y)) => Size::Static(x + y),
        _ => Size::Dynamic(e.addi(a.value(&e), b.value(&e))),
    }
}

fn split(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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

fn concat(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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

fn pad(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let y = data.results[0].expect("output");
    let (xd, elem) = kb.shape(x)?;
    let rank = xd.len();
    let mode = data.attrs.string("mode").unwrap_or("constant").to_string();
    if !matches!(mode.as_str(), "constant" | "edge" | "reflect" | "wrap") {
        return Err(unsupported(kb, op, &format!("pad mode '{mode}'")));
    }
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let axes_input = input(3).filter(|_| data.version >= 18);
    // Each dim's leading pad: known, or read from the inputs at run time.
    let begin = if data.version < 11 {
        let name = if data.version < 2 { "paddings" } else { "pads" };
        let pads = data.attrs.ints(name).unwrap_or_default();
        Begin::Known(
            (0..rank)
                .map(|i| pads.get(i).copied().unwrap_or(0))
                .collect(),
        )
    } else {
        let pads = input(1).expect("pads");
        let known_axes = match axes_input {
            Some(v) => const_ints(kb.model, v),
            None => Some((0..rank as i64).collect()),
        };
        match (const_ints(kb.model, pads), known_axes) {
            (Some(pads), Some(axes)) => {
                let mut begin = vec![0; rank];
                for (k, &a) in axes.iter().enumerate() {
                    begin[norm_axis(a, rank)] = pads[k];
                }
                Begin::Known(begin)
            }
            _ => Begin::AtRunTime {
                pads: kb.tensor(pads),
                axes: axes_input.map(|v| kb.tensor(v)),
                n: match kb.sizes(pads)?[0] {
                    Size::Static(len) => Size::Static(len / 2),
                    Size::Dynamic(len) => Size::Dynamic(kb.e.divui(len, kb.e.index(2))),
                },
            },
        }
    };
    // The constant value: an attribute before 11, an optional input after.
    let value_input = input(2).filter(|_| data.version >= 11);
    let value_attr = f64::from(data.attrs.float("value").unwrap_or(0.0));
    let has_value = value_input.is_some();
    let xt = kb.tensor(x);
    let sizes = kb.sizes(x)?;
    let init = kb.init(y)?;
    let mut ins = vec![];
    if let Some(v) = value_input {
        // A scalar, or (as the Attention function body passes it) a
        // one-element vector: every index of it is 0.
        let value_rank = kb.shape(v)?.0.len();
        let zeros = vec![Expr::constant(kb.e.cx, 0); value_rank];
        ins.push((kb.tensor(v), map(kb.e.cx, rank, &zeros)));
    }
    let e = kb.e;
    let scalar = elem_type(e.cx, elem)?;
    let g = generic(
        e,
        &ins,
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, a| {
            let index = Type::index(be.cx);
            let zero = be.i(index, 0);
            let begin = match &begin {
                Begin::Known(b) => b.iter().map(|&p| be.index(p)).collect(),
                Begin::AtRunTime { pads, axes, n } => per_axis(be, rank, *n, *axes, *pads, 0, 0),
            };
            let mut valid: Option<MValue> = None;
            let mut idx = vec![];
            for i in 0..rank {
                let src = be.subi(be.loop_index(i), begin[i]);
                let (n, dynamic) = match sizes[i] {
                    Size::Static(n) => (be.i(index, n), None),
                    // (a run-time size picks its case with a select, and
                    // divides by at least 1)
                    Size::Dynamic(n) => (n, Some(n)),
                };
                let last = be.maxsi(be.subi(n, be.i(index, 1)), zero);
                let clamped = be.minsi(be.maxsi(src, zero), last);
                let static_n = match sizes[i] {
                    Size::Static(n) => n,
                    Size::Dynamic(_) => i64::MAX,
                };
                let j = match mode.as_str() {
                    "edge" => clamped,
                    "reflect" if static_n > 1 => {
                        // Reflect about 0 and n-1 with period 2(n-1).
                        let period = be.addi(last, last);
                        let period = be.maxsi(period, be.i(index, 1));
                        let m = be.remsi(src, period);
                        let m =
                            be.select(be.cmpi(CmpiPredicate::Slt, m, zero), be.addi(m, period), m);
                        let back = be.subi(period, m);
                        let reflected = be.minsi(m, back);
                        match dynamic {
                            Some(n) => be.select(
                                be.cmpi(CmpiPredicate::Sgt, n, be.i(index, 1)),
                                reflected,
                                clamped,
                            ),
                            None => reflected,
                        }
                    }
                    "wrap" if static_n > 0 => {
                        let nn = be.maxsi(n, be.i(index, 1));
                        let m = be.remsi(src, nn);
                        be.select(be.cmpi(CmpiPredicate::Slt, m, zero), be.addi(m, nn), m)
                    }
                    "constant" => {
                        let inside = be.andi(
                            be.cmpi(CmpiPredicate::Sge, src, zero),
                            be.cmpi(CmpiPredicate::Slt, src, n),
                        );
                        valid = Some(match valid {
                            Some(v) => be.andi(v, inside),
                            None => inside,
                        });
                        clamped
                    }
                    _ => clamped,
                };
                idx.push(j);
            }
            let v = be.extract(xt, &idx);
            let v = match valid {
                Some(ok) => {
                    let c = if has_value {
                        a[0]
                    } else if elem.is_float() {
                        be.f(scalar, value_attr)
                    } else {
                        be.i(scalar, value_attr as i64)
                    };
                    be.select(ok, v, c)
                }
                None => v,
            };
            vec![v]
        },
    );
    finish_root(kb, g, y)
}

/// Pad's leading pad per dim.
enum Begin<'c, 'a> {
    /// Known at compile time.
    Known(Vec<i64>),
    /// Entries `0..n` of `pads` (the leading pads of `axes`, or of dims
    /// `0..n`), read at run time.
    AtRunTime {
        pads: MValue<'c, 'a>,
        axes: Option<MValue<'c, 'a>>,
        n: Size<'c, 'a>,
    },
}

fn constant_of_shape(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let y = data.results[0].expect("output");
    let (_, elem) = kb.shape(y)?;
    let value = data
        .attrs
        .tensor("value")
        .and_then(|t| t.to_f64s())
        .and_then(|v| v.first().copied())
        .unwrap_or(0.0);
    let init = kb.init(y)?;
    let e = kb.e;
    let ty = elem_of(init);
    let c = if elem.is_float() {
        e.f(ty, value)
    } else {
        e.i(ty, value as i64)
    };
    let r = kb.structured(fill(e, c, init));
    kb.define(y, r.result(0).expect("one result").into());
    Ok(())
}

fn range(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let start = data.inputs[0].expect("start");
    let delta = data.inputs[2].expect("delta");
    let y = data.results[0].expect("output");
    let (_, elem) = kb.shape(y)?;
    if elem == ElemType::Bool {
        return Err(unsupported(kb, op, &format!("{elem} ranges")));
    }
    let init = kb.init(y)?;
    let out_ty = elem_type(kb.e.cx, elem)?;
    let scalar = map(kb.e.cx, 1, &[]);
    let g = generic(
        kb.e,
        &[(kb.tensor(start), scalar), (kb.tensor(delta), scalar)],
        &[(init, identity_map(kb.e.cx, 1))],
        &[false],
        |be, a| {
            let i = be.loop_index(0);
            let v = if elem.is_float() {
                // `start + i·delta`, half precision in f32 rounded once.
                let (start, delta) = (half::widen(be, a[0]), half::widen(be, a[1]));
                let i = be.index_cast(i, be.int_type(64));
                let f = be.sitofp(i, start.r#type());
                let v = be.addf(start, be.mulf(f, delta));
                half::narrow(be, v, out_ty)
            } else {
                let ty = a[0].r#type();
                let i = be.index_cast(i, ty);
                be.addi(a[0], be.muli(i, a[1]))
            };
            vec![v]
        },
    );
    finish_root(kb, g, y)
}

/// Trilu: the upper (`j - i ≥ k`) or lower (`j - i ≤ k`) triangle of each
/// matrix of the last two dims, zero elsewhere; `k` (default 0) is a
/// scalar input read through the generic, so it may be known only at run
/// time.
fn trilu(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let y = data.results[0].expect("output");
    let (xd, elem) = kb.shape(x)?;
    let rank = xd.len();
    let upper = data.attrs.int("upper").unwrap_or(1) != 0;
    let mut ins = vec![(kb.tensor(x), identity_map(kb.e.cx, rank))];
    if let Some(k) = data.inputs.get(1).copied().flatten() {
        let (kd, _) = kb.shape(k)?;
        let zeros = vec![Expr::constant(kb.e.cx, 0); kd.len()];
        ins.push((kb.tensor(k), map(kb.e.cx, rank, &zeros)));
    }
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &ins,
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, a| {
            let i64t = be.int_type(64);
            let row = be.index_cast(be.loop_index(rank - 2), i64t);
            let col = be.index_cast(be.loop_index(rank - 1), i64t);
            let diff = be.subi(col, row);
            let k = if a.len() > 2 { a[1] } else { be.i(i64t, 0) };
            let keep = if upper {
                be.cmpi(CmpiPredicate::Sge, diff, k)
            } else {
                be.cmpi(CmpiPredicate::Sle, diff, k)
            };
            let ty = a[0].r#type();
            let zero = if elem.is_float() {
                be.f(ty, 0.0)
            } else {
                be.i(ty, 0)
            };
            vec![be.select(keep, a[0], zero)]
        },
    );
    finish_root(kb, g, y)
}

/// EyeLike: ones on the diagonal `j - i = k`, zeros elsewhere.
fn eye_like(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let y = data.results[0].expect("output");
    let (_, elem) = kb.shape(y)?;
    let k = data.attrs.int("k").unwrap_or(0);
    let init = kb.init(y)?;
    let ty = elem_of(init);
    let g = generic(
        kb.e,
        &[],
        &[(init, identity_map(kb.e.cx, 2))],
        &[false; 2],
        |be, _| {
            let diff = be.subi(be.loop_index(1), be.loop_index(0));
            let on = be.cmpi(CmpiPredicate::Eq, diff, be.index(k));
            let (one, zero) = if elem.is_float() {
                (be.f(ty, 1.0), be.f(ty, 0.0))
            } else {
                (be.i(ty, 1), be.i(ty, 0))
            };
            vec![be.select(on, one, zero)]
        },
    );
    finish_root(kb, g, y)
}

/// DepthToSpace / SpaceToDepth: a copy between `[N, C·b², H, W]` and
/// `[N, C, H·b, W·b]`, output pixel `(h·b + i, w·b + j)` of channel `c`
/// taking channel `(i·b + j)·C + c` (DCR) or `c·b² + i·b + j` (CRD) of
/// input pixel `(h, w)`; SpaceToDepth (`mode` from opset 28) is the
/// inverse.
fn depth_space(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let (xd, _) = kb.shape(data.inputs[0].expect("input"))?;
    let (yd, _) = kb.shape(data.results[0].expect("output"))?;
    let b = data.attrs.int("blocksize").unwrap_or(1);
    if xd.len() != 4 {
        return Err(unsupported(kb, op, "inputs that are not 4-D"));
    }
    if b < 1 {
        return Err(unsupported(kb, op, &format!("blocksize {b}")));
    }
    let crd = data.attrs.string("mode").unwrap_or("DCR") == "CRD";
    if xd.iter().chain(&yd).any(|&d| d == DYNAMIC) {
        return depth_space_at_run_time(kb, op, b, crd);
    }
    let d = |i: usize| d(kb.e.cx, i);
    let exprs: Vec<Expr> = if data.kind == OpKind::DepthToSpace {
        let (i, j) = (d(2) % b, d(3) % b);
        let channel = if crd {
            d(1) * (b * b) + i * b + j
        } else {
            (i * b + j) * yd[1] + d(1)
        };
        vec![d(0), channel, d(2).floordiv(b), d(3).floordiv(b)]
    } else if crd {
        let bb = b * b;
        vec![
            d(0),
            d(1).floordiv(bb),
            d(2) * b + (d(1) % bb).floordiv(b),
            d(3) * b + d(1) % b,
        ]
    } else {
        let c = xd[1];
        vec![
            d(0),
            d(1) % c,
            d(2) * b + d(1).floordiv(c).floordiv(b),
            d(3) * b + d(1).floordiv(c) % b,
        ]
    };
    gather_map(kb, op, &exprs, false)
}

/// [`depth_space`] with sizes known only at run time: the same coordinates
/// computed in the body, DCR's channel count (the output's for
/// DepthToSpace, the input's for SpaceToDepth) a run-time size.
fn depth_space_at_run_time(kb: &mut KernelBuilder, op: OpId, b: i64, crd: bool) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let to_space = data.kind == OpKind::DepthToSpace;
    let channels = if to_space {
        kb.sizes(data.results[0].expect("output"))?[1]
    } else {
        kb.sizes(data.inputs[0].expect("input"))?[1]
    };
    let channels = channels.value(&kb.e);
    read_at(kb, op, |be, i| {
        let k = |v: i64| be.index(v);
        let (add, mul) = (|a, c| be.addi(a, c), |a, c| be.muli(a, c));
        let (div, rem) = (|a, c| be.divui(a, c), |a, c| be.remui(a, c));
        if to_space {
            let (r, s) = (rem(i[2], k(b)), rem(i[3], k(b)));
            let block = add(mul(r, k(b)), s);
            let channel = if crd {
                add(mul(i[1], k(b * b)), block)
            } else {
                add(mul(block, channels), i[1])
            };
            vec![i[0], channel, div(i[2], k(b)), div(i[3], k(b))]
        } else {
            let (channel, block) = if crd {
                (div(i[1], k(b * b)), rem(i[1], k(b * b)))
            } else {
                (rem(i[1], channels), div(i[1], channels))
            };
            vec![
                i[0],
                channel,
                add(mul(i[2], k(b)), div(block, k(b))),
                add(mul(i[3], k(b)), rem(block, k(b))),
            ]
        }
    })
}
