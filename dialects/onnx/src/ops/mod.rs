//! Op families: each file is the "dialect file" of a group of operators
//! and holds what the dialect knows about them beyond the op table (result
//! types and shapes, propagated integer values).
//!
//! [`infer`] is the one exhaustive dispatch from an op's family (the op
//! table's, `tools/gen_op_table.py`) to its file, handing it the op as a
//! member of the family's own enum ([`crate::schema::FamilyOp`]): each
//! file matches exhaustively over its ops, so a new op does not compile
//! until its family's file decides what it infers.

mod contrib;
mod control;
mod conv;
pub(crate) mod ctx;
mod elementwise;
mod fused;
mod index;
pub(crate) mod knowledge;
mod layout;
pub(crate) mod linalg;
mod loss;
mod ml;
mod norm;
mod operand;
mod quant;
mod random;
mod reduce;
mod rnn;
mod sequence;
pub mod shape;
mod signal;
#[cfg(test)]
pub(crate) mod testing;
mod text;
mod training;
mod vision;

use crate::ops::ctx::{Fail, InferCtx};
use crate::schema::{FamilyOp, OpKind};

/// Infers the result types (and known integer values) of the op in `cx`.
pub(crate) fn infer(kind: OpKind, cx: &mut InferCtx) -> Result<(), Fail> {
    match kind.family_op() {
        FamilyOp::Elementwise(op) => elementwise::infer(op, cx),
        FamilyOp::Reduce(op) => reduce::infer(op, cx),
        FamilyOp::Conv(op) => conv::infer(op, cx),
        FamilyOp::Norm(op) => norm::infer(op, cx),
        FamilyOp::Linalg(op) => linalg::infer(op, cx),
        FamilyOp::Layout(op) => layout::infer(op, cx),
        FamilyOp::Index(op) => index::infer(op, cx),
        FamilyOp::Vision(op) => vision::infer(op, cx),
        FamilyOp::Control(op) => control::infer(op, cx),
        FamilyOp::Sequence(op) => sequence::infer(op, cx),
        FamilyOp::Quant(op) => quant::infer(op, cx),
        FamilyOp::Rnn(op) => rnn::infer(op, cx),
        FamilyOp::Signal(op) => signal::infer(op, cx),
        FamilyOp::Random(op) => random::infer(op, cx),
        FamilyOp::Text(op) => text::infer(op, cx),
        FamilyOp::Loss(op) => loss::infer(op, cx),
        FamilyOp::Ml(op) => ml::infer(op, cx),
        FamilyOp::Training(op) => training::infer(op, cx),
        FamilyOp::Fused(op) => fused::infer(op, cx),
        FamilyOp::Contrib(op) => contrib::infer(op, cx),
    }
}

/// Whether the first result of an op of `kind` always has its first
/// input's shape (unary elementwise ops, casts, `Identity`, the softmaxes),
/// so that known result dims tell the input's
/// (`infer::refine_from_consumers`).
pub(crate) fn keeps_input_shape(kind: OpKind) -> bool {
    use OpKind::*;
    kind.is_unary_elementwise() || matches!(kind, Identity | Softmax | LogSoftmax | Hardmax)
}

/// Whether ops of `kind` whose result shape depends on input values that
/// inference does not know may take it from their consumers
/// (`infer::refine_from_consumers`): their lowering reads those values at
/// run time and the model's entry checks them against the result's shape
/// (the reductions' `axes`: the lowering's `Check::Axes`), so a shape that
/// the values contradict is an error, never a wrong result.
pub(crate) fn shape_checked_at_run_time(kind: OpKind) -> bool {
    kind.is_reduction()
}
