//! TopK: output `j` along the axis is the element with exactly `j`
//! elements ranked before it, found by two nested `scf.for`s.

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, ElemType, Model, Value};

use crate::builder::{generic, identity_map, CmpfPredicate, CmpiPredicate, Emitter, Predicate};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{const_ints, norm_axis};
use crate::symbols::{graph_input, sized_dims, Check};

/// The conditions TopK's lowering relies on, checked at run time
/// (`symbols::Check`): the values and indices have the input's dims but
/// along the axis, where they have `k` ≤ the input's; a `k` given as a
/// graph input (one entry) is the outputs' length along the axis (which
/// the lowering takes from their type). An error names what cannot be
/// lowered: an unknown size, a `k` computed by the model that inference
/// does not know.
pub(super) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let x = dims(data.inputs[0])?;
    let mut out = vec![];
    for y in data.results.iter().map(|&r| dims(r)) {
        let y = y?;
        if y.len() != x.len() || x.is_empty() {
            return Err("outputs of another rank than the input");
        }
        let axis = norm_axis(data.attrs.int("axis").unwrap_or(-1), x.len());
        for (d, (a, b)) in x.iter().zip(&y).enumerate() {
            let check = if d == axis {
                Check::AtLeast(a.sub(b), 0)
            } else {
                Check::Equal(a.clone(), b.clone())
            };
            if a != b && !out.contains(&check) {
                out.push(check);
            }
        }
        let k = data.inputs.get(1).copied().flatten();
        match k.and_then(|k| Some((k, graph_input(model, k)?))) {
            Some((k, input)) => {
                let len = dims(Some(k))?;
                if let [n] = &len[..] {
                    if *n != Dim::Known(1) {
                        out.push(Check::Equal(n.clone(), Dim::Known(1)));
                    }
                }
                let check = Check::Value {
                    input,
                    elem: ElemType::I64,
                    entry: None,
                    expected: y[axis].clone(),
                };
                if !out.contains(&check) {
                    out.push(check);
                }
            }
            None if k.is_some_and(|k| const_ints(model, k).is_none()) && !y[axis].is_known() => {
                return Err("a k computed by the model");
            }
            None => {}
        }
    }
    Ok(out)
}

/// Lowers TopK.
pub(super) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("data");
    let (xd, elem) = kb.shape(x)?;
    if elem == ElemType::Bool || matches!(elem, ElemType::F16 | ElemType::BF16) {
        return Err(kb.unsupported(op, &format!("{elem} inputs")));
    }
    let rank = xd.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(-1), rank);
    let largest = data.attrs.int("largest").unwrap_or(1) != 0;
    let (values, indices) = (data.results[0], data.results[1]);
    let (values, indices) = match (values, indices) {
        (Some(v), Some(i)) => (v, i),
        _ => return Err(kb.unsupported(op, "an unused output")),
    };
    let float = elem.is_float();
    let before = match (float, elem.is_signed_int(), largest) {
        (true, _, true) => Predicate::Float(CmpfPredicate::Ogt),
        (true, _, false) => Predicate::Float(CmpfPredicate::Olt),
        (false, true, true) => Predicate::Int(CmpiPredicate::Sgt),
        (false, true, false) => Predicate::Int(CmpiPredicate::Slt),
        (false, false, true) => Predicate::Int(CmpiPredicate::Ugt),
        (false, false, false) => Predicate::Int(CmpiPredicate::Ult),
    };
    let equal = if float {
        Predicate::Float(CmpfPredicate::Oeq)
    } else {
        Predicate::Int(CmpiPredicate::Eq)
    };
    let xt = kb.tensor(x);
    let (vinit, iinit) = (kb.init(values)?, kb.init(indices)?);
    let g = generic(
        kb.e,
        &[],
        &[
            (vinit, identity_map(kb.e.cx, rank)),
            (iinit, identity_map(kb.e.cx, rank)),
        ],
        &vec![false; rank],
        |be, a| {
            let i64t = be.int_type(64);
            let j = be.loop_index(axis);
            let idx: Vec<MValue> = (0..rank).map(|k| be.loop_index(k)).collect();
            let dim = be.sizes_of(xt, &xd)[axis].value(&be);
            be.for_loop(be.index(0), dim, &[a[0], a[1]], |oe, i, c| {
                let xi = read_along(oe, xt, &idx, axis, i);
                let zero = oe.index(0);
                let rank_of = oe.for_loop(zero, dim, &[zero], |ie, t, r| {
                    let xt_ = read_along(ie, xt, &idx, axis, t);
                    let ahead = ie.ori(
                        ie.compare(before, xt_, xi),
                        ie.andi(
                            ie.compare(equal, xt_, xi),
                            ie.cmpi(CmpiPredicate::Slt, t, i),
                        ),
                    );
                    let one = ie.select(ahead, ie.index(1), ie.index(0));
                    vec![ie.addi(r[0], one)]
                });
                let hit = oe.cmpi(CmpiPredicate::Eq, rank_of[0], j);
                let i = oe.index_cast(i, i64t);
                vec![oe.select(hit, xi, c[0]), oe.select(hit, i, c[1])]
            })
        },
    );
    let g = kb.structured(g);
    kb.define(values, g.result(0).expect("two results").into());
    kb.define(indices, g.result(1).expect("two results").into());
    Ok(())
}

/// `t` at the position `idx` with its `axis` coordinate replaced by `p`.
fn read_along<'c, 'b>(
    e: Emitter<'c, 'b>,
    t: MValue<'c, '_>,
    idx: &[MValue<'c, '_>],
    axis: usize,
    p: MValue<'c, '_>,
) -> MValue<'c, 'b> {
    let at: Vec<MValue> = (0..idx.len())
        .map(|k| if k == axis { p } else { idx[k] })
        .collect();
    e.extract(t, &at)
}
