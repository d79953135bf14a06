//! onnx-mlc: compile ONNX models to native code.
//!
//! ```no_run
//! use onnx_mlc::{CompileOptions, Engine, Tensor};
//!
//! let model = Engine::load("model.onnx")?;
//! let compiled = Engine::compile(&model, &CompileOptions::default())?;
//! let x = Tensor::from_vec(vec![1, 3, 32, 32], vec![0.5f32; 3 * 32 * 32])?;
//! let outputs = compiled.run(&[x])?;
//! # Ok::<(), onnx_mlc::Error>(())
//! ```
//!
//! [`Engine::compile`] runs the whole pipeline ([`pipeline`]): the dialect
//! passes, the e-graph optimizer, the execution plan, the lowering through
//! MLIR, LLVM, and the JIT. The result is `Send + Sync`: many threads may
//! call [`CompiledModel::run`] at once. [`Engine::compile_traced`] also
//! reports per-stage timings and the optimizer's report, and shows the IR
//! between stages.
//!
//! Every entry point is a [`Compilation`] (`compilation`) in one call: the
//! object that resolves the options once, runs the front end once,
//! partitions a model with host steps, and lowers each compiled unit
//! through one function, which the JIT loads and the AOT path ([`aot`])
//! links into a library. The CLI uses it directly.

pub mod aot;
pub mod compilation;
mod compiled;
pub mod error;
mod jit;
pub mod pipeline;
mod specialize;
mod variants;

use std::path::Path;

use onnx_mlc_dialect::Model;
use onnx_mlc_import::{load_model, ImportOptions};

pub use aot::{AotModel, AotOutput, LibraryOptions, LibraryReport, WeightsPolicy};
pub use compilation::{Compilation, CompileReport};
pub use compiled::CompiledModel;
pub use error::{Error, Result};
pub use onnx_mlc_codegen::emit::Artifact;
pub use onnx_mlc_codegen::TargetSpec;
pub use onnx_mlc_import::{Imported, Warning};
pub use onnx_mlc_optimizer::{OptReport, OptimizeOptions, RuleSet};
pub use onnx_mlc_program::Partition;
pub use onnx_mlc_runtime::{IoSpec, ModelSignature, SpecDim};
pub use onnx_mlc_runtime::{Map, MapKey, Optional, Sequence, StringTensor, Tensor, Value};
pub use pipeline::{
    CompileOptions, PrintPoint, Stage, StageIr, Timings, Trace, DEFAULT_MAX_VARIANTS,
    DEFAULT_RULE_SETS,
};
pub use specialize::SizeBinding;

/// The entry points of the library: each is a [`Compilation`] in one call.
pub struct Engine;

impl Engine {
    /// Imports a model file (with its external data) into the onnx dialect,
    /// dropping the importer's warnings.
    pub fn load(path: impl AsRef<Path>) -> Result<Model> {
        Ok(load_model(path.as_ref(), &ImportOptions::default())?.model)
    }

    /// Imports a model file for a compilation with `options`: the model and
    /// the importer's warnings; with `options.strict`, names are checked
    /// too and any warning is an error ([`Error::Strict`]).
    pub fn import(path: impl AsRef<Path>, options: &CompileOptions) -> Result<Imported> {
        let import = ImportOptions {
            strict_names: options.strict,
            ..ImportOptions::default()
        };
        let imported = load_model(path.as_ref(), &import)?;
        if options.strict && !imported.warnings.is_empty() {
            return Err(Error::Strict {
                warnings: imported.warnings,
            });
        }
        Ok(imported)
    }

    /// Compiles a model for this machine and loads it for running.
    pub fn compile(model: &Model, options: &CompileOptions) -> Result<CompiledModel> {
        Ok(Compilation::new(model, options)?.jit()?.0)
    }

    /// Runs the pipeline up to the last stage of the points in
    /// `print_after`, giving `print` the IR at each of them, without loading
    /// the result: `onnx-mlc --emit <stage>`. A model whose kernels do not
    /// lower yet still shows its `onnx`, `opt` and `plan` stages; a host
    /// program shows the later stages of each of its segments.
    pub fn emit(
        model: &Model,
        options: &CompileOptions,
        print_after: &[PrintPoint],
        print: &mut dyn FnMut(PrintPoint, StageIr),
    ) -> Result<CompileReport> {
        let last = print_after.iter().map(|p| p.stage()).max();
        let trace = Trace {
            last: last.unwrap_or(Stage::Onnx),
            ..Trace::printing(print_after, print)
        };
        Compilation::traced(model, options, trace)?.emit()
    }

    /// The host program a model runs as (`onnx-mlc --emit program`): the
    /// front end, then the partitioner; `None` when the model has no host
    /// step and compiles into one function.
    pub fn partition(model: &Model, options: &CompileOptions) -> Result<Option<Partition>> {
        Ok(Compilation::new(model, options)?.partition()?.cloned())
    }

    /// [`Engine::compile`], also reporting how long each stage took and
    /// what the optimizer did, and giving `print` the IR after each point
    /// listed in `print_after`.
    pub fn compile_traced(
        model: &Model,
        options: &CompileOptions,
        print_after: &[PrintPoint],
        print: &mut dyn FnMut(PrintPoint, StageIr),
    ) -> Result<(CompiledModel, CompileReport)> {
        Compilation::traced(model, options, Trace::printing(print_after, print))?.jit()
    }
}

impl Engine {
    /// Compiles a model ahead of time: a shared library (or only the
    /// model's object, assembly or LLVM IR) for `options.compile.target`,
    /// plus weights side files when the policy says so.
    ///
    /// A model that runs as a host program (`onnx_mlc_program`) gives one
    /// module holding every compiled segment, each under its own symbol
    /// prefix (`__omlc_s<K>_`), and the serialized program; its weights go
    /// to one side file per segment (`libmodel.s<K>.weights`) when they do
    /// not stay in the library.
    pub fn compile_library(model: &Model, options: &LibraryOptions) -> Result<LibraryReport> {
        Compilation::new(model, &options.compile)?.library(
            &options.output,
            options.kind,
            options.weights,
        )
    }
}

impl AotModel {
    /// Compiles `model` into a shared library for this machine (the target
    /// of `options` must be the host) and loads it with sessions on
    /// `options.threads` threads: [`Compilation::aot`] in one call.
    pub fn compile(model: &Model, options: &CompileOptions) -> Result<(AotModel, LibraryReport)> {
        Compilation::new(model, options)?.aot()
    }
}

/// The C header of a model's library (`--emit header`): which inputs and
/// outputs this model has (names, element types, shapes with symbolic
/// dims), then the ABI types and the public API of `omlc_rt.h`.
pub fn emit_header(model: &Model) -> Result<String> {
    let front_end_only = Trace {
        last: Stage::Onnx,
        ..Trace::none()
    };
    Compilation::traced(model, &CompileOptions::default(), front_end_only)?.header()
}
