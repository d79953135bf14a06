//! Op families: each file is the "dialect file" of a group of operators
//! and holds what the dialect knows about them beyond the op table (result
//! types and shapes, propagated integer values).
//!
//! [`infer`] is the one exhaustive dispatch from an op's [`Family`] (the op
//! table's, `tools/gen_op_table.py`) to its file: a new family does not
//! compile until it has a file here.

mod control;
mod conv;
mod elementwise;
mod fused;
mod index;
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
mod signal;
#[cfg(test)]
pub(crate) mod testing;
mod text;
mod training;
mod vision;

use crate::infer::{Fail, InferCtx};
use crate::schema::{Family, OpKind};

/// Infers the result types (and known integer values) of the op in `cx`.
pub(crate) fn infer(kind: OpKind, cx: &mut InferCtx) -> Result<(), Fail> {
    match kind.family() {
        Family::Elementwise => elementwise::infer(cx),
        Family::Reduce => reduce::infer(cx),
        Family::Conv => conv::infer(cx),
        Family::Norm => norm::infer(cx),
        Family::Linalg => linalg::infer(cx),
        Family::Layout => layout::infer(cx),
        Family::Index => index::infer(cx),
        Family::Vision => vision::infer(cx),
        Family::Control => control::infer(cx),
        Family::Sequence => sequence::infer(cx),
        Family::Quant => quant::infer(cx),
        Family::Rnn => rnn::infer(cx),
        Family::Signal => signal::infer(cx),
        Family::Random => random::infer(cx),
        Family::Text => text::infer(cx),
        Family::Loss => loss::infer(cx),
        Family::Ml => ml::infer(cx),
        Family::Training => training::infer(cx),
        Family::Fused => fused::infer(cx),
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
