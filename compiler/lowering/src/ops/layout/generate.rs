//! Tensors built from shapes and values: Shape and Size of run-time
//! sizes, ConstantOfShape, Range, Trilu and EyeLike.

use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, OpKind};

use super::copy::finish_root;
use crate::builder::{elem_of, generic, identity_map, map, CmpiPredicate, Expr};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::half;
use crate::types::elem_type;

/// Shape (dims `[start, end)`, negative bounds counted from the end and
/// clamped into `[0, rank]`) or Size (the product of every dim) of input 0,
/// from its run-time sizes: the symbols' polynomials evaluated, static
/// dims as constants.
pub(super) fn shape_or_size(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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

pub(super) fn constant_of_shape(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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
    let r = kb.filled(c, init);
    kb.define(y, r);
    Ok(())
}

pub(super) fn range(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let start = data.inputs[0].expect("start");
    let delta = data.inputs[2].expect("delta");
    let y = data.results[0].expect("output");
    let (_, elem) = kb.shape(y)?;
    if elem == ElemType::Bool {
        return Err(kb.unsupported(op, &format!("{elem} ranges")));
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
pub(super) fn trilu(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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
pub(super) fn eye_like(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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
