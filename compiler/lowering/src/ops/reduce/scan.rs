//! CumSum and CumProd: each output element sums (multiplies) the input
//! elements along the axis up to it, with an `scf.for` in the body.

use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, OpKind};

use crate::builder::{generic, identity_map, map, BinaryOp, CmpiPredicate, Emitter, Expr};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::fused_root;

/// Lowers CumSum or CumProd: each output element is the sum (product) of
/// the input elements along the axis up to it (`exclusive`: before it;
/// `reverse`: from it, or after it, to the end).
pub(super) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("data");
    let axis = data.inputs[1].expect("axis");
    let y = data.results[0].expect("scanned");
    let (xd, elem) = kb.shape(x)?;
    if elem == ElemType::Bool || matches!(elem, ElemType::F16 | ElemType::BF16) {
        return Err(kb.unsupported(op, &format!("{elem} inputs")));
    }
    let rank = xd.len();
    if rank == 0 {
        return Err(kb.unsupported(op, "a scalar input"));
    }
    let exclusive = data.attrs.int("exclusive").unwrap_or(0) != 0;
    let reverse = data.attrs.int("reverse").unwrap_or(0) != 0;
    let product = data.kind == OpKind::CumProd;
    let float = elem.is_float();
    let (ad, _) = kb.shape(axis)?;
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &[(
            kb.tensor(axis),
            map(kb.e.cx, rank, &vec![Expr::constant(kb.e.cx, 0); ad.len()]),
        )],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, a| {
            let index = Type::index(be.cx);
            let zero = be.index(0);
            let a0 = be.index_cast(a[0], index);
            let wrapped = be.select(
                be.cmpi(CmpiPredicate::Slt, a0, zero),
                be.addi(a0, be.index(rank as i64)),
                a0,
            );
            let axis = be.minsi(be.maxsi(wrapped, zero), be.index(rank as i64 - 1));
            let is: Vec<MValue> = (0..rank)
                .map(|k| be.cmpi(CmpiPredicate::Eq, axis, be.index(k as i64)))
                .collect();
            let idx: Vec<MValue> = (0..rank).map(|k| be.loop_index(k)).collect();
            let dims: Vec<MValue> = be.sizes_of(xt, &xd).iter().map(|s| s.value(&be)).collect();
            let (i, d) = (pick(be, &is, &idx), pick(be, &is, &dims));
            let next = be.addi(i, be.index(1));
            let (lb, ub) = match (reverse, exclusive) {
                (false, false) => (zero, next),
                (false, true) => (zero, i),
                (true, false) => (i, d),
                (true, true) => (next, d),
            };
            let ty = a[1].r#type();
            let ident = match (float, product) {
                (true, p) => be.f(ty, if p { 1.0 } else { 0.0 }),
                (false, p) => be.i(ty, i64::from(p)),
            };
            let combine = match (float, product) {
                (true, false) => BinaryOp::AddF,
                (true, true) => BinaryOp::MulF,
                (false, false) => BinaryOp::AddI,
                (false, true) => BinaryOp::MulI,
            };
            let acc = be.for_loop(lb, ub, &[ident], |le, t, c| {
                let coords: Vec<MValue> = (0..rank).map(|k| le.select(is[k], t, idx[k])).collect();
                let v = le.extract(xt, &coords);
                vec![le.binary(combine, c[0], v)]
            });
            vec![acc[0]]
        },
    );
    fused_root(kb, g, y, &xd);
    Ok(())
}

/// The value of `vals` whose condition in `is` holds (exactly one does).
fn pick<'c, 'b>(
    e: Emitter<'c, 'b>,
    is: &[MValue<'c, 'b>],
    vals: &[MValue<'c, 'b>],
) -> MValue<'c, 'b> {
    (1..vals.len()).fold(vals[0], |acc, k| e.select(is[k], vals[k], acc))
}
