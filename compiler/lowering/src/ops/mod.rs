//! The op families and the dispatcher over them.
//!
//! Each family directory or file is the "lowering file" of the ops of the
//! dialect's family file of the same name (`dialects/onnx/src/ops/`), the
//! op table's [`Family`]: it lowers its ops (`lower`, one exhaustive match
//! over the family's own op enum) and says how each takes symbolic sizes
//! (`checks`, [`Symbolic`]). This file is the one dispatch over the
//! families ([`OpKind::family_op`]), handed to the kernel builder as
//! [`Families`] (the families build on the kernel builder, which cannot
//! call them back itself); `common`, `operand`, `sample`, `half`, `math`
//! and `narrow` are what several families share.
//!
//! A kernel's ops are lowered in order. Runs of elementwise ops become one
//! `linalg.generic` whose body computes the whole run per element
//! ([`elementwise::lower_chain`]); every other op is lowered on its own by
//! its family.

pub(crate) mod common;
pub(crate) mod conv;
pub(crate) mod elementwise;
pub(crate) mod fused;
mod half;
mod image;
pub(crate) mod index;
pub(crate) mod layout;
pub(crate) mod linalg;
mod math;
pub(crate) mod narrow;
pub(crate) mod norm;
pub(crate) mod operand;
pub(crate) mod quant;
pub(crate) mod reduce;
pub(crate) mod sample;
pub(crate) mod signal;
pub(crate) mod vision;

use std::collections::HashSet;

use onnx_mlc_dialect::ir::{Ir, OpData, OpId};
use onnx_mlc_dialect::schema::{Family, FamilyOp};
use onnx_mlc_dialect::{Model, OpKind, Value};

use crate::error::{LowerError, Result};
use crate::kernel::{KernelBuilder, KernelSpec, OpLowering};
use crate::symbols::{add_new, size_checks, Check, Symbolic};

/// The op families, as the kernel builder is handed them.
pub(crate) struct Families;

impl OpLowering for Families {
    fn check_dynamic(&self, model: &Model, ops: &[OpId]) -> Result<()> {
        for &op in ops {
            if let Some(why) = symbolic(model, op)?.refused {
                return Err(LowerError::Unsupported {
                    op: model.ir.describe_op(op),
                    message: format!("with symbolic sizes: {why}"),
                });
            }
        }
        Ok(())
    }

    fn lower(&self, kb: &mut KernelBuilder, ops: &[OpId]) -> Result<()> {
        lower_ops(kb, ops)
    }

    fn image_batch(&self, model: &Model, spec: &KernelSpec) -> Option<HashSet<Value>> {
        image::image_batch(model, spec)
    }
}

/// Lowers a kernel's ops, in order.
fn lower_ops(kb: &mut KernelBuilder, ops: &[OpId]) -> Result<()> {
    for &op in ops {
        narrow::check_op(kb, op)?;
    }
    let runs = split_runs(kb, ops);
    plan_in_place(kb, ops, &runs);
    for run in &runs {
        match run {
            Run::Chain(chain) => {
                let outputs = chain_outputs(kb, ops, chain);
                elementwise::lower_chain(kb, chain, &outputs)?
            }
            Run::Op(op) => lower_op(kb, *op)?,
        }
    }
    Ok(())
}

/// A maximal run of elementwise ops, or one other op.
enum Run {
    Chain(Vec<OpId>),
    Op(OpId),
}

fn split_runs(kb: &KernelBuilder, ops: &[OpId]) -> Vec<Run> {
    let mut runs = vec![];
    let mut chain = vec![];
    for &op in ops {
        if is_elementwise(&kb.model.ir, kb.model.ir.op(op)) {
            chain.push(op);
        } else {
            if !chain.is_empty() {
                runs.push(Run::Chain(std::mem::take(&mut chain)));
            }
            runs.push(Run::Op(op));
        }
    }
    if !chain.is_empty() {
        runs.push(Run::Chain(chain));
    }
    runs
}

/// Whether `v`, computed in `chain`, is needed outside it: by a later op
/// of the kernel or by the kernel's caller.
fn used_after(kb: &KernelBuilder, ops: &[OpId], chain: &[OpId], v: Value) -> bool {
    kb.is_output(v)
        || ops
            .iter()
            .filter(|o| !chain.contains(o))
            .any(|&o| kb.model.ir.op(o).inputs.contains(&Some(v)))
}

/// The results of `chain` needed after it, in order.
fn chain_outputs(kb: &KernelBuilder, ops: &[OpId], chain: &[OpId]) -> Vec<Value> {
    chain
        .iter()
        .flat_map(|&o| kb.model.ir.op(o).results.iter().flatten().copied())
        .filter(|&v| used_after(kb, ops, chain, v))
        .collect()
}

/// For each op directly followed by a chain that consumes its (single)
/// result and nothing else does: compute that result in the destination of
/// the chain's output of the same type, so the chain updates it in place.
fn plan_in_place(kb: &mut KernelBuilder, ops: &[OpId], runs: &[Run]) {
    for pair in runs.windows(2) {
        let (Run::Op(root), Run::Chain(chain)) = (&pair[0], &pair[1]) else {
            continue;
        };
        let results = &kb.model.ir.op(*root).results;
        let [Some(r)] = results.as_slice() else {
            continue;
        };
        if kb.is_output(*r) {
            continue;
        }
        let users: HashSet<OpId> = ops
            .iter()
            .copied()
            .filter(|&o| kb.model.ir.op(o).inputs.contains(&Some(*r)))
            .collect();
        if !users.iter().all(|u| chain.contains(u)) {
            continue;
        }
        let outputs = chain_outputs(kb, ops, chain);
        let ty = kb.model.ir.ty(*r);
        if let Some(&o) = outputs.iter().find(|&&o| kb.model.ir.ty(o) == ty) {
            kb.compute_in(*r, o);
        }
    }
}

/// Lowers one op that is not lowered in an elementwise run.
fn lower_op(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    match kb.model.ir.op(op).kind.family_op() {
        FamilyOp::Elementwise(_) => unreachable!("elementwise ops are lowered in runs"),
        FamilyOp::Reduce(which) => reduce::lower(kb, op, which),
        FamilyOp::Conv(which) => conv::lower(kb, op, which),
        FamilyOp::Norm(which) => norm::lower(kb, op, which),
        FamilyOp::Linalg(which) => linalg::lower(kb, op, which),
        FamilyOp::Layout(which) => layout::lower(kb, op, which),
        FamilyOp::Index(which) => index::lower(kb, op, which),
        FamilyOp::Vision(which) => vision::lower(kb, op, which),
        FamilyOp::Quant(which) => quant::lower(kb, op, which),
        FamilyOp::Signal(which) => signal::lower(kb, op, which),
        FamilyOp::Fused(which) => fused::lower(kb, op, which),
        FamilyOp::Control(_)
        | FamilyOp::Sequence(_)
        | FamilyOp::Rnn(_)
        | FamilyOp::Random(_)
        | FamilyOp::Text(_)
        | FamilyOp::Loss(_)
        | FamilyOp::Ml(_)
        | FamilyOp::Training(_)
        | FamilyOp::Contrib(_) => Err(kb.not_lowered(op)),
    }
}

/// How op `op` takes symbolic sizes, as its family says.
fn symbolic(model: &Model, op: OpId) -> Result<Symbolic> {
    let data = model.ir.op(op);
    Ok(match data.kind.family_op() {
        FamilyOp::Elementwise(_) => elementwise::checks(model, data)?,
        FamilyOp::Reduce(which) => reduce::checks(model, op, which)?,
        FamilyOp::Conv(which) => conv::checks(model, data, which),
        FamilyOp::Norm(which) => norm::checks(model, data, which),
        FamilyOp::Linalg(which) => linalg::checks(model, data, which)?,
        FamilyOp::Layout(which) => layout::checks(model, op, which)?,
        FamilyOp::Index(which) => index::checks(model, op, which)?,
        FamilyOp::Vision(which) => vision::checks(model, data, which),
        FamilyOp::Quant(which) => quant::checks(model, data, which),
        FamilyOp::Signal(which) => signal::checks(model, op, which)?,
        FamilyOp::Fused(which) => fused::checks(model, data, which)?,
        FamilyOp::Control(_)
        | FamilyOp::Sequence(_)
        | FamilyOp::Rnn(_)
        | FamilyOp::Random(_)
        | FamilyOp::Text(_)
        | FamilyOp::Loss(_)
        | FamilyOp::Ml(_)
        | FamilyOp::Training(_)
        | FamilyOp::Contrib(_) => Symbolic::not_yet(),
    })
}

/// The shape conditions the ops of `kernels` rely on, which the model's
/// entry checks before anything runs and fails with `OMLC_ERR_SHAPE` when
/// one does not hold (`check.rs`), so that mismatched inputs give an error
/// rather than reads out of bounds: the exact divisions and view sizes of
/// the graph ([`size_checks`]), then each op's ([`Symbolic::checks`]).
pub(crate) fn entry_checks(model: &Model, kernels: &[Vec<OpId>]) -> Result<Vec<Check>> {
    let mut out = size_checks(model)?;
    for &op in kernels.iter().flatten() {
        add_new(&mut out, symbolic(model, op)?.checks);
    }
    Ok(out)
}

/// Whether `op` (of `ir`) is computed per element and so fuses into runs:
/// the elementwise family, BatchNormalization, which in inference form is
/// a per-channel affine map, and the per-tensor 8-bit QuantizeLinear and
/// DequantizeLinear (`Ir::quantizes_elementwise`; the plan's classes
/// agree).
pub(crate) fn is_elementwise(ir: &Ir, op: &OpData) -> bool {
    op.kind.family() == Family::Elementwise
        || op.kind == OpKind::BatchNormalization
        || ir.quantizes_elementwise(op)
}
