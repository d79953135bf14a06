//! The optimizer's fused attention (`omlc.FusedAttention`, see the
//! dialect's `ops/fused.rs` for the contract):
//! `Y = Softmax(scale·MatMul(Q, Kt) + Mask, axis = -1)·V`.
//!
//! One kernel: the scores contraction, the scaled and masked scores, the
//! softmax's row statistics and probabilities are producers of the final
//! contraction with V (the root, `Schedule::Fused`), so the kernel is
//! chunked along the outer batch (heads) and each chunk computes its own
//! scores, which never leave the cache. (FusedMatMul and FusedGemm are
//! lowered with the matrix products, `Activation` with the elementwise ops.)

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::ElemType;

use super::elementwise::{broadcast_map, identity_map};
use super::linalg::contraction;
use super::norm::{filled, softmax};
use super::structured::generic;
use super::unsupported;
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;

/// Lowers FusedAttention.
pub(crate) fn lower_attention(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let q = data.inputs[0].expect("Q");
    let kt = data.inputs[1].expect("Kt");
    let v = data.inputs[2].expect("V");
    let mask = data.inputs.get(3).copied().flatten();
    let y = data.results[0].expect("Y");
    let (qd, elem) = kb.shape(q)?;
    let (kd, _) = kb.shape(kt)?;
    let (vd, _) = kb.shape(v)?;
    let (yd, _) = kb.shape(y)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64)
        || qd.len() < 2
        || kd.len() < 2
        || vd.len() < 2
    {
        return Err(unsupported(
            kb,
            op,
            "only f32/f64 attention with operands of rank 2 or more is lowered",
        ));
    }
    let scale = f64::from(data.attrs.float("scale").unwrap_or(1.0));
    // Scores: [batch…, Sq, Sk] with the output's batch dims.
    let rank = yd.len();
    let mut sd = yd.clone();
    sd[rank - 1] = kd[kd.len() - 1];
    let scores0 = filled(kb, &sd, elem, 0.0)?;
    let scores = contraction(
        kb,
        (kb.tensor(q), &qd, false),
        (kb.tensor(kt), &kd, false),
        scores0,
        &sd,
    );
    let scores: MValue = kb.producer(scores).result(0).expect("one result").into();
    let mut ins = vec![(scores, identity_map(rank))];
    if let Some(m) = mask {
        ins.push((kb.tensor(m), broadcast_map(&kb.shape(m)?.0, &sd)));
    }
    let has_mask = mask.is_some();
    let init = super::structured::empty(kb, &sd, elem)?;
    let masked = generic(
        kb.e,
        &ins,
        &[(init, identity_map(rank))],
        &vec![false; rank],
        |be, a| {
            let ty = melior::ir::ValueLike::r#type(&a[0]);
            let mut s = be.same("arith.mulf", &[a[0], be.f(ty, scale)]);
            if has_mask {
                s = be.same("arith.addf", &[s, a[1]]);
            }
            vec![s]
        },
    );
    let masked: MValue = kb.producer(masked).result(0).expect("one result").into();
    let mut reduced = vec![false; rank];
    reduced[rank - 1] = true;
    let probs0 = super::structured::empty(kb, &sd, elem)?;
    let probs = softmax(kb, masked, &sd, elem, &reduced, false, probs0)?;
    let probs: MValue = kb.producer(probs).result(0).expect("one result").into();
    let out0 = kb.init(y)?;
    let e = kb.e;
    let zero = e.f(super::structured::elem_of(out0), 0.0);
    let out0 = super::structured::named(e, "linalg.fill", &[zero], out0);
    let out0: MValue = kb.producer(out0).result(0).expect("one result").into();
    let out = contraction(
        kb,
        (probs, &sd, false),
        (kb.tensor(v), &vd, false),
        out0,
        &yd,
    );
    let mut loops: Vec<(i64, bool)> = yd.iter().map(|&d| (d, true)).collect();
    loops.push((sd[rank - 1], false));
    let producers = kb.producers();
    let out = kb.root(
        out,
        Schedule::Fused {
            loops,
            producers,
            epilogue: false,
        },
    );
    kb.define(y, out.result(0).expect("one result").into());
    Ok(())
}
