//! Data movement: Transpose, Concat, Split, Slice, Expand, Tile, Pad,
//! ConstantOfShape, Range, Trilu, EyeLike, DepthToSpace and SpaceToDepth (Reshape, Flatten, Squeeze, Unsqueeze and
//! Identity are views the plan resolves without code).
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
//! | Trilu | generic keeping `x` where `j - i ≥ k` (upper) or `j - i ≤ k` (lower), else 0 | `upper`, `k` input (constant or run-time), all element types |
//!
//! Each op with one output is a root over its output's loops
//! (`Schedule::Fused` without producers: chunked along the outer dims).

use melior::ir::attribute::DenseI64ArrayAttribute;
use melior::ir::r#type::RankedTensorType;
use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, OpKind};

use super::elementwise::{broadcast_map, identity_map};
use super::half;
use super::structured::{
    const_ints, elem_of, generic, loop_index, map, named, norm_axis, per_axis,
};
use super::unsupported;
use crate::emit::Emitter;
use crate::error::Result;
use crate::kernel::KernelBuilder;
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
        _ => Err(unsupported(kb, op, "no lowering for this operator yet")),
    }
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
fn gather_map(kb: &mut KernelBuilder, op: OpId, exprs: &[String], chunked: bool) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input 0 is required");
    let y = data.results[0].expect("output 0 is produced");
    let rank = kb.shape(y)?.0.len();
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &[(kb.tensor(x), map(rank, exprs))],
        &[(init, identity_map(rank))],
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
    let mut exprs = vec![String::new(); rank];
    for (k, &j) in perm.iter().enumerate() {
        exprs[j] = format!("d{k}");
    }
    gather_map(kb, op, &exprs, true)
}

fn expand_or_tile(kb: &mut KernelBuilder, op: OpId, tile: bool) -> Result<()> {
    // Tiling a loop nest cannot slice an operand read through `mod`, so a
    // Tile is one unchunked loop nest.
    let data = kb.model.ir.op(op);
    let (xd, _) = kb.shape(data.inputs[0].expect("input"))?;
    let (yd, _) = kb.shape(data.results[0].expect("output"))?;
    let exprs: Vec<String> = if tile {
        xd.iter()
            .enumerate()
            .map(|(i, &d)| match d {
                1 => "0".to_string(),
                _ if d == yd[i] => format!("d{i}"),
                _ => format!("d{i} mod {d}"),
            })
            .collect()
    } else {
        let m = broadcast_map(&xd, &yd);
        let inner = m
            .split("-> (")
            .nth(1)
            .expect("a map")
            .trim_end_matches(")>");
        inner
            .split(", ")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    };
    gather_map(kb, op, &exprs, !tile)
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

/// Slice with starts, axes or steps known only at run time: the output's
/// (inferred) shape gives each dim's count, so only each dim's first index
/// and step are computed, in the body, from the inputs (`ends` is not
/// needed). Indices are clamped into the input, so values that disagree
/// with the inferred shape read in bounds.
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
    let starts = data.inputs[1].expect("starts");
    let n = kb.shape(starts)?.0[0] as usize;
    let tensor = |i: usize| data.inputs.get(i).copied().flatten().map(|v| kb.tensor(v));
    let (st, axes, steps) = (kb.tensor(starts), tensor(3), tensor(4));
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let e = kb.e;
    let scalar = elem_of(xt);
    let g = generic(
        e,
        &[],
        &[(init, identity_map(rank))],
        &vec![false; rank],
        |be, _| {
            let zero = be.index(0);
            let begin = per_axis(be, rank, n, axes, st, 0, 0);
            let step = match steps {
                Some(t) => per_axis(be, rank, n, axes, t, 0, 1),
                None => vec![be.index(1); rank],
            };
            let mut coords = vec![xt];
            for k in 0..rank {
                let dim = be.index(xd[k]);
                let last = be.index((xd[k] - 1).max(0));
                let s = begin[k];
                let s = be.select(
                    be.cmp("arith.cmpi", 2, s, zero),
                    be.same("arith.addi", &[s, dim]),
                    s,
                );
                let s = be.same("arith.maxsi", &[s, zero]);
                // A positive step starts at most at the end, a negative one
                // at the last element.
                let forward = be.cmp("arith.cmpi", 4, step[k], zero);
                let s = be.same("arith.minsi", &[s, be.select(forward, dim, last)]);
                let i = be.same(
                    "arith.addi",
                    &[s, be.same("arith.muli", &[loop_index(be, k), step[k]])],
                );
                let i = be.same("arith.minsi", &[be.same("arith.maxsi", &[i, zero]), last]);
                coords.push(i);
            }
            vec![be.value(be.op("tensor.extract", &coords, &[scalar], &[]))]
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
    let window = extract(kb, kb.tensor(x), offsets, &yd, strides)?;
    let rank = yd.len();
    let exprs: Vec<String> = (0..rank)
        .map(|i| {
            if reversed[i] {
                format!("{} - d{i}", yd[i] - 1)
            } else {
                format!("d{i}")
            }
        })
        .collect();
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &[(window, map(rank, &exprs))],
        &[(init, identity_map(rank))],
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

/// `tensor.extract_slice` of `t` with static offsets, sizes and strides.
fn extract<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    t: MValue<'c, 'a>,
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
) -> Result<MValue<'c, 'a>> {
    let e = kb.e;
    let ty: Type = RankedTensorType::new(
        &sizes.iter().map(|&d| d as u64).collect::<Vec<_>>(),
        elem_of(t),
        None,
    )
    .into();
    let mut attrs = slice_attrs(e, offsets, sizes, strides);
    attrs.push(("operandSegmentSizes", e.segments(&[1, 0, 0, 0])));
    Ok(e.value(e.op("tensor.extract_slice", &[t], &[ty], &attrs)))
}

fn split(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let rank = kb.shape(x)?.0.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(0), rank);
    let mut offset = 0;
    for &y in &data.results {
        let Some(y) = y else { continue };
        let (yd, _) = kb.shape(y)?;
        let mut offsets = vec![0; rank];
        offsets[axis] = offset;
        offset += yd[axis];
        let window = extract(kb, kb.tensor(x), &offsets, &yd, &vec![1; rank])?;
        let init = kb.init(y)?;
        let id = identity_map(rank);
        let g = generic(
            kb.e,
            &[(window, id.clone())],
            &[(init, id)],
            &vec![false; rank],
            |_, a| vec![a[0]],
        );
        let g = kb.structured(g);
        kb.define(y, g.result(0).expect("one result").into());
    }
    Ok(())
}

/// `tensor.extract_slice` / `tensor.insert_slice` static attributes.
fn slice_attrs<'c>(
    e: Emitter<'c, '_>,
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
) -> Vec<(&'static str, melior::ir::Attribute<'c>)> {
    vec![
        (
            "static_offsets",
            DenseI64ArrayAttribute::new(e.cx, offsets).into(),
        ),
        (
            "static_sizes",
            DenseI64ArrayAttribute::new(e.cx, sizes).into(),
        ),
        (
            "static_strides",
            DenseI64ArrayAttribute::new(e.cx, strides).into(),
        ),
    ]
}

fn concat(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let y = data.results[0].expect("output");
    let (yd, elem) = kb.shape(y)?;
    let rank = yd.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(0), rank);
    let mut acc = kb.init(y)?;
    let mut offset = 0;
    for &x in data.inputs.iter().flatten() {
        let (xd, _) = kb.shape(x)?;
        if xd[axis] == 0 {
            continue;
        }
        let mut offsets = vec![0; rank];
        offsets[axis] = offset;
        offset += xd[axis];
        let e = kb.e;
        let slice_ty: Type = RankedTensorType::new(
            &xd.iter().map(|&d| d as u64).collect::<Vec<_>>(),
            elem_type(e.cx, elem)?,
            None,
        )
        .into();
        let mut attrs = slice_attrs(e, &offsets, &xd, &vec![1; rank]);
        attrs.push(("operandSegmentSizes", e.segments(&[1, 0, 0, 0])));
        let dest = e.value(e.op("tensor.extract_slice", &[acc], &[slice_ty], &attrs));
        let id = identity_map(rank);
        let copy = generic(
            e,
            &[(kb.tensor(x), id.clone())],
            &[(dest, id)],
            &vec![false; rank],
            |_, a| vec![a[0]],
        );
        let copied: MValue = kb.structured(copy).result(0).expect("one result").into();
        let e = kb.e;
        let mut attrs = slice_attrs(e, &offsets, &xd, &vec![1; rank]);
        attrs.push(("operandSegmentSizes", e.segments(&[1, 1, 0, 0, 0])));
        acc = e.value(e.op(
            "tensor.insert_slice",
            &[copied, acc],
            &[acc.r#type()],
            &attrs,
        ));
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
                n: kb.shape(pads)?.0[0] as usize / 2,
            },
        }
    };
    // The constant value: an attribute before 11, an optional input after.
    let value_input = input(2).filter(|_| data.version >= 11);
    let value_attr = f64::from(data.attrs.float("value").unwrap_or(0.0));
    let has_value = value_input.is_some();
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let mut ins = vec![];
    if let Some(v) = value_input {
        // A scalar, or (as the Attention function body passes it) a
        // one-element vector: every index of it is 0.
        let value_rank = kb.shape(v)?.0.len();
        ins.push((kb.tensor(v), map(rank, &vec!["0".to_string(); value_rank])));
    }
    let e = kb.e;
    let scalar = elem_type(e.cx, elem)?;
    let g = generic(
        e,
        &ins,
        &[(init, identity_map(rank))],
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
                let n = xd[i];
                let src = be.same("arith.subi", &[loop_index(be, i), begin[i]]);
                let last = be.i(index, (n - 1).max(0));
                let clamped = be.same("arith.minsi", &[be.same("arith.maxsi", &[src, zero]), last]);
                let j = match mode.as_str() {
                    "edge" => clamped,
                    "reflect" if n > 1 => {
                        // Reflect about 0 and n-1 with period 2(n-1).
                        let period = be.i(index, 2 * (n - 1));
                        let m = be.same("arith.remsi", &[src, period]);
                        let m = be.select(
                            be.cmp("arith.cmpi", 2, m, zero),
                            be.same("arith.addi", &[m, period]),
                            m,
                        );
                        let back = be.same("arith.subi", &[period, m]);
                        be.same("arith.minsi", &[m, back])
                    }
                    "wrap" if n > 0 => {
                        let nn = be.i(index, n);
                        let m = be.same("arith.remsi", &[src, nn]);
                        be.select(
                            be.cmp("arith.cmpi", 2, m, zero),
                            be.same("arith.addi", &[m, nn]),
                            m,
                        )
                    }
                    "constant" => {
                        let inside = be.same(
                            "arith.andi",
                            &[
                                be.cmp("arith.cmpi", 5, src, zero),
                                be.cmp("arith.cmpi", 2, src, be.i(index, n)),
                            ],
                        );
                        valid = Some(match valid {
                            Some(v) => be.same("arith.andi", &[v, inside]),
                            None => inside,
                        });
                        clamped
                    }
                    _ => clamped,
                };
                idx.push(j);
            }
            let mut operands = vec![xt];
            operands.extend(idx);
            let v = be.value(be.op("tensor.extract", &operands, &[scalar], &[]));
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
        n: usize,
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
    let fill = named(e, "linalg.fill", &[c], init);
    let r = kb.structured(fill);
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
    let scalar = map(1, &[]);
    let g = generic(
        kb.e,
        &[
            (kb.tensor(start), scalar.clone()),
            (kb.tensor(delta), scalar),
        ],
        &[(init, identity_map(1))],
        &[false],
        |be, a| {
            let i = loop_index(be, 0);
            let v = if elem.is_float() {
                // `start + i·delta`, half precision in f32 rounded once.
                let (start, delta) = (half::widen(be, a[0]), half::widen(be, a[1]));
                let i = be.convert("arith.index_cast", i, be.int_type(64));
                let f = be.convert("arith.sitofp", i, start.r#type());
                let v = be.same("arith.addf", &[start, be.same("arith.mulf", &[f, delta])]);
                half::narrow(be, v, out_ty)
            } else {
                let ty = a[0].r#type();
                let i = be.convert("arith.index_cast", i, ty);
                be.same("arith.addi", &[a[0], be.same("arith.muli", &[i, a[1]])])
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
    let mut ins = vec![(kb.tensor(x), identity_map(rank))];
    if let Some(k) = data.inputs.get(1).copied().flatten() {
        let (kd, _) = kb.shape(k)?;
        ins.push((kb.tensor(k), map(rank, &vec!["0".to_string(); kd.len()])));
    }
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &ins,
        &[(init, identity_map(rank))],
        &vec![false; rank],
        |be, a| {
            let i64t = be.int_type(64);
            let row = be.convert("arith.index_cast", loop_index(be, rank - 2), i64t);
            let col = be.convert("arith.index_cast", loop_index(be, rank - 1), i64t);
            let diff = be.same("arith.subi", &[col, row]);
            let k = if a.len() > 2 { a[1] } else { be.i(i64t, 0) };
            // sge (5) for the upper triangle, sle (3) for the lower.
            let keep = be.cmp("arith.cmpi", if upper { 5 } else { 3 }, diff, k);
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
        &[(init, identity_map(2))],
        &[false; 2],
        |be, _| {
            let diff = be.same("arith.subi", &[loop_index(be, 1), loop_index(be, 0)]);
            let on = be.cmp("arith.cmpi", 0, diff, be.index(k));
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
    let exprs: Vec<String> = if data.kind == OpKind::DepthToSpace {
        let (i, j) = (format!("(d2 mod {b})"), format!("(d3 mod {b})"));
        let channel = if crd {
            format!("d1 * {} + {i} * {b} + {j}", b * b)
        } else {
            format!("({i} * {b} + {j}) * {} + d1", yd[1])
        };
        vec![
            "d0".into(),
            channel,
            format!("d2 floordiv {b}"),
            format!("d3 floordiv {b}"),
        ]
    } else if crd {
        let bb = b * b;
        vec![
            "d0".into(),
            format!("d1 floordiv {bb}"),
            format!("d2 * {b} + (d1 mod {bb}) floordiv {b}"),
            format!("d3 * {b} + d1 mod {b}"),
        ]
    } else {
        let c = xd[1];
        vec![
            "d0".into(),
            format!("d1 mod {c}"),
            format!("d2 * {b} + (d1 floordiv {c}) floordiv {b}"),
            format!("d3 * {b} + (d1 floordiv {c}) mod {b}"),
        ]
    };
    gather_map(kb, op, &exprs, false)
}
