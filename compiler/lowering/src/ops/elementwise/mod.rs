//! Elementwise ops: a run of them becomes one `linalg.generic` over the
//! run's output shape whose body computes every op of the run per element,
//! so no intermediate of the run is ever stored.
//!
//! Inputs broadcast numpy-style through their indexing maps (a dim of size 1
//! against a larger output dim reads index 0). With symbolic sizes, an
//! input dim that is 1 or the output's only at run time (`"a"` against
//! `bcast("a","b")`) is read with `tensor.extract` in the body at index 0
//! where its run-time size is 1 (the model's entry has checked that it is
//! 1 or the output's, [`checks`]). When the run consumes the
//! result of the op just before it in the kernel (a MatMul, a Conv), that
//! result was computed in the run's output buffer and is read and rewritten
//! in place (see `plan_in_place` in `ops/mod.rs`).
//!
//! f16 and bf16 ops compute in f32 and round each op's result once (as
//! numpy and `ml_dtypes` do), so a run of them rounds between ops like
//! the reference: see `scalar_op_widened`.

pub(crate) mod activation;
mod arith;
pub(crate) mod cast;
mod lookup;

use std::collections::HashMap;

use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::schema::{ElementwiseOp, FamilyOp, NormOp, QuantOp};
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, Value};

use activation::{apply_activation, clamp, gelu, ACTIVATIONS};
use arith::{bit_shift, comparison, float_mod, fold, int_mod, int_pow, max_int, min_int, pow};
use cast::{cast, to_float};

use super::half;
use super::math;
use super::norm::batch_norm_scalar;
use super::operand::{
    broadcast_map, broadcasts_to, channel_gather, channel_map, channel_operands, data_inputs,
    is_channel_operand, runtime_gather, Gather,
};
use super::quant::quantize_scalar;
use crate::builder::{identity_map, try_generic, BinaryOp, CmpfPredicate, CmpiPredicate, Emitter};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::symbols::{
    add_new, broadcast_at_run_time, broadcasts_statically, ranked_dims, result_dims, Check,
    Refusal, Symbolic,
};
use crate::types::{elem_type, value_tensor};

/// How an elementwise op takes symbolic sizes (`ops::entry_checks`). An
/// operand dim (of the operands whose values are read: not `CastLike`'s
/// type donor), right-aligned against the result's, is 1 or the result's
/// very size (the same polynomial), or else broadcast at run time (sizes
/// that are not unknown; the legacy, opset < 7, broadcasts too, as the
/// reference evaluates them numpy-style): the model's entry checks that
/// it is 1 or the result's. A per-channel parameter
/// (`operand::channel_operands`) is a vector read along the result's dim
/// 1, of that size or 1 at run time.
pub(crate) fn checks(model: &Model, data: &OpData) -> Result<Symbolic> {
    let refused = Refusal::outcome(refusal(model, data))?;
    let mut checks = vec![];
    let Some(result) = data.results.first().copied().flatten() else {
        return Ok(Symbolic { checks, refused });
    };
    let Some(y) = value_tensor(model, result)?.dims() else {
        return Ok(Symbolic { checks, refused });
    };
    let channels = channel_operands(model, data);
    for &v in data_inputs(data) {
        let Some(operand) = value_tensor(model, v)?.dims() else {
            continue;
        };
        // A per-channel parameter is read along dim 1, others
        // right-aligned (numpy-style).
        let aligned: Vec<(&Dim, &Dim)> = if channels.contains(&v) {
            operand.iter().zip(y.get(1)).collect()
        } else {
            operand.iter().rev().zip(y.iter().rev()).collect()
        };
        for (d, y) in aligned {
            if broadcast_at_run_time(d, y) {
                add_new(&mut checks, [Check::Broadcast(d.clone(), y.clone())]);
            }
        }
    }
    Ok(Symbolic { checks, refused })
}

/// Why elementwise op `data` is not lowered with symbolic sizes, if it is
/// not ([`checks`]).
fn refusal(model: &Model, data: &OpData) -> std::result::Result<(), Refusal> {
    let y = result_dims(model, data)?;
    let channels = channel_operands(model, data);
    for &v in data_inputs(data) {
        let operand = ranked_dims(model, v)?;
        let known = !operand.iter().chain(&y).any(|d| *d == Dim::Unknown);
        if channels.contains(&v) {
            if operand.len() != 1 || y.len() < 2 || !known {
                return Err(Refusal::Refused(
                    "a per-channel parameter that is not a vector of known size",
                ));
            }
            continue;
        }
        let at_run_time = operand.len() <= y.len() && known;
        if !broadcasts_statically(&operand, &y) && !at_run_time {
            return Err(Refusal::Refused(
                "a broadcast between sizes that may differ at run time",
            ));
        }
    }
    for &r in data.results.iter().flatten() {
        if ranked_dims(model, r)? != y {
            return Err(Refusal::Refused("results of different shapes"));
        }
    }
    Ok(())
}

/// Lowers a run of elementwise ops as one `linalg.generic` computing
/// `outputs` (the results of the run used after it).
pub(crate) fn lower_chain(kb: &mut KernelBuilder, chain: &[OpId], outputs: &[Value]) -> Result<()> {
    let ir = &kb.model.ir;
    let produced: Vec<Value> = chain
        .iter()
        .flat_map(|&o| ir.op(o).results.iter().flatten().copied())
        .collect();
    let (out_dims, _) = kb.shape(outputs[0])?;
    for &o in &outputs[1..] {
        if kb.shape(o)?.0 != out_dims {
            return Err(kb.unsupported(
                *chain.last().expect("non-empty"),
                "fused outputs of different shapes",
            ));
        }
    }
    // Each operand must broadcast to its op's result numpy-style or be a
    // per-channel parameter: the other legacy rules (opset < 7
    // `broadcast`/`axis`) align operands differently, and reading them with
    // right-aligned maps would index out of bounds.
    for &o in chain {
        let data = ir.op(o);
        if data.kind == OpKind::BatchNormalization {
            continue;
        }
        let Some(result) = data.results.first().copied().flatten() else {
            continue;
        };
        let result_dims = kb.shape(result)?.0;
        for v in data_inputs(data) {
            if !broadcasts_to(&kb.shape(*v)?.0, &result_dims) && !is_channel_operand(kb, chain, *v)?
            {
                return Err(kb.unsupported(
                    o,
                    "an operand that broadcasts only under the legacy (opset < 7) rules",
                ));
            }
        }
    }
    // Operands from outside the run, in order of first use; one that was
    // computed in an output's destination is read from that output instead.
    let mut ins: Vec<Value> = vec![];
    let mut in_place: HashMap<Value, usize> = HashMap::new();
    for &o in chain {
        for v in data_inputs(ir.op(o)) {
            if produced.contains(v) || ins.contains(v) || in_place.contains_key(v) {
                continue;
            }
            match kb
                .computed_in(*v)
                .and_then(|target| outputs.iter().position(|&o| o == target))
            {
                Some(slot) => {
                    in_place.insert(*v, slot);
                }
                None => ins.push(*v),
            }
        }
    }
    let rank = out_dims.len();
    // Operands broadcast at run time are read in the body instead
    // (`tensor.extract`, index 0 where their size is 1).
    let mut gathered: Vec<(Value, Gather)> = vec![];
    for &v in &ins {
        let gather = if is_channel_operand(kb, chain, v)? {
            channel_gather(kb, v, outputs[0])?
        } else {
            runtime_gather(kb, v, outputs[0])?
        };
        if let Some(g) = gather {
            gathered.push((v, g));
        }
    }
    ins.retain(|v| !gathered.iter().any(|(g, _)| g == v));
    if gathered.is_empty() && in_place.is_empty() {
        if let Some(source) = lookup::table_source(kb, chain, &ins, outputs)? {
            let scalars: Vec<Value> = ins.iter().copied().filter(|&v| v != source).collect();
            let run = (source, scalars.as_slice());
            let table = lookup::table_of(kb, chain, run, outputs[0], scalar_op_widened)?;
            return lookup::lower(kb, source, table, outputs[0]);
        }
    }
    let cx = kb.e.cx;
    let mut in_operands = vec![];
    for &v in &ins {
        let map = if is_channel_operand(kb, chain, v)? {
            channel_map(cx, rank)
        } else {
            broadcast_map(cx, &kb.shape(v)?.0, &out_dims)
        };
        in_operands.push((kb.tensor(v), map));
    }
    let mut out_operands = vec![];
    for (slot, &o) in outputs.iter().enumerate() {
        let reused = in_place.iter().find(|(_, &s)| s == slot).map(|(v, _)| *v);
        let init = match reused {
            Some(v) => kb.tensor(v),
            None => kb.init(o)?,
        };
        out_operands.push((init, identity_map(cx, rank)));
    }
    let mut is_bool = vec![];
    for &v in ins.iter().chain(outputs) {
        is_bool.push(kb.shape(v)?.1 == ElemType::Bool);
    }
    let op = try_generic(
        kb.e,
        &in_operands,
        &out_operands,
        &vec![false; rank],
        |be, args| {
            // Booleans are stored as i8: compute with i1.
            let loaded = |i: usize| {
                if is_bool[i] {
                    be.cmpi(CmpiPredicate::Ne, args[i], be.i(args[i].r#type(), 0))
                } else {
                    args[i]
                }
            };
            let mut scalars: HashMap<Value, MValue> = HashMap::new();
            for (i, &v) in ins.iter().enumerate() {
                scalars.insert(v, loaded(i));
            }
            for (&v, &slot) in &in_place {
                scalars.insert(v, loaded(ins.len() + slot));
            }
            for (v, g) in &gathered {
                scalars.insert(*v, g.read(be));
            }
            for &o in chain {
                let results = scalar_op_widened(kb, be, o, &scalars)?;
                for (v, s) in ir.op(o).results.iter().zip(results) {
                    if let (Some(v), Some(s)) = (v, s) {
                        scalars.insert(*v, s);
                    }
                }
            }
            let i8 = be.int_type(8);
            Ok(outputs
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if is_bool[ins.len() + i] {
                        be.extui(scalars[v], i8)
                    } else {
                        scalars[v]
                    }
                })
                .collect())
        },
    )?;
    let bits = kb.shape(outputs[0])?.1.bit_width().max(8);
    let generic = kb.elementwise(op, &out_dims, bits);
    for (i, &o) in outputs.iter().enumerate() {
        kb.define(o, generic.result(i).expect("one result per output").into());
    }
    Ok(())
}

/// [`scalar_op`], with f16 and bf16 operands widened to f32 and f16/bf16
/// results rounded back once ([`half`]), as the references compute them
/// (Cast, CastLike and BitCast convert their own operands).
fn scalar_op_widened<'c, 'b>(
    kb: &KernelBuilder<'c, '_>,
    e: Emitter<'c, 'b>,
    op: OpId,
    scalars: &HashMap<Value, MValue<'c, 'b>>,
) -> Result<Vec<Option<MValue<'c, 'b>>>> {
    let data = kb.model.ir.op(op);
    let is_half = |v: &Value| kb.shape(*v).map(|(_, t)| half::is_half(t));
    let mut touches_half = false;
    for v in data.inputs.iter().chain(&data.results).flatten() {
        touches_half |= is_half(v)?;
    }
    if !touches_half || matches!(data.kind, OpKind::Cast | OpKind::CastLike | OpKind::BitCast) {
        return scalar_op(kb, e, op, scalars);
    }
    let mut wide = scalars.clone();
    for v in data.inputs.iter().flatten() {
        if let Some(&s) = scalars.get(v) {
            wide.insert(*v, half::widen(e, s));
        }
    }
    let results = scalar_op(kb, e, op, &wide)?;
    results
        .into_iter()
        .zip(&data.results)
        .map(|(r, v)| {
            Ok(match (r, v) {
                (Some(r), Some(v)) => Some(half::narrow(e, r, elem_type(e.cx, kb.shape(*v)?.1)?)),
                (r, _) => r,
            })
        })
        .collect()
}

/// Emits the scalar computation of one elementwise op; returns one scalar
/// per result slot (`None` for results it does not produce).
fn scalar_op<'c, 'b>(
    kb: &KernelBuilder<'c, '_>,
    e: Emitter<'c, 'b>,
    op: OpId,
    scalars: &HashMap<Value, MValue<'c, 'b>>,
) -> Result<Vec<Option<MValue<'c, 'b>>>> {
    let data = kb.model.ir.op(op);
    let arg = |i: usize| data.inputs.get(i).copied().flatten().map(|v| scalars[&v]);
    let elem = |i: usize| -> Result<ElemType> {
        let v = data.inputs[i].expect("present");
        Ok(kb.shape(v)?.1)
    };
    let x = arg(0).expect("elementwise ops have a first input");
    let t = elem(0)?;
    let float = t.is_float();
    let fattr = |name: &str, default: f32| data.attrs.float(name).unwrap_or(default) as f64;
    let out_elem = kb
        .shape(data.results[0].expect("elementwise ops produce a result"))?
        .1;
    let ty = x.r#type();
    let fl = |v: f64| e.f(ty, v);
    let which = match data.kind.family_op() {
        FamilyOp::Elementwise(which) => which,
        FamilyOp::Norm(NormOp::BatchNormalization) => {
            let mut out = vec![Some(batch_norm_scalar(kb, e, op, scalars)?)];
            out.resize(data.results.len(), None);
            return Ok(out);
        }
        FamilyOp::Quant(QuantOp::QuantizeLinear | QuantOp::DequantizeLinear) => {
            return Ok(vec![Some(quantize_scalar(kb, e, op, scalars)?)]);
        }
        _ => unreachable!("runs hold the elementwise ops, BatchNormalization and Q/DQ"),
    };
    use ElementwiseOp::*;
    let r = match which {
        Neg if float => e.negf(x),
        Neg => e.subi(e.i(ty, 0), x),
        Abs if float => e.absf(x),
        Abs if t.is_signed_int() => e.absi(x),
        Abs => x,
        Relu if float => e.maximumf(x, fl(0.0)),
        Relu => e.maxsi(x, e.i(ty, 0)),
        LeakyRelu => {
            let neg = e.mulf(x, fl(fattr("alpha", 0.01)));
            e.select(e.cmpf(CmpfPredicate::Ogt, x, fl(0.0)), x, neg)
        }
        Elu if float => {
            let exp_m1 = e.subf(math::exp(e, x), fl(1.0));
            let neg = e.mulf(exp_m1, fl(fattr("alpha", 1.0)));
            e.select(e.cmpf(CmpfPredicate::Olt, x, fl(0.0)), neg, x)
        }
        Selu if float => {
            let alpha = fl(fattr("alpha", 1.673_263_2));
            let neg = e.subf(e.mulf(math::exp(e, x), alpha), alpha);
            let picked = e.select(e.cmpf(CmpfPredicate::Ogt, x, fl(0.0)), x, neg);
            e.mulf(picked, fl(fattr("gamma", 1.050_701)))
        }
        Sigmoid => math::sigmoid(e, x),
        HardSigmoid => {
            let y = e.addf(e.mulf(x, fl(fattr("alpha", 0.2))), fl(fattr("beta", 0.5)));
            clamp(e, y, fl(0.0), fl(1.0))
        }
        HardSwish => {
            let y = e.addf(e.mulf(x, fl(1.0 / 6.0)), fl(0.5));
            e.mulf(x, clamp(e, y, fl(0.0), fl(1.0)))
        }
        Swish => {
            let alpha = fattr("alpha", 1.0);
            e.mulf(x, math::sigmoid(e, e.mulf(x, fl(alpha))))
        }
        Tanh => math::tanh(e, x),
        Exp => math::exp(e, x),
        Log => math::log(e, x),
        Sqrt => e.sqrt(x),
        Erf => math::erf(e, x),
        Sin => e.sin(x),
        Cos => e.cos(x),
        Tan => e.tan(x),
        Atan => e.atan(x),
        Asin => e.asin(x),
        Acos => e.acos(x),
        Sinh => e.sinh(x),
        Cosh => e.cosh(x),
        Asinh => e.asinh(x),
        Acosh => e.acosh(x),
        Atanh => e.atanh(x),
        Floor => e.floor(x),
        Ceil => e.ceil(x),
        Round => e.roundeven(x),
        Reciprocal => e.divf(fl(1.0), x),
        Softplus => e.log1p(e.exp(x)),
        Softsign => e.divf(x, e.addf(fl(1.0), e.absf(x))),
        Gelu => gelu(e, x, data.attrs.string("approximate") == Some("tanh")),
        Activation => {
            let name = data.attrs.string("activation").unwrap_or("");
            if !ACTIVATIONS.contains(&name) {
                return Err(kb.unsupported(op, &format!("activation '{name}'")));
            }
            apply_activation(
                e,
                name,
                data.attrs.floats("activation_params").unwrap_or_default(),
                x,
            )
        }
        Clip => {
            let lo = match (kb.model.ir.op(op).version < 11, arg(1)) {
                (true, _) => Some(fl(fattr("min", f32::MIN))),
                (false, a) => a,
            };
            let hi = match (kb.model.ir.op(op).version < 11, arg(2)) {
                (true, _) => Some(fl(fattr("max", f32::MAX))),
                (false, a) => a,
            };
            let mut y = x;
            if let Some(lo) = lo {
                y = if float {
                    e.maximumf(y, lo)
                } else {
                    e.binary(max_int(t), y, lo)
                };
            }
            if let Some(hi) = hi {
                y = if float {
                    e.minimumf(y, hi)
                } else {
                    e.binary(min_int(t), y, hi)
                };
            }
            y
        }
        Cast | CastLike => {
            let saturate = data.attrs.int("saturate").unwrap_or(1) != 0;
            cast(e, x, t, out_elem, saturate)?.ok_or_else(|| {
                kb.unsupported(
                    op,
                    &format!("a cast from {t} to {out_elem} (rounding twice through f32)"),
                )
            })?
        }
        // The same bits read as another type of the same width (booleans
        // are their byte).
        BitCast if t.bit_width() == out_elem.bit_width() => {
            let byte = e.int_type(8);
            let x = if t == ElemType::Bool {
                e.extui(x, byte)
            } else {
                x
            };
            let to = elem_type(e.cx, out_elem)?;
            let y = if x.r#type() == to {
                x
            } else {
                e.bitcast(x, to)
            };
            if out_elem == ElemType::Bool {
                e.cmpi(CmpiPredicate::Ne, y, e.i(byte, 0))
            } else {
                y
            }
        }
        Add | Sum => fold(
            e,
            data.inputs.iter().flatten().map(|v| scalars[v]),
            if float {
                BinaryOp::AddF
            } else {
                BinaryOp::AddI
            },
        ),
        Sub => e.binary(
            if float {
                BinaryOp::SubF
            } else {
                BinaryOp::SubI
            },
            x,
            arg(1).expect("binary"),
        ),
        Mul => e.binary(
            if float {
                BinaryOp::MulF
            } else {
                BinaryOp::MulI
            },
            x,
            arg(1).expect("binary"),
        ),
        Div if float => e.divf(x, arg(1).expect("binary")),
        Div => e.binary(
            if t.is_signed_int() {
                BinaryOp::DivSI
            } else {
                BinaryOp::DivUI
            },
            x,
            arg(1).expect("binary"),
        ),
        Pow if float => {
            let p = to_float(e, arg(1).expect("binary"), elem(1)?, (t, ty));
            pow(kb, e, data, x, p)
        }
        Pow => int_pow(e, (x, t), (arg(1).expect("binary"), elem(1)?)),
        Max => fold(
            e,
            data.inputs.iter().flatten().map(|v| scalars[v]),
            if float {
                BinaryOp::MaximumF
            } else {
                max_int(t)
            },
        ),
        Min => fold(
            e,
            data.inputs.iter().flatten().map(|v| scalars[v]),
            if float {
                BinaryOp::MinimumF
            } else {
                min_int(t)
            },
        ),
        Mean if float => {
            let n = data.inputs.iter().flatten().count() as f64;
            let s = fold(
                e,
                data.inputs.iter().flatten().map(|v| scalars[v]),
                BinaryOp::AddF,
            );
            e.divf(s, fl(n))
        }
        PRelu => {
            let neg = e.mulf(x, arg(1).expect("binary"));
            e.select(e.cmpf(CmpfPredicate::Ogt, x, fl(0.0)), x, neg)
        }
        Equal | Greater | GreaterOrEqual | Less | LessOrEqual => {
            e.compare(comparison(which, t), x, arg(1).expect("binary"))
        }
        And => e.andi(x, arg(1).expect("binary")),
        Or => e.ori(x, arg(1).expect("binary")),
        Xor => e.xori(x, arg(1).expect("binary")),
        Not => e.xori(x, e.i(ty, 1)),
        Where => e.select(x, arg(1).expect("ternary"), arg(2).expect("ternary")),
        BitwiseAnd => e.andi(x, arg(1).expect("binary")),
        BitwiseOr => e.ori(x, arg(1).expect("binary")),
        BitwiseXor => e.xori(x, arg(1).expect("binary")),
        BitwiseNot => e.xori(x, e.i(ty, -1)),
        BitShift => {
            let left = match data.attrs.string("direction") {
                Some("LEFT") => true,
                Some("RIGHT") => false,
                other => {
                    return Err(kb.unsupported(op, &format!("direction {other:?} (LEFT or RIGHT)")))
                }
            };
            bit_shift(e, x, arg(1).expect("binary"), t, left)
        }
        Mod if !float => {
            let fmod = data.attrs.int("fmod").unwrap_or(0) != 0;
            int_mod(e, x, arg(1).expect("binary"), t.is_signed_int(), fmod)
        }
        Mod => {
            let fmod = data.attrs.int("fmod").unwrap_or(0) != 0;
            float_mod(e, x, arg(1).expect("binary"), fmod)
        }
        IsNaN if float => e.cmpf(CmpfPredicate::Uno, x, x),
        IsInf if float => {
            let neg = data.attrs.int("detect_negative").unwrap_or(1) != 0;
            let pos = data.attrs.int("detect_positive").unwrap_or(1) != 0;
            let is_pos = e.cmpf(CmpfPredicate::Oeq, x, fl(f64::INFINITY));
            let is_neg = e.cmpf(CmpfPredicate::Oeq, x, fl(f64::NEG_INFINITY));
            match (pos, neg) {
                (true, true) => e.ori(is_pos, is_neg),
                (true, false) => is_pos,
                (false, true) => is_neg,
                (false, false) => e.i(e.int_type(1), 0),
            }
        }
        Sign if float => {
            // ±0 and NaN are their own sign.
            let pos = e.cmpf(CmpfPredicate::Ogt, x, fl(0.0));
            let neg = e.cmpf(CmpfPredicate::Olt, x, fl(0.0));
            e.select(pos, fl(1.0), e.select(neg, fl(-1.0), x))
        }
        Sign => {
            let zero = e.i(ty, 0);
            let nonzero = e.select(e.cmpi(CmpiPredicate::Ne, x, zero), e.i(ty, 1), zero);
            if t.is_signed_int() {
                e.select(e.cmpi(CmpiPredicate::Slt, x, zero), e.i(ty, -1), nonzero)
            } else {
                nonzero
            }
        }
        // Integer inputs of the float ops, a BitCast between widths, and
        // the ops the dialect decomposes before lowering.
        Elu | Selu | Mean | IsNaN | IsInf | BitCast | Celu | Mish | Shrink | ThresholdedRelu => {
            return Err(kb.unsupported(op, &format!("no elementwise lowering for {t} inputs")))
        }
    };
    let mut out = vec![Some(r)];
    out.resize(data.results.len(), None);
    Ok(out)
}
