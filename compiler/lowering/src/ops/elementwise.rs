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

use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{Dim, ElemType, OpKind, Value};

use super::half;
use super::math;
use super::narrow::{self, Format};
use super::structured::const_data;
use super::unsupported;
use crate::emit::{region, Emitter};
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
    let mut maps = vec![];
    for &v in &ins {
        maps.push(if super::norm::is_channel_operand(kb, chain, v)? {
            super::norm::channel_map(rank)
        } else {
            broadcast_map(&kb.shape(v)?.0, &out_dims)
        });
    }
    let mut out_inits = vec![];
    for (slot, &o) in outputs.iter().enumerate() {
        let reused = in_place.iter().find(|(_, &s)| s == slot).map(|(v, _)| *v);
        out_inits.push(match reused {
            Some(v) => kb.tensor(v),
            None => kb.init(o)?,
        });
        maps.push(identity_map(rank));
    }
    let e = kb.e;
    let in_tensors: Vec<MValue> = ins.iter().map(|&v| kb.tensor(v)).collect();
    let mut scalar_types = vec![];
    for &v in ins.iter().chain(outputs) {
        scalar_types.push(elem_type(e.cx, kb.shape(v)?.1)?);
    }
    let result_types: Vec<Type> = out_inits.iter().map(|t| t.r#type()).collect();
    let mut failure = None;
    let mut is_bool = vec![];
    for &v in ins.iter().chain(outputs) {
        is_bool.push(kb.shape(v)?.1 == ElemType::Bool);
    }
    let body = region(e.cx, e.loc, &scalar_types, |be, args| {
        // Booleans are stored as i8: compute with i1.
        let loaded = |i: usize| {
            if is_bool[i] {
                be.cmp("arith.cmpi", 1, args[i], be.i(args[i].r#type(), 0))
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
            match scalar_op_widened(kb, be, o, &scalars) {
                Ok(results) => {
                    for (v, s) in ir.op(o).results.iter().zip(results) {
                        if let (Some(v), Some(s)) = (v, s) {
                            scalars.insert(*v, s);
                        }
                    }
                }
                Err(err) => {
                    failure = Some(err);
                    return;
                }
            }
        }
        let i8 = be.int_type(8);
        let yields: Vec<MValue> = outputs
            .iter()
            .enumerate()
            .map(|(i, v)| {
                if is_bool[ins.len() + i] {
                    be.convert("arith.extui", scalars[v], i8)
                } else {
                    scalars[v]
                }
            })
            .collect();
        be.append(be.op("linalg.yield", &yields, &[], &[]));
    });
    if let Some(err) = failure {
        return Err(err);
    }
    let maps_attr = e.attr(&format!("[{}]", maps.join(", ")));
    let iterators = e.attr(&format!(
        "[{}]",
        vec!["#linalg.iterator_type<parallel>"; rank].join(", ")
    ));
    let mut operands = in_tensors;
    operands.extend(&out_inits);
    let op = melior::ir::operation::OperationBuilder::new("linalg.generic", e.loc)
        .add_operands(&operands)
        .add_results(&result_types)
        .add_attributes(&[
            (e.id("indexing_maps"), maps_attr),
            (e.id("iterator_types"), iterators),
            (
                e.id("operandSegmentSizes"),
                e.segments(&[ins.len() as i32, outputs.len() as i32]),
            ),
        ])
        .add_regions([body])
        .build()
        .expect("a well-formed linalg.generic");
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
                None => super::structured::loop_index(be, dim),
                Some(None) => zero,
                Some(Some(is_one)) => {
                    be.select(is_one, zero, super::structured::loop_index(be, dim))
                }
            })
            .collect();
        let mut operands = vec![self.tensor];
        operands.extend(indices);
        let x = be.value(be.op("tensor.extract", &operands, &[self.elem], &[]));
        if self.is_bool {
            be.cmp("arith.cmpi", 1, x, be.i(self.elem, 0))
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
                    Some(Some(e.cmp("arith.cmpi", 0, size.value(&e), e.index(1))))
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
        let broadcast = axis.map(|_| e.cmp("arith.cmpi", 0, size, e.index(1)));
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
                Some(Some(e.cmp("arith.cmpi", 0, size.value(&e), e.index(1))))
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

/// `affine_map<(d0, …) -> (d0, …)>` of rank `rank`.
pub(crate) fn identity_map(rank: usize) -> String {
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    format!("affine_map<({}) -> ({})>", dims.join(", "), dims.join(", "))
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

/// The indexing map reading an operand of `dims` broadcast to `out`.
pub(crate) fn broadcast_map(dims: &[i64], out: &[i64]) -> String {
    let rank = out.len();
    let all: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let lead = rank - dims.len();
    let exprs: Vec<String> = dims
        .iter()
        .enumerate()
        .map(|(j, &d)| {
            if d == 1 && out[lead + j] != 1 {
                "0".to_string()
            } else {
                format!("d{}", lead + j)
            }
        })
        .collect();
    format!("affine_map<({}) -> ({})>", all.join(", "), exprs.join(", "))
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
        Neg if float => e.same("arith.negf", &[x]),
        Neg => e.same("arith.subi", &[e.i(ty, 0), x]),
        Abs if float => e.same("math.absf", &[x]),
        Abs => e.same("math.absi", &[x]),
        Relu if float => e.same("arith.maximumf", &[x, fl(0.0)]),
        Relu => e.same("arith.maxsi", &[x, e.i(ty, 0)]),
        LeakyRelu => {
            let neg = e.same("arith.mulf", &[x, fl(fattr("alpha", 0.01))]);
            e.select(e.cmp("arith.cmpf", 2, x, fl(0.0)), x, neg)
        }
        Elu if float => {
            let exp_m1 = e.same("arith.subf", &[math::exp(e, x), fl(1.0)]);
            let neg = e.same("arith.mulf", &[exp_m1, fl(fattr("alpha", 1.0))]);
            e.select(e.cmp("arith.cmpf", 4, x, fl(0.0)), neg, x)
        }
        Selu if float => {
            let alpha = fl(fattr("alpha", 1.673_263_2));
            let neg = e.same(
                "arith.subf",
                &[e.same("arith.mulf", &[math::exp(e, x), alpha]), alpha],
            );
            let picked = e.select(e.cmp("arith.cmpf", 2, x, fl(0.0)), x, neg);
            e.same("arith.mulf", &[picked, fl(fattr("gamma", 1.050_701))])
        }
        Sigmoid => math::sigmoid(e, x),
        HardSigmoid => {
            let y = e.same(
                "arith.addf",
                &[
                    e.same("arith.mulf", &[x, fl(fattr("alpha", 0.2))]),
                    fl(fattr("beta", 0.5)),
                ],
            );
            clamp(e, y, fl(0.0), fl(1.0))
        }
        HardSwish => {
            let y = e.same(
                "arith.addf",
                &[e.same("arith.mulf", &[x, fl(1.0 / 6.0)]), fl(0.5)],
            );
            e.same("arith.mulf", &[x, clamp(e, y, fl(0.0), fl(1.0))])
        }
        Swish => {
            let alpha = fattr("alpha", 1.0);
            e.same(
                "arith.mulf",
                &[x, math::sigmoid(e, e.same("arith.mulf", &[x, fl(alpha)]))],
            )
        }
        Tanh => math::tanh(e, x),
        Exp => math::exp(e, x),
        Log => math::log(e, x),
        Sqrt => e.same("math.sqrt", &[x]),
        Erf => math::erf(e, x),
        Sin => e.same("math.sin", &[x]),
        Cos => e.same("math.cos", &[x]),
        Tan => e.same("math.tan", &[x]),
        Atan => e.same("math.atan", &[x]),
        Asin => e.same("math.asin", &[x]),
        Acos => e.same("math.acos", &[x]),
        Sinh => e.same("math.sinh", &[x]),
        Cosh => e.same("math.cosh", &[x]),
        Asinh => e.same("math.asinh", &[x]),
        Acosh => e.same("math.acosh", &[x]),
        Atanh => e.same("math.atanh", &[x]),
        Floor => e.same("math.floor", &[x]),
        Ceil => e.same("math.ceil", &[x]),
        Round => e.same("math.roundeven", &[x]),
        Reciprocal => e.same("arith.divf", &[fl(1.0), x]),
        Softplus => e.same("math.log1p", &[e.same("math.exp", &[x])]),
        Softsign => e.same(
            "arith.divf",
            &[
                x,
                e.same("arith.addf", &[fl(1.0), e.same("math.absf", &[x])]),
            ],
        ),
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
                    e.same("arith.maximumf", &[y, lo])
                } else {
                    e.same(max_int(t), &[y, lo])
                };
            }
            if let Some(hi) = hi {
                y = if float {
                    e.same("arith.minimumf", &[y, hi])
                } else {
                    e.same(min_int(t), &[y, hi])
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
                e.convert("arith.extui", x, byte)
            } else {
                x
            };
            let to = elem_type(e.cx, out_elem)?;
            let y = if x.r#type() == to {
                x
            } else {
                e.convert("arith.bitcast", x, to)
            };
            if out_elem == ElemType::Bool {
                e.cmp("arith.cmpi", 1, y, e.i(byte, 0))
            } else {
                y
            }
        }
        Add | Sum => fold(
            e,
            data.inputs.iter().flatten().map(|v| scalars[v]),
            if float { "arith.addf" } else { "arith.addi" },
        ),
        Sub => e.same(
            if float { "arith.subf" } else { "arith.subi" },
            &[x, arg(1).expect("binary")],
        ),
        Mul => e.same(
            if float { "arith.mulf" } else { "arith.muli" },
            &[x, arg(1).expect("binary")],
        ),
        Div if float => e.same("arith.divf", &[x, arg(1).expect("binary")]),
        Div => e.same(
            if t.is_signed_int() {
                "arith.divsi"
            } else {
                "arith.divui"
            },
            &[x, arg(1).expect("binary")],
        ),
        Pow if float => {
            let p = to_float(e, arg(1).expect("binary"), elem(1)?, (t, ty));
            pow(kb, e, data, x, p)
        }
        Pow => int_pow(e, (x, t), (arg(1).expect("binary"), elem(1)?)),
        Max => fold(
            e,
            data.inputs.iter().flatten().map(|v| scalars[v]),
            if float { "arith.maximumf" } else { max_int(t) },
        ),
        Min => fold(
            e,
            data.inputs.iter().flatten().map(|v| scalars[v]),
            if float { "arith.minimumf" } else { min_int(t) },
        ),
        Mean if float => {
            let n = data.inputs.iter().flatten().count() as f64;
            let s = fold(
                e,
                data.inputs.iter().flatten().map(|v| scalars[v]),
                "arith.addf",
            );
            e.same("arith.divf", &[s, fl(n)])
        }
        PRelu => {
            let neg = e.same("arith.mulf", &[x, arg(1).expect("binary")]);
            e.select(e.cmp("arith.cmpf", 2, x, fl(0.0)), x, neg)
        }
        Equal | Greater | GreaterOrEqual | Less | LessOrEqual => {
            let (name, pred) = comparison(data.kind, t);
            e.cmp(name, pred, x, arg(1).expect("binary"))
        }
        And => e.same("arith.andi", &[x, arg(1).expect("binary")]),
        Or => e.same("arith.ori", &[x, arg(1).expect("binary")]),
        Xor => e.same("arith.xori", &[x, arg(1).expect("binary")]),
        Not => e.same("arith.xori", &[x, e.i(ty, 1)]),
        Where => e.select(x, arg(1).expect("ternary"), arg(2).expect("ternary")),
        BitwiseAnd => e.same("arith.andi", &[x, arg(1).expect("binary")]),
        BitwiseOr => e.same("arith.ori", &[x, arg(1).expect("binary")]),
        BitwiseXor => e.same("arith.xori", &[x, arg(1).expect("binary")]),
        BitwiseNot => e.same("arith.xori", &[x, e.i(ty, -1)]),
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
        IsNaN if float => e.cmp("arith.cmpf", 14, x, x),
        IsInf if float => {
            let neg = data.attrs.int("detect_negative").unwrap_or(1) != 0;
            let pos = data.attrs.int("detect_positive").unwrap_or(1) != 0;
            // arith::CmpFPredicate: oeq 1.
            let is_pos = e.cmp("arith.cmpf", 1, x, fl(f64::INFINITY));
            let is_neg = e.cmp("arith.cmpf", 1, x, fl(f64::NEG_INFINITY));
            match (pos, neg) {
                (true, true) => e.same("arith.ori", &[is_pos, is_neg]),
                (true, false) => is_pos,
                (false, true) => is_neg,
                (false, false) => e.i(e.int_type(1), 0),
            }
        }
        Sign if float => {
            // ±0 and NaN are their own sign.
            let pos = e.cmp("arith.cmpf", 2, x, fl(0.0));
            let neg = e.cmp("arith.cmpf", 4, x, fl(0.0));
            e.select(pos, fl(1.0), e.select(neg, fl(-1.0), x))
        }
        Sign => {
            let zero = e.i(ty, 0);
            let nonzero = e.select(e.cmp("arith.cmpi", 1, x, zero), e.i(ty, 1), zero);
            if t.is_signed_int() {
                e.select(e.cmp("arith.cmpi", 2, x, zero), e.i(ty, -1), nonzero)
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
    let name = match (left, signed) {
        (true, _) => "arith.shli",
        (false, true) => "arith.shrsi",
        (false, false) => "arith.shrui",
    };
    let shifted = e.same(name, &[x, y]);
    let out_of_range = if !left && signed {
        e.same("arith.shrsi", &[x, e.i(ty, bits - 1)])
    } else {
        e.i(ty, 0)
    };
    // arith::CmpIPredicate: ult 6 (a negative amount is a huge unsigned one).
    let in_range = e.cmp("arith.cmpi", 6, y, e.i(ty, bits));
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
    // arith::CmpIPredicate: eq 0, ne 1, slt 2.
    let mut trivial = e.cmp("arith.cmpi", 0, y, zero);
    if signed {
        let minus_one = e.cmp("arith.cmpi", 0, y, e.i(ty, -1));
        trivial = e.same("arith.ori", &[trivial, minus_one]);
    }
    let safe_y = e.select(trivial, e.i(ty, 1), y);
    let r = e.same(
        if signed { "arith.remsi" } else { "arith.remui" },
        &[x, safe_y],
    );
    let r = if signed && !fmod {
        // Move a nonzero remainder whose sign differs from the divisor's.
        let r_neg = e.cmp("arith.cmpi", 2, r, zero);
        let y_neg = e.cmp("arith.cmpi", 2, safe_y, zero);
        let differ = e.same("arith.xori", &[r_neg, y_neg]);
        let fix = e.same("arith.andi", &[differ, e.cmp("arith.cmpi", 1, r, zero)]);
        e.select(fix, e.same("arith.addi", &[r, safe_y]), r)
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
    let mut r = e.same("arith.remf", &[x, y]);
    if !fmod {
        // arith::CmpFPredicate: olt 4, one 6, oeq 1.
        let r_neg = e.cmp("arith.cmpf", 4, r, zero);
        let y_neg = e.cmp("arith.cmpf", 4, y, zero);
        let differ = e.same("arith.xori", &[r_neg, y_neg]);
        let fix = e.same("arith.andi", &[differ, e.cmp("arith.cmpf", 6, r, zero)]);
        r = e.select(fix, e.same("arith.addf", &[r, y]), r);
        let signed_zero = e.same("math.copysign", &[zero, y]);
        r = e.select(e.cmp("arith.cmpf", 1, r, zero), signed_zero, r);
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
        Some(0.5) => e.same("math.sqrt", &[x]),
        Some(p) if p.fract() == 0.0 && p.abs() <= 8.0 => {
            let n = p.abs() as u32;
            // Binary powering.
            let mut acc: Option<MValue> = None;
            let mut base = x;
            let mut k = n;
            while k > 0 {
                if k & 1 == 1 {
                    acc = Some(match acc {
                        Some(a) => e.same("arith.mulf", &[a, base]),
                        None => base,
                    });
                }
                k >>= 1;
                if k > 0 {
                    base = e.same("arith.mulf", &[base, base]);
                }
            }
            let r = acc.unwrap_or_else(|| e.f(ty, 1.0));
            if p < 0.0 {
                e.same("arith.divf", &[e.f(ty, 1.0), r])
            } else {
                r
            }
        }
        _ => e.same("math.powf", &[x, y]),
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
        let name = if from.is_signed_int() {
            "arith.sitofp"
        } else {
            "arith.uitofp"
        };
        e.convert(name, v, ty)
    } else if from.bit_width() < to.bit_width() {
        e.convert("arith.extf", v, ty)
    } else {
        e.convert("arith.truncf", v, ty)
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
        let r = e.same("math.powf", &[xf, pf]);
        return e.convert(
            if signed {
                "arith.fptosi"
            } else {
                "arith.fptoui"
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
            e.convert("arith.extsi", v, i64t)
        } else {
            e.convert("arith.extui", v, i64t)
        }
    };
    let (xw, pw) = (widen(x, t), widen(p, pt));
    let one = e.i(i64t, 1);
    let r = super::structured::for_loop(e, e.index(0), e.index(64), &[one, xw], |le, bit, c| {
        let bit = le.convert("arith.index_cast", bit, i64t);
        let set = le.same(
            "arith.andi",
            &[le.same("arith.shrui", &[pw, bit]), le.i(i64t, 1)],
        );
        let set = le.cmp("arith.cmpi", 1, set, le.i(i64t, 0));
        let acc = le.select(set, le.same("arith.muli", &[c[0], c[1]]), c[0]);
        vec![acc, le.same("arith.muli", &[c[1], c[1]])]
    })[0];
    let negative = e.cmp("arith.cmpi", 2, pw, e.i(i64t, 0));
    let odd = e.cmp(
        "arith.cmpi",
        1,
        e.same("arith.andi", &[pw, one]),
        e.i(i64t, 0),
    );
    let minus_one = e.i(i64t, -1);
    let of_minus_one = e.select(odd, minus_one, one);
    let inverse = e.select(
        e.cmp("arith.cmpi", 0, xw, one),
        one,
        e.select(
            e.cmp("arith.cmpi", 0, xw, minus_one),
            of_minus_one,
            e.i(i64t, 0),
        ),
    );
    let r = e.select(negative, inverse, r);
    if t.bit_width() == 64 {
        r
    } else {
        e.convert("arith.trunci", r, ty)
    }
}

/// GELU: `x/2 · (1 + erf(x/√2))`, or with `tanh` its approximation
/// `x/2 · (1 + tanh(√(2/π)·(x + 0.044715·x³)))`.
fn gelu<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>, tanh: bool) -> MValue<'c, 'b> {
    let fl = |v: f64| e.f(x.r#type(), v);
    let inner = if tanh {
        let x3 = e.same("arith.mulf", &[x, e.same("arith.mulf", &[x, x])]);
        let u = e.same(
            "arith.addf",
            &[x, e.same("arith.mulf", &[x3, fl(0.044715)])],
        );
        math::tanh(
            e,
            e.same("arith.mulf", &[u, fl((2.0 / std::f64::consts::PI).sqrt())]),
        )
    } else {
        math::erf(
            e,
            e.same("arith.mulf", &[x, fl(std::f64::consts::FRAC_1_SQRT_2)]),
        )
    };
    e.same(
        "arith.mulf",
        &[
            e.same("arith.mulf", &[x, fl(0.5)]),
            e.same("arith.addf", &[inner, fl(1.0)]),
        ],
    )
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
        "Relu" => e.same("arith.maximumf", &[x, fl(0.0)]),
        "LeakyRelu" => {
            let neg = e.same("arith.mulf", &[x, fl(p(0))]);
            e.select(e.cmp("arith.cmpf", 2, x, fl(0.0)), x, neg)
        }
        "Sigmoid" => math::sigmoid(e, x),
        "Tanh" => math::tanh(e, x),
        "Clip" => clamp(e, x, fl(p(0)), fl(p(1))),
        "HardSigmoid" => {
            let y = e.same(
                "arith.addf",
                &[e.same("arith.mulf", &[x, fl(p(0))]), fl(p(1))],
            );
            clamp(e, y, fl(0.0), fl(1.0))
        }
        "HardSwish" => {
            let y = e.same(
                "arith.addf",
                &[e.same("arith.mulf", &[x, fl(1.0 / 6.0)]), fl(0.5)],
            );
            e.same("arith.mulf", &[x, clamp(e, y, fl(0.0), fl(1.0))])
        }
        "Silu" => e.same("arith.mulf", &[x, math::sigmoid(e, x)]),
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
    e.same("arith.minimumf", &[e.same("arith.maximumf", &[x, lo]), hi])
}

fn fold<'c, 'b>(
    e: Emitter<'c, 'b>,
    mut xs: impl Iterator<Item = MValue<'c, 'b>>,
    name: &str,
) -> MValue<'c, 'b> {
    let first = xs.next().expect("at least one operand");
    xs.fold(first, |acc, x| e.same(name, &[acc, x]))
}

fn max_int(t: ElemType) -> &'static str {
    if t.is_signed_int() {
        "arith.maxsi"
    } else {
        "arith.maxui"
    }
}

fn min_int(t: ElemType) -> &'static str {
    if t.is_signed_int() {
        "arith.minsi"
    } else {
        "arith.minui"
    }
}

/// The compare op and predicate of a comparison (`arith.cmpf` ordered
/// predicates; `arith.cmpi` signed or unsigned by the operand type).
fn comparison(kind: OpKind, t: ElemType) -> (&'static str, i64) {
    use OpKind::*;
    if t.is_float() {
        // arith::CmpFPredicate: oeq 1, ogt 2, oge 3, olt 4, ole 5.
        let p = match kind {
            Equal => 1,
            Greater => 2,
            GreaterOrEqual => 3,
            Less => 4,
            _ => 5,
        };
        return ("arith.cmpf", p);
    }
    // arith::CmpIPredicate: eq 0, slt 2, sle 3, sgt 4, sge 5, ult 6, ule 7, ugt 8, uge 9.
    let signed = t.is_signed_int();
    let p = match kind {
        Equal => 0,
        Greater => {
            if signed {
                4
            } else {
                8
            }
        }
        GreaterOrEqual => {
            if signed {
                5
            } else {
                9
            }
        }
        Less => {
            if signed {
                2
            } else {
                6
            }
        }
        _ => {
            if signed {
                3
            } else {
                7
            }
        }
    };
    ("arith.cmpi", p)
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
            e.convert("arith.trunci", v, i8t)
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
            return e.convert("arith.truncf", x, to_ty);
        }
        // Canonicalization would fold `truncf(sitofp)` back into one
        // conversion: round the (never NaN) `f32` to nearest even on its bits.
        let i32t = e.int_type(32);
        let bits = e.convert("arith.bitcast", x, i32t);
        let lowest_kept = e.same(
            "arith.andi",
            &[e.same("arith.shrui", &[bits, e.i(i32t, 16)]), e.i(i32t, 1)],
        );
        let rounded = e.same(
            "arith.addi",
            &[
                e.same("arith.addi", &[bits, e.i(i32t, 0x7fff)]),
                lowest_kept,
            ],
        );
        let high = e.same("arith.shrui", &[rounded, e.i(i32t, 16)]);
        let half = e.convert("arith.trunci", high, e.int_type(16));
        return e.convert("arith.bitcast", half, to_ty);
    }
    if from == ElemType::BF16 && to != ElemType::F32 {
        let x = e.convert("arith.extf", x, f32t);
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
        (true, true) if fb < tb => e.convert("arith.extf", x, to_ty),
        (true, true) => e.convert("arith.truncf", x, to_ty),
        (false, true) if from == ElemType::Bool || !from.is_signed_int() => {
            e.convert("arith.uitofp", x, to_ty)
        }
        (false, true) => e.convert("arith.sitofp", x, to_ty),
        (true, false) if to == ElemType::Bool => e.cmp("arith.cmpf", 13, x, e.f(x.r#type(), 0.0)),
        (true, false) if to.is_signed_int() => e.convert("arith.fptosi", x, to_ty),
        (true, false) => e.convert("arith.fptoui", x, to_ty),
        (false, false) if to == ElemType::Bool => e.cmp("arith.cmpi", 1, x, e.i(x.r#type(), 0)),
        (false, false) if fb < tb && from != ElemType::Bool && from.is_signed_int() => {
            e.convert("arith.extsi", x, to_ty)
        }
        (false, false) if fb < tb => e.convert("arith.extui", x, to_ty),
        (false, false) if fb > tb => e.convert("arith.trunci", x, to_ty),
        (false, false) => x,
    }
}
