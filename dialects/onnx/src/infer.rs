//! Shape and type inference.
//!
//! [`infer_model`] walks every region in order and asks each op's family
//! (`crate::ops`) for its result types given its input types, attributes
//! and whatever is known of its input *values*. Known values are small
//! integer tensors whose elements may be symbolic ([`SymTensor`]): this is
//! how `Shape → Gather → Concat → Reshape` chains resolve to static (or
//! symbolic) shapes, the way ONNX's data propagation does. Inferred types
//! are merged with the types the model declared; a contradiction is an
//! error naming the op.
//!
//! ## Symbolic shape arithmetic
//!
//! Expanded function bodies (Attention, GroupNormalization, SpaceToDepth,
//! …) compute shapes as tensors: `Shape → Gather/Slice → Div/Mod/Equal/…
//! → Where → Concat → Reshape/Expand/ConstantOfShape`. With symbolic input
//! dims the elements stay [`Dim`]s, under one rule: **every element is the
//! value the op computes at run time, for every size the model accepts**
//! (a `dim_param` may be 0). What holds only for some sizes is never
//! decided at compile time:
//! - `Add`/`Sub`/`Mul`/`Neg` are polynomial arithmetic; `Abs` of a size is
//!   the size.
//! - Integer `Div` is the polynomial quotient when it is exact as
//!   polynomials, else a truncating-division atom `tdiv(A,B)`
//!   ([`Dim::trunc_div`]) when both operands are sizes (never negative);
//!   `Mod` of sizes is `A - B*tdiv(A,B)`, and `Mod` by a positive constant
//!   `k` is `A - k*floor(A/k)` for any sign of `A` (a window's padding
//!   `(k - H % k) % k`). Otherwise (a division of a possibly negative
//!   dividend such as `N-1`) the value is unknown: the host program sizes
//!   the op that uses it at run time (`docs/runtime.md`).
//! - Comparisons decide what holds for every size (`N == N`, `N < N+1`,
//!   `N != -1`) and otherwise give an `eq(A,B)` / `lt(A,B)` atom whose
//!   value is 0 or 1 ([`Dim::eq_of`], [`Dim::lt_of`]); booleans are 0/1
//!   dims, so `Not` is `1-p`, `And` `p*q`, `Or` `p+q-p*q`, `Where` is
//!   `c*a + (1-c)*b` ([`Dim::select`]), `Max`/`Min` go through `lt`, and
//!   a `Cast` to bool is `1 - eq(x,0)`.
//! - The atoms evaluate exactly at run time (the lowering's
//!   `symbols::evaluate`), so a dim built from them needs no run-time
//!   check. The assumptions that remain are the ops' own, checked by the
//!   lowering: a quotient atom's exact division (a Reshape's `-1`), a
//!   broadcast, a Split's computed sizes adding up to the dim, and a
//!   view's (Reshape's) element count equal to its input's when the two
//!   are different polynomials.
//! - Not handled: a Reshape entry that is a symbolic size is taken as that
//!   size; with `allowzero = 0` a run-time 0 there would copy the input's
//!   dim instead (the element-count check refuses it unless both counts
//!   are 0).
//!
//! ## Files
//!
//! This file is the driver ([`infer_model`], [`infer_op`]); it sits above
//! the op families (`crate::ops`) and what they share, beside them in
//! `ops/`: `ctx.rs` is what a family sees of its op ([`InferCtx`],
//! [`Fail`]), `knowledge.rs` the values tracked ([`SymTensor`],
//! [`Knowledge`]), `shape.rs` the arithmetic the families share. The
//! families never import this file: the driver hands each op's context the
//! function that infers its subgraphs.

use std::collections::HashMap;

pub use crate::ops::ctx::{Fail, InferCtx};
pub use crate::ops::knowledge::{Knowledge, SymTensor, MAX_TRACKED_ELEMS};
pub use crate::ops::shape;

use crate::attr::{Attr, Attrs};
use crate::dim::Dim;
use crate::error::{Error, Result};
use crate::ir::{Ir, Model, NewOp, OpId, OpRef, RegionId, RegionParent, Value, ValueDef};
use crate::schema::OpKind;
use crate::tensor::TensorData;
use crate::types::{merge_types, ElemType, TensorType, Type};

/// Infers the types of every value of a model (main graph and training
/// graphs, subgraphs included), in place.
pub fn infer_model(model: &mut Model) -> Result<Knowledge> {
    let mut knowledge = Knowledge::default();
    for region in model.top_regions() {
        infer_region(&mut model.ir, region, &mut knowledge)?;
    }
    Ok(knowledge)
}

/// Infers the types of the ops of one region (and their subgraphs), in
/// order. Region arguments must already carry their types.
pub fn infer_region(ir: &mut Ir, region: RegionId, knowledge: &mut Knowledge) -> Result<()> {
    let ops = ir.region(region).ops.clone();
    let incomplete = knowledge.incomplete.len();
    for &op in &ops {
        infer_op(ir, op, knowledge)?;
    }
    if refine_from_consumers(ir, region) {
        // Once more forward, so that the values between a refined result
        // and the consumers that determined it take its dims too.
        knowledge.incomplete.truncate(incomplete);
        for &op in &ops {
            infer_op(ir, op, knowledge)?;
        }
    }
    Ok(())
}

/// Gives the results of ops whose shape depends on input values inference
/// does not know, and whose lowering reads those values and checks them
/// against the result's shape at run time (a Reduce* with `axes` read at
/// run time, [`crate::ops::shape_checked_at_run_time`]), the dims their
/// consumers determine: an op that keeps its input's shape
/// ([`crate::ops::keeps_input_shape`]: `Sqrt`, `Cast`, …) whose result
/// dims are known gives its input those dims, back to the producer. This
/// is how the declared outputs of an expanded `ReduceL2` (`ReduceSum`,
/// then `Cast`, `Sqrt`, `CastLike`) type its intermediates. Only unknown
/// dims (or an unknown rank) are filled in. Returns whether a result was
/// refined.
fn refine_from_consumers(ir: &mut Ir, region: RegionId) -> bool {
    let dims_of = |ir: &Ir, v: Value| {
        ir.ty(v)
            .as_tensor()
            .and_then(|t| t.dims().map(<[Dim]>::to_vec))
    };
    let mut wanted: HashMap<Value, Vec<Dim>> = HashMap::new();
    for &op in ir.region(region).ops.iter().rev() {
        let data = ir.op(op);
        if !crate::ops::keeps_input_shape(data.kind) {
            continue;
        }
        let (Some(Some(x)), Some(Some(y))) = (data.inputs.first(), data.results.first()) else {
            continue;
        };
        let Some(known) = wanted.get(y).cloned().or_else(|| dims_of(ir, *y)) else {
            continue;
        };
        let refined = match dims_of(ir, *x) {
            Some(have) if have.len() == known.len() => have
                .iter()
                .zip(&known)
                .map(|(h, k)| {
                    if *h == Dim::Unknown {
                        k.clone()
                    } else {
                        h.clone()
                    }
                })
                .collect(),
            Some(_) => continue,
            None => known,
        };
        if Some(&refined) != dims_of(ir, *x).as_ref() {
            wanted.insert(*x, refined);
        }
    }
    let mut changed = false;
    for (v, dims) in wanted {
        let ValueDef::Result(producer, _) = ir.value(v).def else {
            continue;
        };
        let Type::Tensor(t) = ir.ty(v) else { continue };
        if crate::ops::shape_checked_at_run_time(ir.op(producer).kind) {
            let elem = t.elem;
            ir.value_mut(v).ty = Type::Tensor(TensorType::with_dims(elem, dims));
            changed = true;
        }
    }
    changed
}

/// Infers the result types of one op and merges them into its results.
pub fn infer_op(ir: &mut Ir, op: OpId, knowledge: &mut Knowledge) -> Result<()> {
    let kind = ir.op(op).kind;
    let mut cx = InferCtx::new(ir, op, knowledge, infer_region);
    let outcome = crate::ops::infer(kind, &mut cx);
    let (types, values) = cx.finish();
    match outcome {
        Ok(()) => {}
        Err(Fail::Unknown(why)) => knowledge.incomplete.push((op, why)),
        Err(Fail::Invalid(message)) => {
            return Err(Error::Infer {
                op: ir.describe_op(op),
                message,
            })
        }
    }
    let results = ir.op(op).results.clone();
    for (i, result) in results.iter().enumerate() {
        let Some(v) = *result else { continue };
        if let Some(Some(inferred)) = types.get(i) {
            let declared = ir.ty(v);
            let merged = merge_types(declared, inferred).ok_or_else(|| Error::Infer {
                op: ir.describe_op(op),
                message: format!(
                    "output {i} ({}) is declared as {declared} but inferred as {inferred}",
                    value_label(ir, v)
                ),
            })?;
            ir.value_mut(v).ty = merged;
        }
        // An op inferred again (in a loop body) may know less than before:
        // a value it no longer produces must not survive from the last time.
        match values.get(i) {
            Some(Some(sym)) => knowledge.values.insert(v, sym.clone()),
            _ => knowledge.values.remove(&v),
        };
    }
    Ok(())
}

/// An operand of [`infer_at_run_time`]: its value, or only its type.
#[derive(Clone, Debug)]
pub enum RunTimeOperand {
    /// A value inference may read (the small integer and float tensors
    /// that sizes are computed from: pads, sizes, scales, a shape, K).
    Value(TensorData),
    /// A tensor of this element type and static shape, value unread.
    Typed(ElemType, Vec<i64>),
}

/// The result types of one op applied to operands known at run time: the
/// same inference as at compile time, on static shapes and values, so that
/// the sizes an op computes from its operands' values (a Pad by computed
/// pads, a Resize to computed sizes, a Range, a TopK by a computed K) are
/// the sizes the compiled op checks. Results inference cannot tell stay
/// [`Type::Unknown`]; an operand the op rejects is an error naming it.
pub fn infer_at_run_time(
    op: &OpRef,
    attrs: &Attrs,
    operands: &[Option<RunTimeOperand>],
    results: usize,
) -> Result<Vec<Type>> {
    let mut ir = Ir::new();
    let region = ir.new_region("run-time sizes", RegionParent::Top);
    let mut knowledge = Knowledge::default();
    let mut inputs = Vec::with_capacity(operands.len());
    for (i, operand) in operands.iter().enumerate() {
        let name = Some(format!("operand{i}"));
        inputs.push(operand.as_ref().map(|operand| match operand {
            RunTimeOperand::Typed(elem, dims) => {
                let dims = dims.iter().map(|&d| Dim::Known(d)).collect();
                ir.add_arg(
                    region,
                    name,
                    Type::Tensor(TensorType::with_dims(*elem, dims)),
                )
            }
            RunTimeOperand::Value(data) => {
                let constant = ir.append_op(
                    region,
                    NewOp {
                        kind: OpKind::Constant,
                        version: 1,
                        inputs: vec![],
                        results: vec![Some((name, Type::Tensor(data.ty())))],
                        attrs: Attrs(vec![("value".to_string(), Attr::Tensor(data.clone()))]),
                        name: String::new(),
                    },
                );
                let v = ir.op(constant).results[0].expect("made with its result");
                if let Some(value) = SymTensor::from_data(data) {
                    knowledge.values.insert(v, value);
                }
                v
            }
        }));
    }
    let id = ir.append_op(
        region,
        NewOp {
            kind: op.kind,
            version: op.version,
            inputs,
            results: (0..results).map(|_| Some((None, Type::Unknown))).collect(),
            attrs: attrs.clone(),
            name: op.node.clone(),
        },
    );
    infer_op(&mut ir, id, &mut knowledge)?;
    let results = ir.op(id).results.clone();
    Ok(results
        .iter()
        .map(|r| r.map_or(Type::Unknown, |v| ir.ty(v).clone()))
        .collect())
}

fn value_label(ir: &Ir, v: Value) -> String {
    match &ir.value(v).name {
        Some(n) => format!("\"{n}\""),
        None => format!("{v:?}"),
    }
}
