//! Elementwise ops: a run of them becomes one `linalg.generic` over the
//! run's output shape whose body computes every op of the run per element,
//! so no intermediate of the run is ever stored.
//!
//! Inputs broadcast numpy-style through their indexing maps (a dim of size 1
//! against a larger output dim reads index 0). With symbolic sizes, an
//! input dim that is 1 or the output's only at run time (`"a"` against
//! `bcast("a","b")`) is read with `tensor.extract` in the body at index 0
//! where its run-time size is 1 (the model's entry has checked that it is
//! 1 or the output's, `symbols::checks`). When the run consumes the
//! result of the op just before it in the kernel (a MatMul, a Conv), that
//! result was computed in the run's output buffer and is read and rewritten
//! in place (see `plan_in_place` in `ops/mod.rs`).
//!
//! f16 and bf16 ops compute in f32 and round each op's result once (as
//! numpy and `ml_dtypes` do), so a run of them rounds between ops like
//! the reference: see `scalar_op_widened`.

use std::collections::HashMap;

use melior::ir::{AffineMap, Type, Value as MValue, ValueLike};
use melior::Context;
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{Dim, ElemType, OpKind, Value};

use super::half;
use super::math;
use super::narrow::{self, Format};
use super::structured::const_data;
use super::unsupported;
use crate::builder::{
    d, identity_map, map, try_generic, BinaryOp, CastOp, CmpfPredicate, CmpiPredicate, Emitter,
    Expr, Predicate,
};
use crate::error::Result;
use crate::kernel::{value_tensor, KernelBuilder};
use crate::symbols;
use crate::types::{elem_type, scalar_type};

/// Whether ops of `kind` are computed per element (and so fuse into runs):
/// the dialect's elementwise family.
pub(crate) fn is_elementwise(kind: OpKind) -> bool {
    use OpKind::*;
    kind.is_unary_elementwise()
        || matches!(
            kind,
            Add | Sub
                | Mul
                | Div
                | Pow
                | Mod
                | And
                | Or
                | Xor
                | Equal
                | Greater
                | GreaterOrEqual
                | Less
                | LessOrEqual
                | BitShift
                | BitwiseAnd
                | BitwiseOr
                | BitwiseXor
                | PRelu
                | Max
                | Min
                | Mean
                | Sum
                | Where
                | Activation
                | BatchNormalization
        )
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
            return Err(unsupported(
                kb,
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
            if !broadcasts_to(&kb.shape(*v)?.0, &result_dims)
                && !super::norm::is_channel_operand(kb, chain, *v)?
            {
                return Err(unsupported(
                    kb,
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
        let gather = if super::norm::is_channel_operand(kb, chain, v)? {
            channel_gather(kb, v, outputs[0])?
        } else {
            runtime_gather(kb, v, outputs[0])?
        };
        if let Some(g) = gather {
            gathered.push((v, g));
        }
    }
    ins.retain(|v| !gathered.iter().any(|(g, _)| g == v));
    let cx = kb.e.cx;
    let mut in_operands = vec![];
    for &v in &ins {
        let map = if super::norm::is_channel_operand(kb, chain, v)? {
            super::norm::channel_map(cx, rank)
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

/// How the body of a run reads an operand broadcast at run time.
pub(crate) struct Gather<'c, 'a> {
    tensor: MValue<'c, 'a>,
    /// The loop dim of each operand dim, and `Some(is_one)` (an `i1`) where
    /// the operand's size is 1 only at run time, `None` where it is
    /// statically 1 (`Some` index 0 either way) — or the loop index as is.
    axes: Vec<(usize, Option<Option<MValue<'c, 'a>>>)>,
    /// The stored element type (`i8` for booleans, computed as `i1`).
    elem: Type<'c>,
    is_bool: bool,
}

impl<'c, 'a> Gather<'c, 'a> {
    /// The operand's element at the body's loop indices.
    pub(crate) fn read<'b>(&self, be: Emitter<'c, 'b>) -> MValue<'c, 'b> {
        let zero = be.index(0);
        let indices: Vec<MValue> = self
            .axes
            .iter()
            .map(|&(dim, broadcast)| match broadcast {
                None => be.loop_index(dim),
                Some(None) => zero,
                Some(Some(is_one)) => be.select(is_one, zero, be.loop_index(dim)),
            })
            .collect();
        let x = be.extract(self.tensor, &indices);
        if self.is_bool {
            be.cmpi(CmpiPredicate::Ne, x, be.i(self.elem, 0))
        } else {
            x
        }
    }

    /// How to read a matrix-product operand `v` (rank ≥ 2) over the loops
    /// of `[batch…, rows, cols]` with the result's batch dims `batch`: a
    /// batch dim at index 0 where it is a static 1, or where its run-time
    /// size is 1 and it broadcasts only at run time
    /// ([`symbols::broadcast_at_run_time`]); every other dim at its loop.
    pub(crate) fn batch_of(kb: &KernelBuilder<'c, 'a>, v: Value, batch: &[Dim]) -> Result<Self> {
        let dims = value_tensor(kb.model, v)?
            .dims()
            .unwrap_or_default()
            .to_vec();
        let sizes = kb.sizes(v)?;
        let own = dims.len() - 2;
        let lead = batch.len() - own;
        let e = kb.e;
        let mut axes = vec![];
        for (j, (d, size)) in dims.iter().zip(&sizes).enumerate() {
            let broadcast = match j < own {
                true if *d == Dim::Known(1) => Some(None),
                true if symbols::broadcast_at_run_time(d, &batch[lead + j]) => {
                    Some(Some(e.cmpi(CmpiPredicate::Eq, size.value(&e), e.index(1))))
                }
                _ => None,
            };
            axes.push((lead + j, broadcast));
        }
        let elem = kb.shape(v)?.1;
        Ok(Gather {
            tensor: kb.tensor(v),
            axes,
            elem: elem_type(e.cx, elem)?,
            is_bool: elem == ElemType::Bool,
        })
    }

    /// How to read the 1-D tensor `v` (a per-tensor or per-axis
    /// parameter whose size is known only at run time) over a generic's
    /// loops: at loop `axis`'s index, or at 0 where its run-time size is
    /// 1 (always with no axis).
    pub(crate) fn along(kb: &KernelBuilder<'c, 'a>, v: Value, axis: Option<usize>) -> Result<Self> {
        let e = kb.e;
        let size = kb.sizes(v)?[0].value(&e);
        let broadcast = axis.map(|_| e.cmpi(CmpiPredicate::Eq, size, e.index(1)));
        let elem = kb.shape(v)?.1;
        Ok(Gather {
            tensor: kb.tensor(v),
            axes: vec![(axis.unwrap_or(0), Some(broadcast))],
            elem: elem_type(e.cx, elem)?,
            is_bool: elem == ElemType::Bool,
        })
    }
}

/// How a generic's body reads an operand: one of its inputs (at that
/// position of the body's arguments), or gathered where its sizes
/// broadcast only at run time.
pub(crate) enum BodyOperand<'c, 'a> {
    Input(usize),
    Gathered(Gather<'c, 'a>),
}

impl<'c, 'a> BodyOperand<'c, 'a> {
    /// The operand's element at the body's loop indices, from the body's
    /// `args`.
    pub(crate) fn read<'b>(&self, be: Emitter<'c, 'b>, args: &[MValue<'c, 'b>]) -> MValue<'c, 'b> {
        match self {
            BodyOperand::Input(i) => args[*i],
            BodyOperand::Gathered(g) => g.read(be),
        }
    }
}

/// How to read operand `v` of a run computing `out` when some dim of it
/// broadcasts at run time ([`symbols::broadcast_at_run_time`]); `None` when
/// its indexing map can say how (every dim 1 or `out`'s at compile time).
pub(crate) fn runtime_gather<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    v: Value,
    out: Value,
) -> Result<Option<Gather<'c, 'a>>> {
    let y = value_tensor(kb.model, out)?
        .dims()
        .unwrap_or_default()
        .to_vec();
    runtime_gather_to(kb, v, &y)
}

/// [`runtime_gather`] for a computation over dims `y` that is no value
/// of the model (FusedAttention's scores).
pub(crate) fn runtime_gather_to<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    v: Value,
    y: &[Dim],
) -> Result<Option<Gather<'c, 'a>>> {
    let d = value_tensor(kb.model, v)?
        .dims()
        .unwrap_or_default()
        .to_vec();
    if d.len() > y.len()
        || !d
            .iter()
            .rev()
            .zip(y.iter().rev())
            .any(|(d, y)| symbols::broadcast_at_run_time(d, y))
    {
        return Ok(None);
    }
    let sizes = kb.sizes(v)?;
    let lead = y.len() - d.len();
    let e = kb.e;
    let axes = d
        .iter()
        .zip(&sizes)
        .enumerate()
        .map(|(j, (dj, size))| {
            let broadcast = if *dj == Dim::Known(1) {
                Some(None)
            } else if symbols::broadcast_at_run_time(dj, &y[lead + j]) {
                Some(Some(e.cmpi(CmpiPredicate::Eq, size.value(&e), e.index(1))))
            } else {
                None
            };
            (lead + j, broadcast)
        })
        .collect();
    let elem = kb.shape(v)?.1;
    Ok(Some(Gather {
        tensor: kb.tensor(v),
        axes,
        elem: elem_type(e.cx, elem)?,
        is_bool: elem == ElemType::Bool,
    }))
}

/// How to read per-channel parameter `v` (a `[C]` vector read along dim 1
/// of `out`, `norm::channel_operands`) when its size is not the channel
/// count at compile time: at index 0 where its run-time size is 1, else
/// at the channel (the model's entry has checked that it is 1 or the
/// channel count, `symbols::checks`); `None` when its indexing map reads it.
fn channel_gather<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    v: Value,
    out: Value,
) -> Result<Option<Gather<'c, 'a>>> {
    let dims = |v| value_tensor(kb.model, v).map(|t| t.dims().unwrap_or_default().to_vec());
    let (c, y) = (dims(v)?, dims(out)?);
    if c.first() == y.get(1) {
        return Ok(None);
    }
    Gather::along(kb, v, Some(1)).map(Some)
}

/// The inputs whose values an op reads (`CastLike`'s second input only
/// gives the type).
pub(crate) fn data_inputs(op: &onnx_mlc_dialect::ir::OpData) -> impl Iterator<Item = &Value> {
    let n = if op.kind == OpKind::CastLike {
        1
    } else {
        op.inputs.len()
    };
    op.inputs[..n.min(op.inputs.len())].iter().flatten()
}

/// Whether an operand of `dims` broadcasts to `out` numpy-style (right
/// aligned, each dim 1 or equal; dynamic dims, negative here, are decided
/// by the dynamic-shape checks).
pub(crate) fn broadcasts_to(dims: &[i64], out: &[i64]) -> bool {
    dims.len() <= out.len()
        && dims
            .iter()
            .zip(&out[out.len() - dims.len()..])
            .all(|(&d, &o)| d == 1 || d == o || d < 0 || o < 0)
}

/// The expressions reading an operand of `dims` broadcast to `out`
/// (right-aligned; a dim of 1 against a larger one reads index 0).
pub(crate) fn broadcast_exprs<'c>(cx: &'c Context, dims: &[i64], out: &[i64]) -> Vec<Expr<'c>> {
    let lead = out.len() - dims.len();
    dims.iter()
        .enumerate()
        .map(|(j, &n)| {
            if n == 1 && out[lead + j] != 1 {
                Expr::constant(cx, 0)
            } else {
                d(cx, lead + j)
            }
        })
        .collect()
}

/// The indexing map reading an operand of `dims` broadcast to `out`.
pub(crate) fn broadcast_map<'c>(cx: &'c Context, dims: &[i64], out: &[i64]) -> AffineMap<'c> {
    map(cx, out.len(), &broadcast_exprs(cx, dims, out))
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
    use OpKind::*;
    let r = match data.kind {
        Neg if float => e.negf(x),
        Neg => e.subi(e.i(ty, 0), x),
        Abs if float => e.absf(x),
        Abs => e.absi(x),
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
                return Err(unsupported(kb, op, &format!("activation '{name}'")));
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
                unsupported(
                    kb,
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
            e.compare(comparison(data.kind, t), x, arg(1).expect("binary"))
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
                    return Err(unsupported(
                        kb,
                        op,
                        &format!("direction {other:?} (LEFT or RIGHT)"),
                    ))
                }
            };
            bit_shift(e, x, arg(1).expect("binary"), t, left)
        }
        Mod if !float => {
            let fmod = data.attrs.int("fmod").unwrap_or(0) != 0;
            int_mod(e, x, arg(1).expect("binary"), t.is_signed_int(), fmod)
        }
        Mod if float => {
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
        BatchNormalization => super::norm::batch_norm_scalar(kb, e, op, scalars)?,
        _ => {
            return Err(unsupported(
                kb,
                op,
                &format!("no elementwise lowering for {t} inputs"),
            ))
        }
    };
    let mut out = vec![Some(r)];
    out.resize(data.results.len(), None);
    Ok(out)
}

/// `x << y` or `x >> y` (arithmetic for signed types). A shift amount
/// out of `[0, width)` (where `arith` shifts are poison) gives 0, or for a
/// signed right shift the sign fill (`-1` for negative `x`), as the
/// reference does.
fn bit_shift<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    y: MValue<'c, 'b>,
    t: ElemType,
    left: bool,
) -> MValue<'c, 'b> {
    let ty = x.r#type();
    let bits = i64::from(t.bit_width());
    let signed = t.is_signed_int();
    let shift = match (left, signed) {
        (true, _) => BinaryOp::ShLI,
        (false, true) => BinaryOp::ShRSI,
        (false, false) => BinaryOp::ShRUI,
    };
    let shifted = e.binary(shift, x, y);
    let out_of_range = if !left && signed {
        e.shrsi(x, e.i(ty, bits - 1))
    } else {
        e.i(ty, 0)
    };
    // Unsigned: a negative amount is a huge one.
    let in_range = e.cmpi(CmpiPredicate::Ult, y, e.i(ty, bits));
    e.select(in_range, shifted, out_of_range)
}

/// Integer `Mod`: the remainder with the divisor's sign (`fmod = 0`,
/// Python's `%`) or the dividend's (`fmod = 1`, C's `%`). A zero divisor
/// gives 0 (ONNX leaves it undefined; the hardware would trap), and so does
/// `x mod -1` (`INT_MIN rem -1` traps too).
fn int_mod<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    y: MValue<'c, 'b>,
    signed: bool,
    fmod: bool,
) -> MValue<'c, 'b> {
    let ty = x.r#type();
    let zero = e.i(ty, 0);
    let mut trivial = e.cmpi(CmpiPredicate::Eq, y, zero);
    if signed {
        let minus_one = e.cmpi(CmpiPredicate::Eq, y, e.i(ty, -1));
        trivial = e.ori(trivial, minus_one);
    }
    let safe_y = e.select(trivial, e.i(ty, 1), y);
    let r = e.binary(
        if signed {
            BinaryOp::RemSI
        } else {
            BinaryOp::RemUI
        },
        x,
        safe_y,
    );
    let r = if signed && !fmod {
        // Move a nonzero remainder whose sign differs from the divisor's.
        let r_neg = e.cmpi(CmpiPredicate::Slt, r, zero);
        let y_neg = e.cmpi(CmpiPredicate::Slt, safe_y, zero);
        let differ = e.xori(r_neg, y_neg);
        let fix = e.andi(differ, e.cmpi(CmpiPredicate::Ne, r, zero));
        e.select(fix, e.addi(r, safe_y), r)
    } else {
        r
    };
    e.select(trivial, zero, r)
}

/// Float `Mod`: C's `fmod` (`fmod = 1`, the dividend's sign), or with the
/// divisor's sign like numpy's `mod` (`fmod = 0`: a nonzero remainder of
/// the other sign moves by `y`, a zero one takes `y`'s sign).
fn float_mod<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    y: MValue<'c, 'b>,
    fmod: bool,
) -> MValue<'c, 'b> {
    let zero = e.f(x.r#type(), 0.0);
    let mut r = e.remf(x, y);
    if !fmod {
        let r_neg = e.cmpf(CmpfPredicate::Olt, r, zero);
        let y_neg = e.cmpf(CmpfPredicate::Olt, y, zero);
        let differ = e.xori(r_neg, y_neg);
        let fix = e.andi(differ, e.cmpf(CmpfPredicate::One, r, zero));
        r = e.select(fix, e.addf(r, y), r);
        let signed_zero = e.copysign(zero, y);
        r = e.select(e.cmpf(CmpfPredicate::Oeq, r, zero), signed_zero, r);
    }
    r
}

/// `x^y`: multiplications for a constant small integer exponent (2, 3, -1,
/// …), `sqrt` for 0.5, else `math.powf`.
fn pow<'c, 'b>(
    kb: &KernelBuilder<'c, '_>,
    e: Emitter<'c, 'b>,
    data: &onnx_mlc_dialect::ir::OpData,
    x: MValue<'c, 'b>,
    y: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    let exponent = data.inputs[1]
        .and_then(|v| const_data(kb.model, v))
        .and_then(|d| d.to_f64s())
        .filter(|v| v.len() == 1)
        .map(|v| v[0]);
    let ty = x.r#type();
    match exponent {
        Some(0.5) => e.sqrt(x),
        Some(p) if p.fract() == 0.0 && p.abs() <= 8.0 => {
            let n = p.abs() as u32;
            // Binary powering.
            let mut acc: Option<MValue> = None;
            let mut base = x;
            let mut k = n;
            while k > 0 {
                if k & 1 == 1 {
                    acc = Some(match acc {
                        Some(a) => e.mulf(a, base),
                        None => base,
                    });
                }
                k >>= 1;
                if k > 0 {
                    base = e.mulf(base, base);
                }
            }
            let r = acc.unwrap_or_else(|| e.f(ty, 1.0));
            if p < 0.0 {
                e.divf(e.f(ty, 1.0), r)
            } else {
                r
            }
        }
        _ => e.powf(x, y),
    }
}

/// `v`, of element type `from`, as a float of element type `to` (MLIR
/// type `ty`).
fn to_float<'c, 'b>(
    e: Emitter<'c, 'b>,
    v: MValue<'c, 'b>,
    from: ElemType,
    (to, ty): (ElemType, melior::ir::Type<'c>),
) -> MValue<'c, 'b> {
    if v.r#type() == ty {
        v
    } else if !from.is_float() {
        let op = if from.is_signed_int() {
            CastOp::SIToFP
        } else {
            CastOp::UIToFP
        };
        e.cast(op, v, ty)
    } else if from.bit_width() < to.bit_width() {
        e.extf(v, ty)
    } else {
        e.truncf(v, ty)
    }
}

/// `x^p` for an integer `x` (Pow's result has the base's type): through
/// f64 for a float exponent, else by binary powering over the exponent's
/// 64 bits; a negative integer exponent gives the truncated `1/x^|p|`
/// (0 unless `x` is ±1).
fn int_pow<'c, 'b>(
    e: Emitter<'c, 'b>,
    (x, t): (MValue<'c, 'b>, ElemType),
    (p, pt): (MValue<'c, 'b>, ElemType),
) -> MValue<'c, 'b> {
    let ty = x.r#type();
    let signed = t.is_signed_int();
    let f64t = melior::ir::Type::float64(e.cx);
    if pt.is_float() {
        let xf = to_float(e, x, t, (ElemType::F64, f64t));
        let pf = to_float(e, p, pt, (ElemType::F64, f64t));
        let r = e.powf(xf, pf);
        return e.cast(
            if signed {
                CastOp::FPToSI
            } else {
                CastOp::FPToUI
            },
            r,
            ty,
        );
    }
    let i64t = e.int_type(64);
    let widen = |v: MValue<'c, 'b>, elem: ElemType| {
        if elem.bit_width() == 64 {
            v
        } else if elem.is_signed_int() {
            e.extsi(v, i64t)
        } else {
            e.extui(v, i64t)
        }
    };
    let (xw, pw) = (widen(x, t), widen(p, pt));
    let one = e.i(i64t, 1);
    let r = e.for_loop(e.index(0), e.index(64), &[one, xw], |le, bit, c| {
        let bit = le.index_cast(bit, i64t);
        let set = le.andi(le.shrui(pw, bit), le.i(i64t, 1));
        let set = le.cmpi(CmpiPredicate::Ne, set, le.i(i64t, 0));
        let acc = le.select(set, le.muli(c[0], c[1]), c[0]);
        vec![acc, le.muli(c[1], c[1])]
    })[0];
    let negative = e.cmpi(CmpiPredicate::Slt, pw, e.i(i64t, 0));
    let odd = e.cmpi(CmpiPredicate::Ne, e.andi(pw, one), e.i(i64t, 0));
    let minus_one = e.i(i64t, -1);
    let of_minus_one = e.select(odd, minus_one, one);
    let inverse = e.select(
        e.cmpi(CmpiPredicate::Eq, xw, one),
        one,
        e.select(
            e.cmpi(CmpiPredicate::Eq, xw, minus_one),
            of_minus_one,
            e.i(i64t, 0),
        ),
    );
    let r = e.select(negative, inverse, r);
    if t.bit_width() == 64 {
        r
    } else {
        e.trunci(r, ty)
    }
}

/// GELU: `x/2 · (1 + erf(x/√2))`, or with `tanh` its approximation
/// `x/2 · (1 + tanh(√(2/π)·(x + 0.044715·x³)))`.
fn gelu<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>, tanh: bool) -> MValue<'c, 'b> {
    let fl = |v: f64| e.f(x.r#type(), v);
    let inner = if tanh {
        let x3 = e.mulf(x, e.mulf(x, x));
        let u = e.addf(x, e.mulf(x3, fl(0.044715)));
        math::tanh(e, e.mulf(u, fl((2.0 / std::f64::consts::PI).sqrt())))
    } else {
        math::erf(e, e.mulf(x, fl(std::f64::consts::FRAC_1_SQRT_2)))
    };
    e.mulf(e.mulf(x, fl(0.5)), e.addf(inner, fl(1.0)))
}

/// The activations of the optimizer's fused ops (`activation` attribute;
/// see the dialect's `ops/fused.rs`).
pub(crate) const ACTIVATIONS: &[&str] = &[
    "",
    "Relu",
    "LeakyRelu",
    "Sigmoid",
    "Tanh",
    "Clip",
    "HardSigmoid",
    "HardSwish",
    "Silu",
    "Gelu",
    "GeluTanh",
];

/// Applies the fused ops' activation `name` (one of [`ACTIVATIONS`]) with
/// its `params` to a float scalar.
pub(crate) fn apply_activation<'c, 'b>(
    e: Emitter<'c, 'b>,
    name: &str,
    params: &[f32],
    x: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    let fl = |v: f64| e.f(x.r#type(), v);
    let p = |i: usize| f64::from(params[i]);
    match name {
        "Relu" => e.maximumf(x, fl(0.0)),
        "LeakyRelu" => {
            let neg = e.mulf(x, fl(p(0)));
            e.select(e.cmpf(CmpfPredicate::Ogt, x, fl(0.0)), x, neg)
        }
        "Sigmoid" => math::sigmoid(e, x),
        "Tanh" => math::tanh(e, x),
        "Clip" => clamp(e, x, fl(p(0)), fl(p(1))),
        "HardSigmoid" => {
            let y = e.addf(e.mulf(x, fl(p(0))), fl(p(1)));
            clamp(e, y, fl(0.0), fl(1.0))
        }
        "HardSwish" => {
            let y = e.addf(e.mulf(x, fl(1.0 / 6.0)), fl(0.5));
            e.mulf(x, clamp(e, y, fl(0.0), fl(1.0)))
        }
        "Silu" => e.mulf(x, math::sigmoid(e, x)),
        "Gelu" => gelu(e, x, false),
        "GeluTanh" => gelu(e, x, true),
        _ => x,
    }
}

fn clamp<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    lo: MValue<'c, 'b>,
    hi: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    e.minimumf(e.maximumf(x, lo), hi)
}

fn fold<'c, 'b>(
    e: Emitter<'c, 'b>,
    mut xs: impl Iterator<Item = MValue<'c, 'b>>,
    op: BinaryOp,
) -> MValue<'c, 'b> {
    let first = xs.next().expect("at least one operand");
    xs.fold(first, |acc, x| e.binary(op, acc, x))
}

fn max_int(t: ElemType) -> BinaryOp {
    if t.is_signed_int() {
        BinaryOp::MaxSI
    } else {
        BinaryOp::MaxUI
    }
}

fn min_int(t: ElemType) -> BinaryOp {
    if t.is_signed_int() {
        BinaryOp::MinSI
    } else {
        BinaryOp::MinUI
    }
}

/// The comparison of a comparison op (ordered for floats; signed or
/// unsigned by the operand type for integers).
fn comparison(kind: OpKind, t: ElemType) -> Predicate {
    use OpKind::*;
    if t.is_float() {
        return Predicate::Float(match kind {
            Equal => CmpfPredicate::Oeq,
            Greater => CmpfPredicate::Ogt,
            GreaterOrEqual => CmpfPredicate::Oge,
            Less => CmpfPredicate::Olt,
            _ => CmpfPredicate::Ole,
        });
    }
    let signed = t.is_signed_int();
    Predicate::Int(match (kind, signed) {
        (Equal, _) => CmpiPredicate::Eq,
        (Greater, true) => CmpiPredicate::Sgt,
        (Greater, false) => CmpiPredicate::Ugt,
        (GreaterOrEqual, true) => CmpiPredicate::Sge,
        (GreaterOrEqual, false) => CmpiPredicate::Uge,
        (Less, true) => CmpiPredicate::Slt,
        (Less, false) => CmpiPredicate::Ult,
        (_, true) => CmpiPredicate::Sle,
        (_, false) => CmpiPredicate::Ule,
    })
}

/// Converts a scalar between element types as ONNX `Cast` does
/// (float→int truncates toward zero; to bool is `!= 0`; to a narrow type
/// through [`narrow`]'s routines, `saturate` applying to the float8
/// formats). `None` for a conversion that is not lowered: from `f64` to a
/// narrow float (rounding twice, through `f32`, could differ from the
/// reference).
pub(crate) fn cast<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    from: ElemType,
    to: ElemType,
    saturate: bool,
) -> Result<Option<MValue<'c, 'b>>> {
    // A narrow source becomes the wide type holding its values exactly.
    let (x, from) = if let Some(f) = Format::of(from) {
        (narrow::decode(e, x, f), ElemType::F32)
    } else if narrow::is_sub_byte_int(from) {
        let wide = if from.is_signed_int() {
            ElemType::I8
        } else {
            ElemType::U8
        };
        (x, wide)
    } else {
        (x, from)
    };
    if let Some(f) = Format::of(to) {
        if from == ElemType::F64 {
            return Ok(None);
        }
        let x = cast_wide(e, x, from, ElemType::F32, Type::float32(e.cx));
        return Ok(Some(narrow::encode(e, x, f, saturate)));
    }
    if narrow::is_sub_byte_int(to) {
        // Truncated toward zero, then wrapped to the type's bits.
        let i8t = e.int_type(8);
        let byte = if from.is_float() {
            let i32t = e.int_type(32);
            let v = cast_wide(e, x, from, ElemType::I32, i32t);
            e.trunci(v, i8t)
        } else {
            cast_wide(e, x, from, ElemType::I8, i8t)
        };
        return Ok(Some(narrow::wrap_int(
            e,
            byte,
            to.bit_width(),
            to.is_signed_int(),
        )));
    }
    Ok(Some(cast_wide(e, x, from, to, scalar_type(e.cx, to)?)))
}

/// [`cast`] between types that are not narrow. Conversions to and from
/// `bf16` go through `f32`: the only ones `arith-expand` turns into integer
/// code; LLVM would make the others library calls (`__truncdfbf2`,
/// `__floatdibf`, …) that neither runtime provides. (From `f64` or a wide
/// integer that rounds twice, which can differ from a direct rounding by
/// one `bf16` ulp on exact ties.)
fn cast_wide<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    from: ElemType,
    to: ElemType,
    to_ty: Type<'c>,
) -> MValue<'c, 'b> {
    if from == to {
        return x;
    }
    let f32t = Type::float32(e.cx);
    if to == ElemType::BF16 && from != ElemType::F32 {
        let x = cast_wide(e, x, from, ElemType::F32, f32t);
        if from.is_float() {
            return e.truncf(x, to_ty);
        }
        // Canonicalization would fold `truncf(sitofp)` back into one
        // conversion: round the (never NaN) `f32` to nearest even on its bits.
        let i32t = e.int_type(32);
        let bits = e.bitcast(x, i32t);
        let lowest_kept = e.andi(e.shrui(bits, e.i(i32t, 16)), e.i(i32t, 1));
        let rounded = e.addi(e.addi(bits, e.i(i32t, 0x7fff)), lowest_kept);
        let high = e.shrui(rounded, e.i(i32t, 16));
        let half = e.trunci(high, e.int_type(16));
        return e.bitcast(half, to_ty);
    }
    if from == ElemType::BF16 && to != ElemType::F32 {
        let x = e.extf(x, f32t);
        return cast_wide(e, x, ElemType::F32, to, to_ty);
    }
    // Booleans compute as i1.
    let width = |t: ElemType| {
        if t == ElemType::Bool {
            1
        } else {
            t.bit_width()
        }
    };
    let (fb, tb) = (width(from), width(to));
    match (from.is_float(), to.is_float()) {
        (true, true) if fb < tb => e.extf(x, to_ty),
        (true, true) => e.truncf(x, to_ty),
        (false, true) if from == ElemType::Bool || !from.is_signed_int() => e.uitofp(x, to_ty),
        (false, true) => e.sitofp(x, to_ty),
        (true, false) if to == ElemType::Bool => {
            e.cmpf(CmpfPredicate::Une, x, e.f(x.r#type(), 0.0))
        }
        (true, false) if to.is_signed_int() => e.fptosi(x, to_ty),
        (true, false) => e.fptoui(x, to_ty),
        (false, false) if to == ElemType::Bool => e.cmpi(CmpiPredicate::Ne, x, e.i(x.r#type(), 0)),
        (false, false) if fb < tb && from != ElemType::Bool && from.is_signed_int() => {
            e.extsi(x, to_ty)
        }
        (false, false) if fb < tb => e.extui(x, to_ty),
        (false, false) if fb > tb => e.trunci(x, to_ty),
        (false, false) => x,
    }
}
