//! Indexed reads: Gather and GatherElements.
//!
//! | op | computes | variants |
//! |---|---|---|
//! | Gather | `y[i…, j…, k…] = x[i…, idx[j…], k…]` along `axis` | i32/i64 indices, negative indices |
//! | GatherElements | `y[p] = x[p with p[axis] = idx[p]]` | i32/i64 indices, negative indices |
//!
//! Both are one `linalg.generic` over the output's loops that reads the
//! index through its indexing map and the data with `tensor.extract`.
//! Indices are wrapped when negative and clamped to the axis, so an
//! out-of-range index reads the nearest row instead of out of bounds.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::OpKind;

use super::elementwise::identity_map;
use super::structured::{ds, elem_of, generic, loop_index, map, norm_axis};
use crate::emit::Emitter;
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;

/// Lowers Gather or GatherElements.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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
        identity_map(n)
    } else {
        map(n, &ds(axis..axis + id.len()))
    };
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let e = kb.e;
    let dim = xd[axis];
    let g = generic(
        e,
        &[(kb.tensor(indices), idx_map)],
        &[(init, identity_map(n))],
        &vec![false; n],
        |be, a| {
            let j = wrap_index(be, a[0], dim);
            let mut coords = vec![xt];
            for k in 0..r {
                coords.push(if k == axis {
                    j
                } else if elements || k < axis {
                    loop_index(be, k)
                } else {
                    loop_index(be, k + id.len() - 1)
                });
            }
            vec![be.value(be.op("tensor.extract", &coords, &[elem_of(xt)], &[]))]
        },
    );
    let producers = kb.producers();
    let g = kb.root(
        g,
        Schedule::Fused {
            loops: yd.iter().map(|&d| (d, true)).collect(),
            producers,
            epilogue: false,
        },
    );
    kb.define(y, g.result(0).expect("one result").into());
    Ok(())
}

/// An integer index into an axis of `dim` elements as an `index`: negative
/// values count from the end; the result is clamped to `[0, dim)`.
fn wrap_index<'c, 'b>(e: Emitter<'c, 'b>, i: MValue<'c, 'b>, dim: i64) -> MValue<'c, 'b> {
    let index = Type::index(e.cx);
    let i = e.convert("arith.index_cast", i, index);
    let zero = e.i(index, 0);
    let wrapped = e.select(
        e.cmp("arith.cmpi", 2, i, zero),
        e.same("arith.addi", &[i, e.i(index, dim)]),
        i,
    );
    e.same(
        "arith.minsi",
        &[
            e.same("arith.maxsi", &[wrapped, zero]),
            e.i(index, (dim - 1).max(0)),
        ],
    )
}
