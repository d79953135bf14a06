//! Data movement (the dialect's `ops/layout.rs` family): Transpose,
//! Expand, Tile, DepthToSpace and SpaceToDepth (`copy.rs`), Concat, Split
//! and Slice (`slice.rs`), Pad and CenterCropPad (`pad.rs`),
//! ConstantOfShape, Range, Trilu, EyeLike, and the Shape and Size of
//! tensors whose sizes are known only at run time (`generate.rs`;
//! `fold-shapes` turns the others into constants). Reshape, Flatten,
//! Squeeze, Unsqueeze and Identity are views the plan resolves without
//! code.
//!
//! | op | lowering | variants |
//! |---|---|---|
//! | Transpose | generic reading the input through the inverse permutation | `perm` (default: reversed) |
//! | Concat | a copy of each input into its slice of the output | all opsets |
//! | Split | one copy per output from its window of the input | all opsets (offsets from the inferred output shapes) |
//! | Slice | copy from a strided window of the input (`tensor.extract_slice`), reversed along negative steps; with bounds known only at run time, a generic computing each source index | attrs (1), constant or run-time inputs (10+), negative steps, clamping |
//! | Expand, Tile | generic reading broadcast (`0`) or wrapped (`i mod d`) indices | all opsets |
//! | Pad | generic computing each source index (`tensor.extract`) | constant, edge, reflect, wrap; pads/axes constant or read at run time |
//! | CenterCropPad (18) | a centered crop or zero pad of each axis to the output's extent | any element type, `axes` |
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
//! conditions they rely on checked at the model's entry ([`checks`]).
//! CenterCropPad (a crop or pad of each axis) is one more generic over
//! the output.
//!
//! Each op with one output is a root over its output's loops
//! (`Schedule::Fused` without producers: chunked along the outer dims).

mod copy;
mod generate;
mod pad;
mod slice;

use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::schema::LayoutOp;
use onnx_mlc_dialect::{Dim, Model, OpKind, Value};

use crate::error::{LowerError, Result};
use crate::kernel::KernelBuilder;
use crate::ops::common::{const_ints, norm_axis};
use crate::symbols::{broadcast_at_run_time, graph_input, is_dynamic, Check, Symbolic};
use crate::types::value_tensor;

/// Lowers one data-movement op.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: LayoutOp) -> Result<()> {
    use LayoutOp::*;
    match which {
        Transpose => copy::transpose(kb, op),
        Concat => slice::concat(kb, op),
        Split => slice::split(kb, op),
        Slice => slice::slice(kb, op),
        Expand => copy::expand_or_tile(kb, op, false),
        Tile => copy::expand_or_tile(kb, op, true),
        Pad => pad::pad(kb, op),
        CenterCropPad => pad::center_crop_pad(kb, op),
        ConstantOfShape => generate::constant_of_shape(kb, op),
        Range => generate::range(kb, op),
        Trilu => generate::trilu(kb, op),
        EyeLike => generate::eye_like(kb, op),
        DepthToSpace | SpaceToDepth => copy::depth_space(kb, op),
        Shape | Size => generate::shape_or_size(kb, op),
        // Views and constants, which the plan resolves without code.
        Reshape | Flatten | Squeeze | Unsqueeze | Identity | Constant => Err(kb.not_lowered(op)),
    }
}

/// How a data-movement op takes symbolic sizes: Transpose and Trilu (one
/// generic over the output) take theirs at run time; the conditions the
/// others rely on, checked at the model's entry for the kernels with
/// symbolic sizes (static kernels keep their shapes from inference alone):
/// Shape and Size need none; Concat's inputs (Split's outputs) agree with the output
/// (input) off the axis and their lengths along it add up to its length;
/// each of Expand's input dims is 1 or the output's; Expand's shape, Tile's
/// repeats and ConstantOfShape's shape, when they are graph inputs, give
/// the output's dims ([`Check::ShapeOperand`]; otherwise inference took
/// the output's dims from their known values); EyeLike keeps the input's
/// dims; DepthToSpace/SpaceToDepth's dims scale by the
/// block; a Slice's counts follow from constant bounds
/// ([`Check::SliceLength`]) and its other dims are the input's.
pub(crate) fn checks(model: &Model, op: OpId, which: LayoutOp) -> Result<Symbolic> {
    use LayoutOp::*;
    let data = model.ir.op(op);
    let dims = |v: Option<Value>| -> Result<Vec<Dim>> {
        let v = v.expect("a required operand");
        Ok(value_tensor(model, v)?.dims().unwrap_or_default().to_vec())
    };
    let mut out = vec![];
    match which {
        Shape | Size => {}
        Concat | Split => {
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
        Expand | Tile => {
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
        Pad => {
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
        ConstantOfShape => {
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
        Range => {
            // A symbolic length is inference's `ceil((limit - start) /
            // delta)` over the operands' symbolic values (shape
            // arithmetic the kernels compute exactly), so it holds at run
            // time; or a symbol of its own, which the run time sized from
            // these operands (a host program's `sizes` step). Operands
            // given as graph inputs have no symbolic values.
            let named = dims(data.results[0])?
                .first()
                .is_some_and(|d| d.as_named().is_some());
            if !named
                && data
                    .inputs
                    .iter()
                    .flatten()
                    .any(|&v| graph_input(model, v).is_some())
            {
                return Ok(Symbolic::not_yet());
            }
        }
        EyeLike => {
            let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
            for (d, y) in x.iter().zip(&y) {
                out.push(Check::Equal(d.clone(), y.clone()));
            }
        }
        DepthToSpace | SpaceToDepth => {
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
        Slice => {
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
        Transpose | Trilu => return Ok(Symbolic::checked(vec![])),
        CenterCropPad => return Ok(Symbolic::of(pad::center_crop_pad_checks(model, data))),
        Reshape | Flatten | Squeeze | Unsqueeze | Identity | Constant => {
            return Ok(Symbolic::not_yet())
        }
    }
    // What holds at compile time needs no check.
    out.retain(|c| match c {
        Check::Equal(a, b) => a != b,
        Check::Broadcast(d, y) => broadcast_at_run_time(d, y),
        _ => true,
    });
    if !is_dynamic(model, &[op]) {
        out.clear();
    }
    Ok(Symbolic::checked(out))
}
