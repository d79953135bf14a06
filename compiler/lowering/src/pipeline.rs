//! The named stages from the built module to the LLVM dialect.
//!
//! | stage | what the module holds |
//! |---|---|
//! | `linalg` | kernels as linalg on tensors over memref arguments; `main` |
//! | `affine` | after the schedules (tiling, fusion, vectorization, bufferization): scf loops with affine index maps, vectors, memrefs |
//! | `llvm-mlir` | the LLVM dialect, ready for translation to LLVM IR |

use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Module, OperationRef};
use melior::pass::PassManager;
use melior::utility::parse_pass_pipeline;
use melior::Context;

use crate::error::{LowerError, Result};
use crate::schedule::{self, Schedule, Target};

/// A stage of the lowering, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    Linalg,
    Affine,
    LlvmMlir,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 3] = [Stage::Linalg, Stage::Affine, Stage::LlvmMlir];

    /// The stage's name on the command line (`--emit`, `--print-ir-after`).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Linalg => "linalg",
            Stage::Affine => "affine",
            Stage::LlvmMlir => "llvm-mlir",
        }
    }
}

/// After the schedules: what they left as linalg (remainders of tiles,
/// unscheduled ops) becomes `scf` loops — not `affine.for`, which cannot
/// nest inside the schedules' `scf.for` tile loops — next to the tiling's
/// `affine.apply`/`affine.min` index arithmetic. Buffers that bufferization
/// allocated inside a kernel (an im2col matrix, or its rows per chunk) get
/// their `memref.dealloc` first (ownership-based deallocation).
const TO_AFFINE: &str = "builtin.module(canonicalize,\
     func.func(ownership-based-buffer-deallocation,canonicalize,buffer-deallocation-simplification),\
     bufferization-lower-deallocations,canonicalize,cse,convert-linalg-to-loops,\
     loop-invariant-code-motion,canonicalize,cse)";

/// From the affine stage to the LLVM dialect. Functions take memrefs as
/// bare pointers (their shapes are static; buffers of symbolic size are
/// passed as `memref<0xT>` and reinterpreted), which keeps `llvm.noalias`.
/// `memref.alloc`/`dealloc` call `_mlir_memref_to_llvm_alloc`/`free`, which
/// the code generator defines on the runtime's allocator.
/// Math ops become LLVM intrinsics where LLVM has them and libm calls
/// otherwise, before vectors are lowered (libm calls are per element).
/// The passes that work within a function are nested under `func.func`,
/// so that MLIR runs them on the kernels in parallel (the context's
/// thread pool); the module passes between them keep the same order, and
/// the result is the same as with every pass on the module.
const TO_LLVM: &str = "builtin.module(func.func(lower-affine,convert-math-to-llvm),\
     convert-math-to-libm,func.func(convert-vector-to-scf,convert-scf-to-cf,canonicalize),\
     convert-vector-to-llvm,func.func(expand-strided-metadata,lower-affine),\
     finalize-memref-to-llvm{use-generic-functions=1},\
     func.func(arith-expand{include-bf16=true},convert-arith-to-llvm,convert-index-to-llvm),\
     convert-cf-to-llvm,convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},convert-ub-to-llvm,\
     reconcile-unrealized-casts,canonicalize,cse)";

/// Runs a textual pass pipeline on the module.
pub fn run_passes(cx: &Context, module: &mut Module, stage: &str, pipeline: &str) -> Result<()> {
    let pm = PassManager::new(cx);
    parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).map_err(|e| {
        LowerError::Mlir {
            stage: stage.into(),
            message: e.to_string(),
        }
    })?;
    pm.run(module).map_err(|e| LowerError::Mlir {
        stage: stage.into(),
        message: e.to_string(),
    })
}

/// Applies each kernel's schedule (kernels are the module's functions
/// tagged `omlc.kernel`, in order, matched with `schedules`), then lowers
/// to the affine stage. Returns the number of chunks of each kernel.
pub fn to_affine(
    cx: &Context,
    module: &mut Module,
    schedules: &[Schedule],
    target: &Target,
) -> Result<Vec<i64>> {
    let kernels = kernel_functions(module);
    assert_eq!(kernels.len(), schedules.len(), "one schedule per kernel");
    let mut chunks = vec![];
    for (func, s) in kernels.into_iter().zip(schedules) {
        let (script, n) = s.script(target);
        schedule::apply(cx, func, &script)?;
        chunks.push(n);
    }
    run_passes(cx, module, "affine", TO_AFFINE)?;
    Ok(chunks)
}

/// Lowers the affine stage to the LLVM dialect.
pub fn to_llvm(cx: &Context, module: &mut Module) -> Result<()> {
    run_passes(cx, module, "llvm-mlir", TO_LLVM)?;
    if !module.as_operation().verify() {
        return Err(LowerError::Mlir {
            stage: "llvm-mlir".into(),
            message: "the module does not verify".into(),
        });
    }
    Ok(())
}

/// The module's kernel functions, in order.
fn kernel_functions<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = vec![];
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        if op.has_attribute("omlc.kernel") {
            out.push(op);
        }
        next = op.next_in_block();
    }
    out
}
