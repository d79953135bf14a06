//! Indexed reads: one `linalg.generic` over the output's loops that reads
//! the index through its indexing map (or `tensor.extract`, GatherND's
//! index rows) and the data with `tensor.extract`. Indices are wrapped
//! when negative and clamped to the axis, so an out-of-range index reads
//! the nearest row instead of out of bounds.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, Model, OpKind, Value};

use crate::builder::{generic, identity_map, projection, CmpiPredicate, Emitter, Size};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{const_data, fused_root, norm_axis};
use crate::symbols::{graph_input, sized_dims, Check};
use crate::types::value_tensor;

/// Gather or GatherElements.
pub(super) fn gather(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("data");
    let indices = data.inputs[1].expect("indices");
    let y = data.results[0].expect("output");
    let (xd, _) = kb.shape(x)?;
    let (id, _) = kb.shape(indices)?;
    let (yd, _) = kb.shape(y)?;
    let r = xd.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(0), r);
    let elements = data.kind == OpKind::GatherElements;
    let n = yd.len();
    let idx_map = if elements {
        identity_map(kb.e.cx, n)
    } else {
        projection(kb.e.cx, n, axis..axis + id.len())
    };
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let e = kb.e;
    let xs: Vec<MValue> = kb.sizes(x)?.iter().map(|s| s.value(&e)).collect();
    // GatherElements reads the data at the indices' coordinates off the
    // axis: where the two sizes are symbols not known to agree, the
    // coordinate is clamped into the data (the spec requires the indices'
    // dims to be at most the data's; this keeps bad inputs in bounds).
    let dims = |v| value_tensor(kb.model, v).map(|t| t.dims().unwrap_or_default().to_vec());
    let (x_dims, i_dims) = (dims(x)?, dims(indices)?);
    let clamped: Vec<bool> = (0..r)
        .map(|k| elements && k != axis && x_dims.get(k) != i_dims.get(k))
        .collect();
    let g = generic(
        e,
        &[(kb.tensor(indices), idx_map)],
        &[(init, identity_map(kb.e.cx, n))],
        &vec![false; n],
        |be, a| {
            let j = wrap_index(be, a[0], xs[axis]);
            let mut coords = vec![];
            for k in 0..r {
                coords.push(if k == axis {
                    j
                } else if clamped[k] {
                    let last = be.subi(xs[k], be.index(1));
                    be.minsi(be.loop_index(k), last)
                } else if elements || k < axis {
                    be.loop_index(k)
                } else {
                    be.loop_index(k + id.len() - 1)
                });
            }
            vec![be.extract(xt, &coords)]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// GatherND: output dims are the indices' dims but the last, then the
/// data dims after the `batch_dims` and the `q` indexed ones; each output
/// element reads the data at its batch coordinates, the `q` indices of
/// its index row (wrapped and clamped like Gather's) and its trailing
/// coordinates.
pub(super) fn gather_nd(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("data");
    let indices = data.inputs[1].expect("indices");
    let y = data.results[0].expect("output");
    let (xd, _) = kb.shape(x)?;
    let (id, _) = kb.shape(indices)?;
    let (yd, _) = kb.shape(y)?;
    let b = data.attrs.int("batch_dims").unwrap_or(0).max(0) as usize;
    let Some(q) = nd_depth(xd.len(), id.len(), yd.len(), b) else {
        return Err(kb.unsupported(op, "indices that do not fit the data's rank"));
    };
    let lead = id.len() - 1;
    let e = kb.e;
    let xs: Vec<MValue> = kb.sizes(x)?.iter().map(|s| s.value(&e)).collect();
    let (xt, it) = (kb.tensor(x), kb.tensor(indices));
    let init = kb.init(y)?;
    let n = yd.len();
    let g = generic(
        kb.e,
        &[],
        &[(init, identity_map(kb.e.cx, n))],
        &vec![false; n],
        |be, _| {
            let o: Vec<MValue> = (0..n).map(|k| be.loop_index(k)).collect();
            let mut coords = o[..b].to_vec();
            for c in 0..q {
                let mut at = o[..lead].to_vec();
                at.push(be.index(c as i64));
                let i = be.extract(it, &at);
                coords.push(wrap_index(be, i, xs[b + c]));
            }
            coords.extend(&o[lead..]);
            vec![be.extract(xt, &coords)]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// How many data dims each index row of a GatherND names (the indices'
/// last dim), from the ranks of the data, the indices and the output and
/// `batch_dims` (the output has the indices' leading dims, then the data
/// dims after the batch and indexed ones); `None` when they do not fit.
fn nd_depth(x: usize, i: usize, y: usize, b: usize) -> Option<usize> {
    let lead = i.checked_sub(1)?;
    let q = (x + lead).checked_sub(y)?.checked_sub(b)?;
    (b < i && b + q <= x).then_some(q)
}

/// The checks of a GatherND with symbolic sizes (`ops::entry_checks`): the
/// indices' last dim is the depth the ranks give ([`nd_depth`]), their
/// leading dims are the output's and the batch dims the data's, and the
/// output's trailing dims are the data's after the indexed ones (the
/// lowering loops over the output and wraps and clamps each index into
/// the data's run-time size). An error names what cannot be lowered.
pub(super) fn gather_nd_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let (x, id, y) = (
        dims(data.inputs[0])?,
        dims(data.inputs[1])?,
        dims(data.results[0])?,
    );
    let b = data.attrs.int("batch_dims").unwrap_or(0).max(0) as usize;
    let q =
        nd_depth(x.len(), id.len(), y.len(), b).ok_or("indices that do not fit the data's rank")?;
    let lead = id.len() - 1;
    let depth = Dim::Known(q as i64);
    let pairs = [(&id[lead], &depth)]
        .into_iter()
        .chain(id[..lead].iter().zip(&y[..lead]))
        .chain(x[..b].iter().zip(&y[..b]))
        .chain(x[b + q..].iter().zip(&y[lead..]));
    let mut out = vec![];
    for (a, c) in pairs {
        let check = Check::Equal(a.clone(), c.clone());
        if a != c && !out.contains(&check) {
            out.push(check);
        }
    }
    Ok(out)
}

/// The checks of a OneHot with symbolic sizes (`ops::entry_checks`): the
/// indices' dims equal the output's other dims, `values` has two
/// elements, and the `depth` input, when it is a graph input (a scalar),
/// is the output's depth (which the lowering takes from the output's
/// type). A depth the model computes is a symbol the run time sized from
/// that very value (a host program's `sizes` step), or refused when the
/// output's depth is static. An error names what cannot be lowered.
pub(super) fn one_hot_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let (id, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
    let values = dims(data.inputs[2])?;
    if id.len() + 1 != y.len() || values.len() != 1 {
        return Err("an output rank other than the indices' plus one");
    }
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(-1), y.len());
    let depth = y[axis].clone();
    let kept = y
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != axis)
        .map(|(_, d)| d);
    let mut out: Vec<Check> = id
        .iter()
        .zip(kept)
        .chain([(&values[0], &Dim::Known(2))])
        .filter(|(a, b)| a != b)
        .map(|(a, b)| Check::Equal(a.clone(), b.clone()))
        .collect();
    let d = data.inputs[1].expect("verified: depth");
    if let Some(input) = graph_input(model, d) {
        let entry = match dims(Some(d))?.as_slice() {
            [] => None,
            [Dim::Known(1)] => Some(0),
            _ => return Err("a depth input that is not a scalar or one element"),
        };
        out.push(Check::Value {
            input,
            elem: value_tensor(model, d)
                .map_err(|_| "a depth that is no tensor")?
                .elem,
            entry,
            expected: depth,
        });
    } else if const_data(model, d).is_none() && depth.is_known() {
        return Err("a depth computed by the model");
    }
    Ok(out)
}

/// OneHot: `on` where the index (negative counting from the depth) equals
/// the output's coordinate along `axis`, `off` elsewhere; an index out of
/// range gives a row of `off`.
pub(super) fn one_hot(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let indices = data.inputs[0].expect("indices");
    let values = data.inputs[2].expect("values");
    let y = data.results[0].expect("output");
    let (id, ielem) = kb.shape(indices)?;
    let (yd, _) = kb.shape(y)?;
    let n = yd.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(-1), n);
    let kept: Vec<usize> = (0..n).filter(|&k| k != axis).collect();
    if kept.len() != id.len() {
        return Err(kb.unsupported(op, "an output rank other than the indices' plus one"));
    }
    let depth = match kb.sizes(y)?[axis] {
        Size::Static(d) => Size::Static(d),
        Size::Dynamic(d) => Size::Dynamic(kb.e.index_cast(d, kb.e.int_type(64))),
    };
    let vt = kb.tensor(values);
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &[(kb.tensor(indices), projection(kb.e.cx, n, kept))],
        &[(init, identity_map(kb.e.cx, n))],
        &vec![false; n],
        |be, a| {
            let i64t = be.int_type(64);
            let i = if ielem.is_float() {
                be.fptosi(a[0], i64t)
            } else if ielem.bit_width() == 64 {
                a[0]
            } else if ielem.is_signed_int() {
                be.extsi(a[0], i64t)
            } else {
                be.extui(a[0], i64t)
            };
            let zero = be.i(i64t, 0);
            let depth = match depth {
                Size::Static(d) => be.i(i64t, d),
                Size::Dynamic(d) => d,
            };
            let i = be.select(be.cmpi(CmpiPredicate::Slt, i, zero), be.addi(i, depth), i);
            let at = be.index_cast(be.loop_index(axis), i64t);
            let hit = be.cmpi(CmpiPredicate::Eq, i, at);
            let read = |k: i64| be.extract(vt, &[be.index(k)]);
            vec![be.select(hit, read(1), read(0))]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// ReverseSequence: the first `len[b]` elements of each sequence along
/// the time axis reversed, the rest copied; lengths are clamped to the
/// time axis so that reads stay in bounds.
pub(super) fn reverse_sequence(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let lens = data.inputs[1].expect("sequence_lens");
    let y = data.results[0].expect("output");
    let (xd, _) = kb.shape(x)?;
    let n = xd.len();
    let batch = norm_axis(data.attrs.int("batch_axis").unwrap_or(1), n);
    let time = norm_axis(data.attrs.int("time_axis").unwrap_or(0), n);
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let steps = kb.sizes(x)?[time].value(&kb.e);
    let g = generic(
        kb.e,
        &[(kb.tensor(lens), projection(kb.e.cx, n, [batch]))],
        &[(init, identity_map(kb.e.cx, n))],
        &vec![false; n],
        |be, a| {
            let index = Type::index(be.cx);
            let len = be.index_cast(a[0], index);
            let len = be.minsi(be.maxsi(len, be.index(0)), steps);
            let t = be.loop_index(time);
            let back = be.subi(be.subi(len, be.index(1)), t);
            let src = be.select(be.cmpi(CmpiPredicate::Slt, t, len), back, t);
            let coords: Vec<MValue> = (0..n)
                .map(|k| if k == time { src } else { be.loop_index(k) })
                .collect();
            vec![be.extract(xt, &coords)]
        },
    );
    fused_root(kb, g, y, &xd);
    Ok(())
}

/// An integer index into an axis of `dim` elements as an `index`: negative
/// values count from the end; the result is clamped to `[0, dim)`.
fn wrap_index<'c, 'b>(
    e: Emitter<'c, 'b>,
    i: MValue<'c, 'b>,
    dim: MValue<'c, '_>,
) -> MValue<'c, 'b> {
    let index = Type::index(e.cx);
    let i = e.index_cast(i, index);
    let zero = e.i(index, 0);
    let wrapped = e.select(e.cmpi(CmpiPredicate::Slt, i, zero), e.addi(i, dim), i);
    let last = e.maxsi(e.subi(dim, e.index(1)), zero);
    e.minsi(e.maxsi(wrapped, zero), last)
}
