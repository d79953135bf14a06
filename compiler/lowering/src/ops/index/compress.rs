//! Data-dependent selections: Compress.
//!
//! | op | computes | variants |
//! |---|---|---|
//! | Compress | the slices along `axis` (or the elements of the flattened input) whose entry of `condition` is true, in order | `axis` (negative too) or none; a constant condition, or a graph input read at run time; any element type (elements are copied); symbolic sizes |
//!
//! The output's length along the axis is the number of true entries: the
//! output type must give it (static, or a polynomial over the inputs'
//! dim_params). With a constant condition (and an input of static shape)
//! it is checked at compile time;
//! with a graph input the model's entry counts the true entries
//! (`symbols::Check::Count`) and fails with `OMLC_ERR_SHAPE` when the
//! output's length is another. One generic over the output: output slice
//! `q` reads the input at the position of the `q+1`-th true entry, found
//! by an `scf.for` over the condition (O(n·c) for n output elements and c
//! entries); positions stay within the input's axis.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, Model, Value};

use crate::builder::{generic, identity_map, CmpiPredicate};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{const_ints, fused_root, norm_axis};
use crate::symbols::{graph_input, sized_dims, Check};

/// The axis Compress op `data` selects along (`None`: the flattened
/// input) for an input of rank `rank`; `Err` for an axis out of range.
fn axis_of(data: &OpData, rank: usize) -> std::result::Result<Option<usize>, &'static str> {
    match data.attrs.int("axis") {
        Some(a) if a < -(rank as i64) || a >= rank as i64 => Err("an axis out of range"),
        Some(a) => Ok(Some(norm_axis(a, rank))),
        None => Ok(None),
    }
}

/// The conditions Compress's lowering relies on, checked at run time
/// (`symbols::Check`): the output's dims off the axis are the input's,
/// and, for a condition given as a graph input, the number of true
/// entries among those within the input's axis is the output's length
/// along it (`Check::Count`; a constant condition is checked at compile
/// time). An error names what cannot be lowered: a condition computed by
/// the model, an unknown size, an output of another rank.
pub(super) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let (x, c, y) = (
        dims(data.inputs[0])?,
        dims(data.inputs[1])?,
        dims(data.results[0])?,
    );
    let axis = axis_of(data, x.len())?;
    if y.len() != axis.map_or(1, |_| x.len()) || c.len() != 1 {
        return Err("an output of another rank");
    }
    let mut out: Vec<Check> = match axis {
        Some(a) => x
            .iter()
            .zip(&y)
            .enumerate()
            .filter(|&(d, (p, q))| d != a && p != q)
            .map(|(_, (p, q))| Check::Equal(p.clone(), q.clone()))
            .collect(),
        None => vec![],
    };
    let condition = data.inputs[1].expect("verified: condition");
    if let Some(input) = graph_input(model, condition) {
        let extent = match axis {
            Some(a) => x[a].clone(),
            None => x.iter().fold(Dim::Known(1), |n, d| n.mul(d)),
        };
        out.push(Check::Count {
            input,
            len: c[0].min_of(&extent),
            expected: y[axis.unwrap_or(0)].clone(),
        });
    } else if const_ints(model, condition).is_none() {
        return Err("a condition computed by the model");
    }
    Ok(out)
}

/// Lowers Compress.
pub(super) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let condition = data.inputs[1].expect("condition");
    let y = data.results[0].expect("output");
    let (xd, _) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    let rank = xd.len();
    let axis = axis_of(&data, rank).map_err(|why| kb.unsupported(op, why))?;
    if yd.len() != axis.map_or(1, |_| rank) {
        return Err(kb.unsupported(op, "an output of another rank"));
    }
    let e = kb.e;
    let xs: Vec<MValue> = kb.sizes(x)?.iter().map(|s| s.value(&e)).collect();
    let extent = match axis {
        Some(a) => xs[a],
        None => xs[1..].iter().fold(xs[0], |n, &d| e.muli(n, d)),
    };
    // The entries that select anything: those within the input's axis.
    let c = match const_ints(kb.model, condition) {
        Some(values) => {
            let n = values.len().min(xd.iter().product::<i64>().max(0) as usize);
            let n = axis.map_or(n, |a| n.min(xd[a].max(0) as usize));
            let selected = values[..n].iter().filter(|&&v| v != 0).count() as i64;
            let length = yd.get(axis.unwrap_or(0)).copied();
            if xd.iter().any(|&d| d < 0) || length != Some(selected) {
                return Err(kb.unsupported(
                    op,
                    "an output length that is not the number of true conditions",
                ));
            }
            e.index(n as i64)
        }
        None if graph_input(kb.model, condition).is_some() => {
            let len = kb.sizes(condition)?[0].value(&e);
            e.minsi(len, extent)
        }
        None => return Err(kb.unsupported(op, "a condition computed by the model")),
    };
    let (xt, ct) = (kb.tensor(x), kb.tensor(condition));
    let init = kb.init(y)?;
    let out_rank = yd.len();
    let g = generic(
        kb.e,
        &[],
        &[(init, identity_map(kb.e.cx, out_rank))],
        &vec![false; out_rank],
        |be, _| {
            let p: Vec<MValue> = (0..out_rank).map(|m| be.loop_index(m)).collect();
            let q = p[axis.unwrap_or(0)];
            let index = Type::index(be.cx);
            let zero = be.index(0);
            let c = be.maxsi(c, zero);
            // The position of the (q+1)-th true entry.
            let found = be.for_loop(zero, c, &[zero, zero], |le, t, s| {
                let v = le.extract(ct, &[t]);
                let v = le.extui(v, le.int_type(64));
                let v = le.index_cast(v, index);
                let selected = le.cmpi(CmpiPredicate::Ne, v, le.index(0));
                let hit = le.andi(selected, le.cmpi(CmpiPredicate::Eq, s[0], q));
                let count = le.select(selected, le.addi(s[0], le.index(1)), s[0]);
                vec![count, le.select(hit, t, s[1])]
            })[1];
            let at: Vec<MValue> = match axis {
                Some(a) => (0..rank)
                    .map(|d| if d == a { found } else { p[d] })
                    .collect(),
                None => {
                    let mut rest = found;
                    let mut coords = vec![zero; rank];
                    for d in (0..rank).rev() {
                        // (a size of 0 leaves nothing to read)
                        let n = be.maxsi(xs[d], be.index(1));
                        coords[d] = be.remui(rest, n);
                        rest = be.divui(rest, n);
                    }
                    coords
                }
            };
            vec![be.extract(xt, &at)]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}
