//! Reductions (the dialect's `ops/reduce.rs` family): the Reduce* ops
//! (`reduction.rs`), ArgMax/ArgMin (`arg.rs`), the scans CumSum and CumProd
//! (`scan.rs`) and TopK (`top_k.rs`).
//!
//! | op | lowering | variants |
//! |---|---|---|
//! | Reduce* | one reduction generic over the input's loops into a temporary without the reduced dims, then one generic over the output reading it back and applying Mean's ÷N, L2's √, LogSum's log or LogSumExp's `log Σ exp(x - max) + max` (the max a first reduction) | `axes` attribute, constant input, or graph input read at run time (`lower_runtime_axes`, any length: one generic over the output folding the input elements each output element stands for), `keepdims`, `noop_with_empty_axes`; floats (f16 and bf16 accumulated in f32, rounded once), integers for Sum/Mean/Max/Min/Prod/L1/SumSquare, and bools for Max (or) and Min (and) |
//! | CumSum / CumProd | one generic over the output whose body runs an `scf.for` over the axis up to (or, `reverse`, from) its own position, summing/multiplying `tensor.extract`s of the input: O(n·d) for d elements along the axis | `exclusive`, `reverse`, the `axis` input constant or known only at run time (chosen per element with `select`s, clamped into the rank); floats and integers |
//! | TopK | one generic over the two outputs: output `j` along the axis is the element `i` with exactly `j` elements ranked before it (greater, or equal at a lower index; smaller for `largest = 0`), found by two nested `scf.for`s: O(k·d²) for d elements along the axis | `k` attribute (1) or input (10+, the output shape gives it), `axis`, `largest`, `sorted` (always sorted); floats and integers |
//! | ArgMax / ArgMin | one reduction generic with two outputs (best value, its index), the index then copied out | `axis`, `keepdims`, `select_last_index`; floats and integers |
//!
//! (Linalg tiles only results indexed by projected permutations, so kept
//! dims are not written in place with a `0` index.) The schedule
//! (`Schedule::Fused`) chunks the last generic along its first parallel
//! loop, fusing the reductions into the chunks.

mod arg;
pub(crate) mod reduction;
mod scan;
mod temporary;
mod top_k;

use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::schema::ReduceOp;
use onnx_mlc_dialect::Model;

use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::symbols::{equalities, same_shape_pairs, Symbolic};

/// Lowers a Reduce* op, ArgMax/ArgMin, CumSum/CumProd or TopK.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: ReduceOp) -> Result<()> {
    use ReduceOp::*;
    match which {
        ReduceL1 | ReduceL2 | ReduceLogSum | ReduceLogSumExp | ReduceMax | ReduceMean
        | ReduceMin | ReduceProd | ReduceSum | ReduceSumSquare => reduction::lower(kb, op),
        ArgMax | ArgMin => arg::lower(kb, op),
        CumSum | CumProd => scan::lower(kb, op),
        TopK => top_k::lower(kb, op),
    }
}

/// How a reduction takes symbolic sizes (`ops::entry_checks`): the
/// Reduce* ops and ArgMax/ArgMin take their counts and temporaries from
/// the run-time sizes, the axes read from a graph input checked by the
/// model's entry ([`runtime_axes`], `Check::Axes`); CumSum/CumProd are one
/// generic over the result reading the input at the same coordinates
/// (the two agree); TopK's outputs and `k` agree with the input
/// (`top_k::checks`).
pub(crate) fn checks(model: &Model, op: OpId, which: ReduceOp) -> Result<Symbolic> {
    use ReduceOp::*;
    let data = model.ir.op(op);
    Ok(match which {
        ReduceL1 | ReduceL2 | ReduceLogSum | ReduceLogSumExp | ReduceMax | ReduceMean
        | ReduceMin | ReduceProd | ReduceSum | ReduceSumSquare => {
            Symbolic::checked(reduction::axes_checks(model, op)?)
        }
        ArgMax | ArgMin => Symbolic::checked(vec![]),
        CumSum | CumProd => Symbolic::of(same_shape_pairs(model, data).map(equalities)),
        TopK => Symbolic::of(top_k::checks(model, data)),
    })
}
