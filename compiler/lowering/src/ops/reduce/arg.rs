//! ArgMax and ArgMin: one reduction generic with two outputs (the best
//! value, its index), the index then copied out.

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, OpKind};

use super::temporary::{filled, result_map, stat_sizes, Init};
use crate::builder::{generic, identity_map, CmpfPredicate, CmpiPredicate, Predicate};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{fused_root, norm_axis};
use crate::ops::operand::stat_map;

/// Lowers ArgMax or ArgMin.
pub(super) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("data");
    let y = data.results[0].expect("reduced");
    let (xd, elem) = kb.shape(x)?;
    if elem == ElemType::Bool || matches!(elem, ElemType::F16 | ElemType::BF16) {
        return Err(kb.unsupported(op, &format!("{elem} inputs")));
    }
    let rank = xd.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(0), rank);
    let keepdims = data.attrs.int("keepdims").unwrap_or(1) != 0;
    let last = data.attrs.int("select_last_index").unwrap_or(0) != 0;
    let max = data.kind == OpKind::ArgMax;
    let reduced: Vec<bool> = (0..rank).map(|i| i == axis).collect();
    let (yd, _) = kb.shape(y)?;
    let (rd, rm) = (
        stat_sizes(&kb.sizes(x)?, &reduced),
        stat_map(kb.e.cx, rank, &reduced),
    );
    let best0 = kb.empty(&rd, elem)?;
    let best = filled(
        kb,
        best0,
        elem,
        if max { Init::Lowest } else { Init::Highest },
    );
    let idx0 = kb.empty(&rd, ElemType::I64)?;
    let idx0 = filled(kb, idx0, ElemType::I64, Init::Zero);
    let float = elem.is_float();
    let signed = elem.is_signed_int();
    let better = match (float, signed, max, last) {
        (true, _, true, false) => Predicate::Float(CmpfPredicate::Ogt),
        (true, _, true, true) => Predicate::Float(CmpfPredicate::Oge),
        (true, _, false, false) => Predicate::Float(CmpfPredicate::Olt),
        (true, _, false, true) => Predicate::Float(CmpfPredicate::Ole),
        (false, true, true, false) => Predicate::Int(CmpiPredicate::Sgt),
        (false, true, true, true) => Predicate::Int(CmpiPredicate::Sge),
        (false, true, false, false) => Predicate::Int(CmpiPredicate::Slt),
        (false, true, false, true) => Predicate::Int(CmpiPredicate::Sle),
        (false, false, true, false) => Predicate::Int(CmpiPredicate::Ugt),
        (false, false, true, true) => Predicate::Int(CmpiPredicate::Uge),
        (false, false, false, false) => Predicate::Int(CmpiPredicate::Ult),
        (false, false, false, true) => Predicate::Int(CmpiPredicate::Ule),
    };
    let g = generic(
        kb.e,
        &[(kb.tensor(x), identity_map(kb.e.cx, rank))],
        &[(best, rm), (idx0, rm)],
        &reduced,
        |be, a| {
            let i = be.index_cast(be.loop_index(axis), be.int_type(64));
            // The first element always wins (the identity may equal it).
            let first = be.cmpi(CmpiPredicate::Eq, i, be.i(be.int_type(64), 0));
            let better = be.ori(be.compare(better, a[0], a[1]), first);
            vec![be.select(better, a[0], a[1]), be.select(better, i, a[2])]
        },
    );
    let idx: MValue = kb.producer(g).result(1).expect("two results").into();
    let init = kb.init(y)?;
    let out_rank = yd.len();
    let g = generic(
        kb.e,
        &[(idx, result_map(kb.e.cx, &reduced, keepdims))],
        &[(init, identity_map(kb.e.cx, out_rank))],
        &vec![false; out_rank],
        |_, a| vec![a[0]],
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}
