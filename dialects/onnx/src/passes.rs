//! The dialect's named passes, so that drivers can run, list and print
//! after each of them by name (`--print-ir-after=<pass>`).

use crate::error::Result;
use crate::ir::Model;

/// A named transformation or check of a whole model.
pub struct Pass {
    /// The name used on command lines and in test `RUN:` lines.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// Runs the pass.
    pub run: fn(&mut Model) -> Result<()>,
}

/// Every pass of the dialect.
pub const PASSES: &[Pass] = &[
    Pass {
        name: "verify",
        summary: "check the rules of the ONNX IR spec: SSA, order, schemas, types, subgraphs",
        run: |m| crate::verify::verify_model(m),
    },
    Pass {
        name: "verify-imported",
        summary: "verify, allowing main-graph outputs whose rank inference will supply",
        run: |m| crate::verify::verify_imported_model(m),
    },
    Pass {
        name: "name-dims",
        summary: "name the unknown dims of the graph inputs, forget dim_params no input defines",
        run: crate::name_dims::name_dims,
    },
    Pass {
        name: "infer-shapes",
        summary: "infer the type and shape of every value, propagating known integer values",
        run: |m| crate::infer::infer_model(m).map(drop),
    },
    Pass {
        name: "decompose",
        summary:
            "expand composite ops (Attention, the losses, RMSNormalization, …) into primitive ones",
        run: crate::decompose::decompose,
    },
    Pass {
        name: "fold-shapes",
        summary: "replace ops whose integer results inference knows by constants",
        run: crate::fold::fold_shapes,
    },
    Pass {
        name: "dce",
        summary: "remove ops whose results are unused",
        run: crate::dce::dce,
    },
];

/// The passes that take an imported model to a verified, shape-inferred
/// dialect model, in order. `name-dims` first: inference starts from
/// sizes the compiled model can bind. Verifying again after inference checks what
/// inference added (main-graph output ranks, types against constraints)
/// and what folding rewrote. `decompose` infers every op it builds as it
/// builds it, so the model leaves it fully inferred (and `fold-shapes`
/// infers the whole model again anyway).
pub const DEFAULT_PIPELINE: &[&str] = &[
    "verify-imported",
    "name-dims",
    "infer-shapes",
    "decompose",
    "fold-shapes",
    "dce",
    "verify",
];

/// The pass called `name`.
pub fn pass(name: &str) -> Option<&'static Pass> {
    PASSES.iter().find(|p| p.name == name)
}
