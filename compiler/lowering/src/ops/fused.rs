//! The optimizer's internal fused ops (the dialect's `ops/fused.rs`, whose
//! header is the contract). FusedMatMul and FusedGemm are lowered with the
//! matrix products (`linalg.rs`), `Activation` with the elementwise ops;
//! their activations, like FusedConv's, are `elementwise::apply_activation`.
//!
//! | op | lowered as |
//! |----|------------|
//! | FusedConv(X, W, B?, Z?) | the Conv root (`conv::conv`, bias in its initial value), then one elementwise op `act(y + Z)` updating it in place — the root's first epilogue |
//! | FusedAttention(Q, Kt, V, Mask?) | one kernel: the scores contraction, the scaled and masked scores, the softmax's row statistics and probabilities are producers of the final contraction with V (the root), so the kernel is chunked along the outer batch (heads) and each chunk computes its own scores, which never leave the cache. Inside a chunk (`Schedule::Tiled`, static shapes with rows of at most 1024 keys) both contractions run in register tiles of 8 rows × 2 vectors (outer products, like `Schedule::Matmul`'s; partial tiles peeled) and the softmax row by row as vectors along the keys; with symbolic rows or keys (static head sizes), each op tiled where it is in one chunk, tiles of extent 1 along the batch, heads and rows, both contractions as vector outer products, the softmax scalar; otherwise `Schedule::Fused` (scalar loops) |

use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::schema::FusedOp;
use onnx_mlc_dialect::{Dim, ElemType, Model, Value};

use super::conv::{self, window::window_checks};
use super::elementwise::activation::{apply_activation, ACTIVATIONS};
use super::half;
use super::linalg::matmul::{self, batch_operand, contraction};
use super::norm::{filled_sized, softmax};
use super::operand::{broadcast_map, runtime_gather_to, BodyOperand};
use crate::builder::{elem_of, fill, generic, identity_map, Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::{vector_rows, OpTiles, Schedule};
use crate::symbols::{broadcast_at_run_time, sized_dims, Check, Symbolic};
use crate::types::value_tensor;

/// Lowers one of the optimizer's fused ops.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: FusedOp) -> Result<()> {
    match which {
        FusedOp::FusedConv => lower_fused_conv(kb, op),
        FusedOp::FusedAttention => lower_attention(kb, op),
        FusedOp::FusedMatMul | FusedOp::FusedGemm => matmul::lower(kb, op),
    }
}

/// How a fused op takes symbolic sizes: as the op it extends (Conv's
/// window, the matrix products), the attention's own conditions.
pub(crate) fn checks(model: &Model, data: &OpData, which: FusedOp) -> Result<Symbolic> {
    Ok(match which {
        FusedOp::FusedConv => Symbolic::of(window_checks(model, data)),
        FusedOp::FusedAttention => Symbolic::of(attention_checks(model, data)),
        FusedOp::FusedMatMul | FusedOp::FusedGemm => matmul::checks(model, data)?,
    })
}

/// Lowers a FusedConv.
fn lower_fused_conv(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let y = data.results[0].expect("Y is produced");
    let residual = data.inputs.get(3).copied().flatten();
    let name = data.attrs.string("activation").unwrap_or("").to_string();
    let params: Vec<f32> = data
        .attrs
        .floats("activation_params")
        .unwrap_or(&[])
        .to_vec();
    if !ACTIVATIONS.contains(&name.as_str()) {
        return Err(kb.unsupported(op, &format!("unknown activation '{name}'")));
    }
    let mut result = conv::conv(kb, op)?;
    if residual.is_some() || !name.is_empty() {
        let (yd, elem) = kb.shape(y)?;
        let rank = yd.len();
        let e = kb.e;
        let id = identity_map(e.cx, rank);
        let ins: Vec<_> = residual.iter().map(|&z| (kb.tensor(z), id)).collect();
        let has_residual = residual.is_some();
        let outs = [(result, id)];
        // A half-precision result is widened, completed in f32 and rounded
        // once more (as the unfused Add and activation would round theirs).
        let epilogue = generic(e, &ins, &outs, &vec![false; rank], |be, args| {
            let out = *args.last().expect("the output");
            let acc = half::widen(be, out);
            let v = if has_residual {
                be.addf(acc, half::widen(be, args[0]))
            } else {
                acc
            };
            vec![half::narrow(
                be,
                apply_activation(be, &name, &params, v),
                out.r#type(),
            )]
        });
        result = kb
            .elementwise(epilogue, &yd, elem.bit_width())
            .result(0)
            .expect("one result")
            .into();
    }
    kb.define(y, result);
    Ok(())
}

/// Lowers FusedAttention. With symbolic sizes the scores take the
/// result's batch and row sizes and Kt's key count at run time, operands
/// whose batch dims broadcast only at run time are copied out at the
/// result's batch sizes (as a MatMul's, `linalg::batch_operand`) and such
/// a mask is read with a gather; [`attention_checks`] lists what the
/// model's entry verifies.
fn lower_attention(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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
        return Err(kb.unsupported(
            op,
            "only f32/f64 attention with operands of rank 2 or more is lowered",
        ));
    }
    let (qt, qd) = batch_operand(kb, q, y)?;
    let (ktt, kd) = batch_operand(kb, kt, y)?;
    let (vt, vd) = batch_operand(kb, v, y)?;
    let scale = f64::from(data.attrs.float("scale").unwrap_or(1.0));
    // Scores: [batch…, Sq, Sk] with the output's batch dims.
    let rank = yd.len();
    let mut sizes = kb.sizes(y)?;
    sizes[rank - 1] = *kb.sizes(kt)?.last().expect("rank 2 or more");
    let sd: Vec<i64> = sizes.iter().map(Size::type_dim).collect();
    let scores0 = filled_sized(kb, &sizes, elem, 0.0)?;
    let scores = contraction(kb, (qt, &qd, false), (ktt, &kd, false), scores0, &sd);
    let scores: MValue = kb.producer(scores).result(0).expect("one result").into();
    let mut ins = vec![(scores, identity_map(kb.e.cx, rank))];
    let mask = match mask {
        Some(m) => Some(
            match runtime_gather_to(kb, m, &scores_dims(kb.model, &data)?)? {
                Some(g) => BodyOperand::Gathered(g),
                None => {
                    ins.push((kb.tensor(m), broadcast_map(kb.e.cx, &kb.shape(m)?.0, &sd)));
                    BodyOperand::Input(1)
                }
            },
        ),
        None => None,
    };
    let init = kb.empty(&sizes, elem)?;
    let masked = generic(
        kb.e,
        &ins,
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, a| {
            let ty = a[0].r#type();
            let mut s = be.mulf(a[0], be.f(ty, scale));
            if let Some(m) = &mask {
                s = be.addf(s, m.read(be, &a));
            }
            vec![s]
        },
    );
    let masked: MValue = kb.producer(masked).result(0).expect("one result").into();
    let mut reduced = vec![false; rank];
    reduced[rank - 1] = true;
    let probs0 = kb.empty(&sizes, elem)?;
    let probs = softmax(kb, masked, &sd, elem, &reduced, false, probs0)?;
    let probs: MValue = kb.producer(probs).result(0).expect("one result").into();
    let out0 = kb.init(y)?;
    let e = kb.e;
    let zero = e.f(elem_of(out0), 0.0);
    let out0 = fill(e, zero, out0);
    let out0: MValue = kb.producer(out0).result(0).expect("one result").into();
    let out = contraction(kb, (probs, &sd, false), (vt, &vd, false), out0, &yd);
    let sk = sd[rank - 1];
    let mut loops: Vec<(i64, bool)> = yd.iter().map(|&d| (d, true)).collect();
    loops.push((sk, false));
    let producers = kb.producers();
    let schedule = if vector_rows(&sd) && vector_rows(&yd) {
        // Inside a chunk (of heads): the contractions in register tiles
        // of 8 rows × 2 vectors (4 steps of the reduction at once where
        // they divide it), the others row by row as vectors.
        let contraction = |n: i64, k: i64| {
            let mut sizes = vec![1; rank - 2];
            sizes.extend([8.min(yd[rank - 2]), 2, reduction_steps(k)]);
            OpTiles {
                sizes,
                vectors: Some((rank - 1, n)),
                peel: 3,
            }
        };
        let rows = OpTiles::rows(rank - 1);
        let mut tiles = vec![rows.clone(), contraction(sk, qd[qd.len() - 1])];
        tiles.extend(vec![rows; producers - 2]);
        tiles.push(contraction(yd[rank - 1], sk));
        Schedule::Tiled {
            loops,
            tiles,
            epilogue: None,
        }
    } else if let Some(tiles) = symbolic_attention_tiles(&yd, qd[qd.len() - 1], producers) {
        Schedule::Tiled {
            loops,
            tiles,
            epilogue: None,
        }
    } else {
        Schedule::Fused {
            loops,
            producers,
            epilogue: false,
        }
    };
    let out = kb.root(out, schedule);
    kb.define(y, out.result(0).expect("one result").into());
    Ok(())
}

/// The steps of a reduction of `k` a register tile takes at once: 4, 2
/// or 1, whichever divides it first.
fn reduction_steps(k: i64) -> i64 {
    [4, 2, 1]
        .into_iter()
        .find(|r| k % r == 0)
        .expect("1 divides")
}

/// The tiles of an attention over `[batch…, rows, head]` (`yd`) whose
/// row or key counts are symbolic, when its head sizes (`yd`'s last, Q's
/// `d`) are static: every tile along a batch dim
/// or the rows has extent 1, so that it is static whatever the sizes; the
/// scores are computed a vector of keys at a time and the output two
/// vectors of its head at a time, both as outer products (the reduction
/// 4 steps at a time; the partial last vector of keys and steps peeled
/// off), and the softmax's row ops along the keys as scalar loops.
/// `None`: the loops keep `Schedule::Fused`'s scalar nest.
fn symbolic_attention_tiles(yd: &[i64], d: i64, producers: usize) -> Option<Vec<OpTiles>> {
    let rank = yd.len();
    let head = yd[rank - 1];
    if head <= 0 || d <= 0 || !yd.contains(&DYNAMIC) {
        return None;
    }
    let mut scores = vec![1; rank];
    scores.push(reduction_steps(d));
    let mut out = vec![1; rank - 1];
    out.extend([2, 4]);
    let rows = OpTiles::rows(rank - 1);
    let mut tiles = vec![
        rows.clone(),
        OpTiles {
            sizes: scores,
            vectors: Some((rank - 1, i64::MAX)),
            peel: 2,
        },
    ];
    tiles.extend(vec![rows; producers - 2]);
    tiles.push(OpTiles {
        sizes: out,
        vectors: Some((rank - 1, head)),
        peel: 1,
    });
    Some(tiles)
}

/// The dims of FusedAttention `data`'s scores: the result's batch and
/// row dims, Kt's key count.
fn scores_dims(model: &Model, data: &OpData) -> Result<Vec<Dim>> {
    let dims = |v: Value| -> Result<Vec<Dim>> {
        Ok(value_tensor(model, v)?.dims().unwrap_or_default().to_vec())
    };
    let mut s = dims(data.results[0].expect("Y"))?;
    let keys = dims(data.inputs[1].expect("Kt"))?;
    if let (Some(last), Some(k)) = (s.last_mut(), keys.last()) {
        *last = k.clone();
    }
    Ok(s)
}

/// What a FusedAttention with symbolic sizes relies on, checked at the
/// model's entry: Q's head size is Kt's, Kt's key count is V's, the
/// result's rows are Q's and its columns V's; each batch dim of Q, Kt and
/// V is 1 or the result's, and each dim of the mask 1 or the scores'
/// ([`scores_dims`]) where that is only known at run time.
fn attention_checks(model: &Model, data: &OpData) -> std::result::Result<Vec<Check>, &'static str> {
    let operand = |i: usize| sized_dims(model, data.inputs.get(i).copied().flatten());
    let (q, kt, v) = (operand(0)?, operand(1)?, operand(2)?);
    let y = sized_dims(model, data.results[0])?;
    let r = y.len();
    if [&q, &kt, &v].iter().any(|o| o.len() < 2 || o.len() > r) {
        return Err("operands of rank below 2 or above the result's");
    }
    let last = |o: &[Dim], from_end: usize| o[o.len() - from_end].clone();
    let mut out: Vec<Check> = [
        (last(&q, 1), last(&kt, 2)),
        (last(&kt, 1), last(&v, 2)),
        (last(&q, 2), y[r - 2].clone()),
        (last(&v, 1), y[r - 1].clone()),
    ]
    .into_iter()
    .filter(|(a, b)| a != b)
    .map(|(a, b)| Check::Equal(a, b))
    .collect();
    let mut broadcasts = |o: &[Dim], to: &[Dim]| {
        for (d, t) in o.iter().rev().zip(to.iter().rev()) {
            if broadcast_at_run_time(d, t) {
                out.push(Check::Broadcast(d.clone(), t.clone()));
            }
        }
    };
    for o in [&q, &kt, &v] {
        broadcasts(&o[..o.len() - 2], &y[..r - 2]);
    }
    if let Some(m) = data.inputs.get(3).copied().flatten() {
        let m = sized_dims(model, Some(m))?;
        let mut s = y.clone();
        s[r - 1] = last(&kt, 1);
        if m.len() > r {
            return Err("a mask of rank above the scores'");
        }
        broadcasts(&m, &s);
    }
    Ok(out)
}
