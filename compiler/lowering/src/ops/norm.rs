//! Normalizations (the dialect's `ops/norm.rs` family): so far
//! BatchNormalization in inference form.
//!
//! | op | lowered as | variants handled |
//! |----|------------|------------------|
//! | BatchNormalization (1–15) | a per-channel affine map `(x − mean) · scale / √(var + ε) + B`, computed per element inside an elementwise run | inference form (`training_mode = 0`, one result), float types; inputs of rank ≥ 2 |
//!
//! The planner treats an inference BatchNormalization as elementwise (so a
//! BatchNormalization after a Conv is the Conv's epilogue), and the
//! lowering follows: it is one more op in an elementwise run
//! (`elementwise::lower_chain`), whose four parameter operands are read
//! along the channel dim (dim 1) rather than broadcast numpy-style.

use std::collections::HashMap;

use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{OpKind, Value};

use super::unsupported;
use crate::emit::Emitter;
use crate::error::Result;
use crate::kernel::KernelBuilder;

/// Whether `v` is read by an op of `chain` as a per-channel parameter
/// (scale, B, mean or var of a BatchNormalization); an error when another
/// op of the run reads it numpy-style too (one operand, one indexing map).
pub(crate) fn is_channel_operand(kb: &KernelBuilder, chain: &[OpId], v: Value) -> Result<bool> {
    let reads = |o: &&OpId| kb.model.ir.op(**o).inputs.contains(&Some(v));
    let by_channel = |o: &&OpId| {
        let data = kb.model.ir.op(**o);
        data.kind == OpKind::BatchNormalization && data.inputs[1..].contains(&Some(v))
    };
    let Some(&bn) = chain.iter().find(by_channel) else {
        return Ok(false);
    };
    if chain.iter().filter(reads).any(|o| !by_channel(&o)) {
        return Err(unsupported(
            kb,
            bn,
            "a parameter read elementwise by another op of the run",
        ));
    }
    Ok(true)
}

/// The indexing map reading a `[C]` parameter along dim 1 of a rank-`rank`
/// iteration space.
pub(crate) fn channel_map(rank: usize) -> String {
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    format!("affine_map<({}) -> (d1)>", dims.join(", "))
}

/// The scalar computation of an inference BatchNormalization.
pub(crate) fn batch_norm_scalar<'c, 'b>(
    kb: &KernelBuilder<'c, '_>,
    e: Emitter<'c, 'b>,
    op: OpId,
    scalars: &HashMap<Value, MValue<'c, 'b>>,
) -> Result<MValue<'c, 'b>> {
    let data = kb.model.ir.op(op);
    let training = data.attrs.int("training_mode").unwrap_or(0) != 0;
    if training || data.results.iter().skip(1).any(Option::is_some) {
        return Err(unsupported(kb, op, "training-mode BatchNormalization"));
    }
    let x = data.inputs[0].expect("X is required");
    let (xd, elem) = kb.shape(x)?;
    if !elem.is_float() || xd.len() < 2 {
        return Err(unsupported(
            kb,
            op,
            "BatchNormalization of a non-float or rank < 2 input",
        ));
    }
    for p in data.inputs[1..].iter().flatten() {
        if kb.shape(*p)?.1 != elem {
            return Err(unsupported(
                kb,
                op,
                "parameters of another type than the input",
            ));
        }
    }
    let arg = |i: usize| scalars[&data.inputs[i].expect("BatchNormalization has 5 inputs")];
    let (xs, scale, bias, mean, var) = (arg(0), arg(1), arg(2), arg(3), arg(4));
    let ty = xs.r#type();
    let eps = data.attrs.float("epsilon").unwrap_or(1e-5) as f64;
    let std = e.same("math.sqrt", &[e.same("arith.addf", &[var, e.f(ty, eps)])]);
    let centered = e.same("arith.subf", &[xs, mean]);
    let normalized = e.same("arith.divf", &[centered, std]);
    let scaled = e.same("arith.mulf", &[normalized, scale]);
    Ok(e.same("arith.addf", &[scaled, bias]))
}
