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
pub mod error;
mod jit;
pub mod pipeline;

use std::path::Path;

use onnx_mlc_dialect::{Model, OpKind, TensorData};
use onnx_mlc_import::{load_model, ImportOptions};
use onnx_mlc_runtime::program::Program;
use onnx_mlc_runtime::{into_tensors, HostProgram, RuntimeError, Session};

pub use aot::{emit_header, AotModel, AotOutput, LibraryOptions, LibraryReport, WeightsPolicy};
pub use compilation::Compilation;
pub use error::{Error, Result};
pub use onnx_mlc_codegen::emit::Artifact;
pub use onnx_mlc_codegen::TargetSpec;
pub use onnx_mlc_import::{Imported, Warning};
pub use onnx_mlc_optimizer::{OptReport, OptimizeOptions, RuleSet};
pub use onnx_mlc_program::Partition;
pub use onnx_mlc_runtime::{IoSpec, ModelSignature, SpecDim};
pub use onnx_mlc_runtime::{Optional, Sequence, StringTensor, Tensor, Value};
pub use pipeline::{PrintPoint, Stage, StageIr, Timings, Trace, DEFAULT_RULE_SETS};

use pipeline::default_optimizer;

/// How to compile: the options a [`Compilation`] resolves once.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Threads the compiled model runs on (1: the caller's thread only).
    pub threads: usize,
    /// What to generate code for; JIT compilation needs the host.
    pub target: TargetSpec,
    /// The e-graph optimizer (the `opt` stage); on by default with
    /// [`DEFAULT_RULE_SETS`].
    pub optimizer: OptimizeOptions,
    /// Whether importing the model ([`Engine::import`]) is strict: names
    /// are checked against the IR spec's C90 identifier rule, and anything
    /// the importer would warn about is an error.
    pub strict: bool,
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            threads: 1,
            target: TargetSpec::host(),
            optimizer: default_optimizer(),
            strict: false,
        }
    }
}

/// What a compilation reports besides the compiled model.
#[derive(Clone, Debug)]
pub struct CompileReport {
    /// How long each stage took.
    pub timings: Timings,
    /// What the optimizer did.
    pub optimizer: OptReport,
}

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

/// The data of weight `v`: a `Constant`'s dense value or an input's default.
pub(crate) fn weight_tensor(model: &Model, v: onnx_mlc_dialect::Value) -> Result<Tensor> {
    let name = || {
        model
            .ir
            .value(v)
            .name
            .clone()
            .unwrap_or_else(|| format!("{v:?}"))
    };
    let data: Option<&TensorData> = match model.ir.value(v).def {
        onnx_mlc_dialect::ir::ValueDef::Result(op, _) => {
            let op = model.ir.op(op);
            (op.kind == OpKind::Constant)
                .then(|| op.attrs.tensor("value"))
                .flatten()
        }
        onnx_mlc_dialect::ir::ValueDef::Arg(r, i) => {
            model.ir.region(r).args[i as usize].default.as_ref()
        }
    };
    let data = data.ok_or_else(|| Error::Weight {
        name: name(),
        message: "not a dense constant".into(),
    })?;
    Ok(Tensor::from_tensor_data(data)?)
}

/// A compiled model, ready to run from any number of threads: one
/// compiled function, or a host program (`onnx_mlc_program`) whose
/// compiled segments run between host steps.
pub struct CompiledModel {
    pub(crate) compiled: Compiled,
}

/// The two forms of a [`CompiledModel`].
pub(crate) enum Compiled {
    /// The whole model is one compiled function.
    Single(Session),
    /// Compiled segments, host operators and control flow.
    Program(HostProgram),
}

impl CompiledModel {
    /// The model's inputs and outputs, when it is one compiled function
    /// over dense tensors; `None` for a host program, whose inputs and
    /// outputs may be sequences, optionals or strings.
    pub fn signature(&self) -> Option<&ModelSignature> {
        match &self.compiled {
            Compiled::Single(s) => Some(s.signature()),
            Compiled::Program(_) => None,
        }
    }

    /// The names of the model's outputs, in graph order.
    pub fn output_names(&self) -> Vec<&str> {
        match &self.compiled {
            Compiled::Single(s) => s.signature().output_names(),
            Compiled::Program(p) => p.output_names(),
        }
    }

    /// The host program, when the model runs as one.
    pub fn program(&self) -> Option<&Program> {
        match &self.compiled {
            Compiled::Single(_) => None,
            Compiled::Program(p) => Some(p.program()),
        }
    }

    /// Runs the model on tensor inputs in graph order; validates their
    /// dtypes and shapes first. A host program whose inputs or outputs are
    /// not all dense tensors needs [`CompiledModel::run_values`].
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        match &self.compiled {
            Compiled::Single(s) => Ok(s.run(inputs)?),
            Compiled::Program(p) => Ok(p.run_tensors(inputs)?),
        }
    }

    /// Runs the model on values of any kind (tensors, string tensors,
    /// sequences, optionals) in graph order.
    pub fn run_values(&self, inputs: Vec<Value>) -> Result<Vec<Value>> {
        match &self.compiled {
            Compiled::Program(p) => Ok(p.run(inputs)?),
            Compiled::Single(s) => {
                let tensors = into_tensors(inputs, "inputs of a model of tensors")?;
                Ok(s.run(&tensors)?.into_iter().map(Value::Tensor).collect())
            }
        }
    }

    /// Runs the model on inputs given by name (each exactly once); returns
    /// the outputs in graph order.
    pub fn run_named(&self, inputs: &[(&str, &Tensor)]) -> Result<Vec<Tensor>> {
        match &self.compiled {
            Compiled::Single(s) => Ok(s.run_named(inputs)?),
            Compiled::Program(_) => Err(RuntimeError::Unsupported(
                "inputs given by name to a host program are".into(),
            )
            .into()),
        }
    }
}
