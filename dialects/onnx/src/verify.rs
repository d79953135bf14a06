//! The verifier: checks that a model obeys the rules of the ONNX IR spec
//! (<https://onnx.ai/onnx/repo-docs/IR.html>) and the op table.
//!
//! Every later stage leans on these rules without re-checking them: shape
//! inference reads attributes by their schema kind, the optimizer assumes
//! SSA and topological order, the lowering assumes arities match the op
//! table. The importer and the text parser build IR from untrusted input
//! and passes rewrite it, so the rules are written down once, here, and
//! checked between stages (`verify` in the [pass pipeline](crate::passes)).
//!
//! Each violation is a [`VerifyError`] naming the broken [`Rule`] (a stable
//! kebab-case name, printed as `error[ssa]: …`), the place (a node as
//! `node "conv1" (Conv-11)`, or a graph, its inputs and outputs) and
//! what is wrong. `docs/verifier.md` lists the rules with the spec text
//! each one enforces, and where we deliberately differ from `onnx.checker`.
//!
//! The checks run in a fixed order and stop at the first violation:
//! 1. `structure`: the arena is consistent (handles in range, every op
//!    and subgraph owned by exactly one parent, value definitions agree
//!    with where the values appear). Everything after relies on it.
//! 2. `model`: IR version and opset imports.
//! 3. `scope`: one walk over every graph in order, checking names, SSA,
//!    topological order and visibility of every use, and each op against
//!    its schema (`op`, `control`, `constant`).
//! 4. `model`: main-graph input/output types and training bindings.

mod constant;
mod control;
mod cx;
mod model;
mod op;
mod scope;
mod structure;
#[cfg(test)]
mod tests;

use crate::error::Result;
pub use crate::error::{Rule, VerifyError};
use crate::ir::Model;
use cx::{Check, Cx};

/// Checks every rule of the IR spec on a model; the first violation is
/// returned as [`Error::Verify`](crate::Error::Verify).
///
/// Main-graph inputs and outputs must have a known, ranked type
/// ([`Rule::IoType`]).
pub fn verify_model(model: &Model) -> Result<()> {
    check(model, true).map_err(Into::into)
}

/// [`verify_model`] for a model fresh from the importer: every rule, except
/// that main-graph outputs may still lack a rank, since shape inference
/// can supply it. A model whose own op is wrong (a Reshape with two `-1`s,
/// say) then reaches inference, which reports the real problem, rather
/// than failing on the output declaration the problem left unranked.
pub fn verify_imported_model(model: &Model) -> Result<()> {
    check(model, false).map_err(Into::into)
}

fn check(model: &Model, outputs_need_rank: bool) -> Check {
    let reachable = structure::check(model)?;
    model::check_header(model)?;
    let cx = Cx {
        model,
        ir: &model.ir,
    };
    scope::check(&cx, &reachable)?;
    model::check_io_types(&cx, outputs_need_rank)?;
    model::check_training(&cx)
}
