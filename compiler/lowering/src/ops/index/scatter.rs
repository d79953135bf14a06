//! Indexed writes: Scatter, ScatterElements and ScatterND.
//!
//! | op | computes | variants |
//! |---|---|---|
//! | Scatter (9, 11) / ScatterElements | `y = x`, then `y[p with p[axis] = idx[u]] ⊕= upd[u]` for each `u` | `axis`, negative indices, `reduction` none/add/mul/max/min (16+); floats and integers |
//! | ScatterND | `y = x`, then `y[idx[m, :], …] ⊕= upd[m, …]` for each `m` | negative indices, `reduction` none/add/mul/max/min (16+); floats and integers |
//!
//! Each is lowered as a gather: one generic over the output whose body
//! starts from `x[p]` and folds in, with an `scf.for`, every update that
//! lands on `p` (ScatterElements: the `d` updates along the axis at `p`'s
//! other coordinates; ScatterND: all `M` index rows), in update order, so
//! `none` keeps the last one. Nothing is written through an index, so an
//! index out of range (after wrapping negative ones) matches no element
//! and is ignored instead of writing out of bounds. The cost is O(n·d)
//! and O(n·M) for n output elements.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, Value};

use crate::builder::{generic, identity_map, BinaryOp, CmpiPredicate, Emitter, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::norm_axis;
use crate::schedule::Schedule;
use crate::symbols::{sized_dims, Check};

/// How an update combines with the element it lands on.
#[derive(Copy, Clone)]
enum Reduction {
    None,
    Add,
    Mul,
    Max,
    Min,
}

/// Lowers Scatter, ScatterElements or ScatterND.
pub(super) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("data");
    let indices = data.inputs[1].expect("indices");
    let updates = data.inputs[2].expect("updates");
    let y = data.results[0].expect("output");
    let (xd, elem) = kb.shape(x)?;
    let (id, _) = kb.shape(indices)?;
    if elem == ElemType::Bool || matches!(elem, ElemType::F16 | ElemType::BF16) {
        return Err(kb.unsupported(op, &format!("{elem} inputs")));
    }
    let reduction = match data.attrs.string("reduction").unwrap_or("none") {
        "none" => Reduction::None,
        "add" => Reduction::Add,
        "mul" => Reduction::Mul,
        "max" => Reduction::Max,
        "min" => Reduction::Min,
        other => return Err(kb.unsupported(op, &format!("reduction '{other}'"))),
    };
    let rank = xd.len();
    let (xt, it, ut) = (kb.tensor(x), kb.tensor(indices), kb.tensor(updates));
    let init = kb.init(y)?;
    let nd = data.kind == OpKind::ScatterND;
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(0), rank);
    let q = if nd {
        match row_length(&id, kb.shape(updates)?.0.len(), rank) {
            Some(q) if q <= rank => q,
            _ => return Err(kb.unsupported(op, "index rows longer than the data's rank")),
        }
    } else {
        0
    };
    let g = generic(
        kb.e,
        &[(xt, identity_map(kb.e.cx, rank))],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, a| {
            let p: Vec<MValue> = (0..rank).map(|k| be.loop_index(k)).collect();
            let sizes = |t, dims| -> Vec<MValue> {
                be.sizes_of(t, dims).iter().map(|s| s.value(&be)).collect()
            };
            let (xs, is) = (sizes(xt, &xd), sizes(it, &id));
            let y = if nd {
                scatter_nd(
                    be,
                    (it, ut),
                    (&xs, &is[..id.len() - 1]),
                    q,
                    &p,
                    a[0],
                    (elem, reduction),
                )
            } else {
                scatter_elements(be, (it, ut), (&xs, &is), axis, &p, a[0], (elem, reduction))
            };
            vec![y]
        },
    );
    let producers = kb.producers();
    let g = kb.root(
        g,
        Schedule::Fused {
            loops: xd.iter().map(|&d| (d, true)).collect(),
            producers,
            epilogue: false,
        },
    );
    kb.define(y, g.result(0).expect("one result").into());
    Ok(())
}

/// The length of ScatterND's index rows: the indices' last dim, or (when
/// that is known only at run time) what the ranks of the indices, the
/// updates and the data imply (`updates` is `indices[:-1] + data[q:]`).
fn row_length(id: &[i64], updates_rank: usize, rank: usize) -> Option<usize> {
    match *id.last()? {
        DYNAMIC => (rank + id.len() - 1).checked_sub(updates_rank),
        q => usize::try_from(q).ok(),
    }
}

/// The checks of a Scatter, ScatterElements or ScatterND with symbolic
/// sizes (`ops::entry_checks`): the data's dims equal the output's; the
/// updates' dims equal the indices' (ScatterElements) or the indices'
/// leading dims then the data's trailing ones (ScatterND, whose index
/// rows have the length the ranks imply, [`row_length`]). An error names
/// what cannot be lowered: an unknown rank or size.
pub(super) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let (x, id, upd) = (
        dims(data.inputs[0])?,
        dims(data.inputs[1])?,
        dims(data.inputs[2])?,
    );
    let y = dims(data.results[0])?;
    if x.len() != y.len() || id.is_empty() {
        return Err("a result of another rank than the data, or scalar indices");
    }
    let mut pairs: Vec<(Dim, Dim)> = x.iter().cloned().zip(y).collect();
    if data.kind == OpKind::ScatterND {
        let q = (x.len() + id.len() - 1)
            .checked_sub(upd.len())
            .filter(|&q| q <= x.len())
            .ok_or("updates whose rank does not fit the indices and the data")?;
        pairs.push((id[id.len() - 1].clone(), Dim::Known(q as i64)));
        let want = id[..id.len() - 1].iter().chain(&x[q..]);
        pairs.extend(upd.iter().cloned().zip(want.cloned()));
    } else {
        if upd.len() != id.len() {
            return Err("updates of another rank than the indices");
        }
        pairs.extend(upd.into_iter().zip(id));
    }
    Ok(pairs
        .into_iter()
        .filter(|(a, b)| a != b)
        .map(|(a, b)| Check::Equal(a, b))
        .collect())
}

/// ScatterElements at output position `p` (starting from `x`): the
/// updates at `p`'s coordinates, with each position `t` along the axis,
/// whose index is `p[axis]`. `xs` and `is` are the run-time sizes of the
/// data and the indices.
fn scatter_elements<'c, 'b>(
    e: Emitter<'c, 'b>,
    (it, ut): (MValue<'c, '_>, MValue<'c, '_>),
    (xs, is): (&[MValue<'c, 'b>], &[MValue<'c, 'b>]),
    axis: usize,
    p: &[MValue<'c, 'b>],
    x: MValue<'c, 'b>,
    how: (ElemType, Reduction),
) -> MValue<'c, 'b> {
    let rank = xs.len();
    let zero = e.index(0);
    // Updates exist at p's other coordinates only inside the indices' shape.
    let mut inside = e.i(e.int_type(1), 1);
    let mut empty = e.i(e.int_type(1), 0);
    let mut coords = p.to_vec();
    for k in (0..rank).filter(|&k| k != axis) {
        let lt = e.cmpi(CmpiPredicate::Slt, p[k], is[k]);
        inside = e.andi(inside, lt);
        let last = e.subi(is[k], e.index(1));
        coords[k] = e.minsi(p[k], e.maxsi(last, zero));
        empty = e.ori(empty, e.cmpi(CmpiPredicate::Eq, is[k], zero));
    }
    // No update is read from empty indices.
    let n = e.select(empty, zero, is[axis]);
    let dim = xs[axis];
    let acc = e.for_loop(zero, n, &[x], |le, t, c| {
        let at: Vec<MValue> = (0..rank)
            .map(|k| if k == axis { t } else { coords[k] })
            .collect();
        let i = le.extract(it, &at);
        let hit = le.andi(inside, lands_on(le, i, dim, p[axis]));
        let u = le.extract(ut, &at);
        vec![combine(le, how, hit, c[0], u)]
    });
    acc[0]
}

/// ScatterND at output position `p` (starting from `x`): the update rows
/// `m` whose index row `idx[m, :]` (of length `q`) is `p`'s first `q`
/// coordinates. `xs` and `batch` are the run-time sizes of the data and
/// of the indices' leading dims.
fn scatter_nd<'c, 'b>(
    e: Emitter<'c, 'b>,
    (it, ut): (MValue<'c, '_>, MValue<'c, '_>),
    (xs, batch): (&[MValue<'c, 'b>], &[MValue<'c, 'b>]),
    q: usize,
    p: &[MValue<'c, 'b>],
    x: MValue<'c, 'b>,
    how: (ElemType, Reduction),
) -> MValue<'c, 'b> {
    let rows = batch.iter().fold(e.index(1), |n, &d| e.muli(n, d));
    let acc = e.for_loop(e.index(0), rows, &[x], |le, m, c| {
        // The row's coordinates in the indices' leading dims.
        let mut rest = m;
        let mut row = vec![le.index(0); batch.len()];
        for k in (0..batch.len()).rev() {
            row[k] = le.remui(rest, batch[k]);
            rest = le.divui(rest, batch[k]);
        }
        let mut hit = le.i(le.int_type(1), 1);
        for (k, &pk) in p.iter().enumerate().take(q) {
            let mut at = row.clone();
            at.push(le.index(k as i64));
            let i = le.extract(it, &at);
            hit = le.andi(hit, lands_on(le, i, xs[k], pk));
        }
        let mut at = row;
        at.extend(&p[q..]);
        let u = le.extract(ut, &at);
        vec![combine(le, how, hit, c[0], u)]
    });
    acc[0]
}

/// Whether integer index `i` into an axis of `dim` elements (an `index`;
/// negative indices count from the end) is position `at`.
fn lands_on<'c, 'b>(
    e: Emitter<'c, 'b>,
    i: MValue<'c, '_>,
    dim: MValue<'c, '_>,
    at: MValue<'c, '_>,
) -> MValue<'c, 'b> {
    let index = Type::index(e.cx);
    let i = e.index_cast(i, index);
    let wrapped = e.select(e.cmpi(CmpiPredicate::Slt, i, e.index(0)), e.addi(i, dim), i);
    e.cmpi(CmpiPredicate::Eq, wrapped, at)
}

/// `acc ⊕ u` when `hit`, else `acc`.
fn combine<'c, 'b>(
    e: Emitter<'c, 'b>,
    (elem, reduction): (ElemType, Reduction),
    hit: MValue<'c, '_>,
    acc: MValue<'c, '_>,
    u: MValue<'c, '_>,
) -> MValue<'c, 'b> {
    let float = elem.is_float();
    let signed = elem.is_signed_int();
    let op = match reduction {
        Reduction::None => return e.select(hit, u, acc),
        Reduction::Add if float => BinaryOp::AddF,
        Reduction::Add => BinaryOp::AddI,
        Reduction::Mul if float => BinaryOp::MulF,
        Reduction::Mul => BinaryOp::MulI,
        Reduction::Max if float => BinaryOp::MaximumF,
        Reduction::Max if signed => BinaryOp::MaxSI,
        Reduction::Max => BinaryOp::MaxUI,
        Reduction::Min if float => BinaryOp::MinimumF,
        Reduction::Min if signed => BinaryOp::MinSI,
        Reduction::Min => BinaryOp::MinUI,
    };
    e.select(hit, e.binary(op, acc, u), acc)
}
