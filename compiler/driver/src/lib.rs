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

pub mod aot;
pub mod error;
mod jit;
pub mod pipeline;

use std::path::Path;
use std::sync::Arc;

use onnx_mlc_codegen::glue::Weights;
use onnx_mlc_dialect::{Model, OpKind, TensorData};
use onnx_mlc_import::{load_model, ImportOptions};
use onnx_mlc_runtime::program::{Program, Segment};
use onnx_mlc_runtime::{
    into_tensors, CompiledCode, HostProgram, RtContext, RuntimeError, Session,
    Weights as SessionWeights,
};

pub use aot::{emit_header, AotModel, AotOutput, LibraryOptions, LibraryReport, WeightsPolicy};
pub use error::{Error, Result};
pub use onnx_mlc_codegen::emit::Artifact;
pub use onnx_mlc_codegen::TargetSpec;
pub use onnx_mlc_optimizer::{OptReport, OptimizeOptions, RuleSet};
pub use onnx_mlc_program::Partition;
pub use onnx_mlc_runtime::{IoSpec, ModelSignature, SpecDim};
pub use onnx_mlc_runtime::{Optional, Sequence, StringTensor, Tensor, Value};
pub use pipeline::{PrintPoint, Stage, StageIr, Timings, DEFAULT_RULE_SETS};

use jit::JitCode;
use pipeline::{compile_to_llvm, default_optimizer, front_end, lower_until, PipelineOptions};

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Threads the compiled model runs on (1: the caller's thread only).
    pub threads: usize,
    /// What to generate code for; JIT compilation needs the host.
    pub target: TargetSpec,
    /// The e-graph optimizer (the `opt` stage); on by default with
    /// [`DEFAULT_RULE_SETS`].
    pub optimizer: OptimizeOptions,
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            threads: 1,
            target: TargetSpec::host(),
            optimizer: default_optimizer(),
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

/// The entry points of the library.
pub struct Engine;

impl Engine {
    /// Imports a model file (with its external data) into the onnx dialect.
    pub fn load(path: impl AsRef<Path>) -> Result<Model> {
        Ok(load_model(path.as_ref(), &ImportOptions::default())?.model)
    }

    /// Compiles a model for this machine and loads it for running.
    pub fn compile(model: &Model, options: &CompileOptions) -> Result<CompiledModel> {
        Self::compile_traced(model, options, &[], &mut |_, _| {}).map(|(m, _)| m)
    }

    /// Runs the pipeline up to the last stage of the points in
    /// `print_after`, giving `print` the IR at each of them, without loading
    /// the result: `onnx-mlc --emit <stage>`. A model whose kernels do not
    /// lower yet still shows its `onnx`, `opt` and `plan` stages.
    pub fn emit(
        model: &Model,
        options: &CompileOptions,
        print_after: &[PrintPoint],
        print: &mut dyn FnMut(PrintPoint, StageIr),
    ) -> Result<CompileReport> {
        let mut model = model.clone();
        let mut timings = Timings::default();
        let last = print_after.iter().map(|p| p.stage()).max();
        let mut pipeline_options = PipelineOptions {
            target: options.target.clone(),
            optimizer: options.optimizer.clone(),
            print_after: print_after.to_vec(),
        };
        // Nothing after `onnx` is asked for: the optimizer need not run.
        if last.is_none_or(|s| s < Stage::Opt) {
            pipeline_options.optimizer.enabled = false;
        }
        let optimizer = front_end(&mut model, &pipeline_options, &mut timings, print)?;
        if let Some(last) = last.filter(|s| *s > Stage::Opt) {
            let llcx = inkwell::context::Context::create();
            lower_until(
                &llcx,
                &model,
                &pipeline_options,
                &|_| Ok(Weights::Runtime),
                &mut timings,
                print,
                last,
            )?;
        }
        Ok(CompileReport { timings, optimizer })
    }

    /// The host program a model runs as (`onnx-mlc --emit program`): the
    /// front end, then the partitioner; `None` when the model has no host
    /// step and compiles into one function.
    pub fn partition(model: &Model, options: &CompileOptions) -> Result<Option<Partition>> {
        let mut model = model.clone();
        let pipeline_options = PipelineOptions {
            target: options.target.clone(),
            optimizer: options.optimizer.clone(),
            print_after: vec![],
        };
        front_end(
            &mut model,
            &pipeline_options,
            &mut Timings::default(),
            &mut |_, _| {},
        )?;
        Ok(onnx_mlc_program::partition(&model)?)
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
        let mut model = model.clone();
        let mut timings = Timings::default();
        let pipeline_options = PipelineOptions {
            target: options.target.clone(),
            optimizer: options.optimizer.clone(),
            print_after: print_after.to_vec(),
        };
        let optimizer = front_end(&mut model, &pipeline_options, &mut timings, print)?;
        let rt = Arc::new(RtContext::new(options.threads)?);
        let compiled = match onnx_mlc_program::partition(&model)? {
            None => {
                let session = jit_session(&model, &pipeline_options, &rt, &mut timings, print)?;
                Compiled::Single(session)
            }
            Some(partition) => {
                // Each segment is a model of its own: the front end again
                // (its border dims are new), then the JIT.
                let segment_options = PipelineOptions {
                    print_after: vec![],
                    ..pipeline_options.clone()
                };
                let sessions = partition
                    .segments
                    .into_iter()
                    .map(|mut segment| {
                        front_end(&mut segment, &segment_options, &mut timings, &mut |_, _| {})?;
                        let session = jit_session(
                            &segment,
                            &segment_options,
                            &rt,
                            &mut timings,
                            &mut |_, _| {},
                        )?;
                        Ok(Box::new(session) as Box<dyn Segment>)
                    })
                    .collect::<Result<Vec<_>>>()?;
                Compiled::Program(HostProgram::new(partition.program, sessions)?)
            }
        };
        let report = CompileReport { timings, optimizer };
        Ok((CompiledModel { compiled }, report))
    }
}

/// Lowers a model that went through the front end, JIT-compiles it and
/// wraps it in a session on `rt`.
fn jit_session(
    model: &Model,
    pipeline_options: &PipelineOptions,
    rt: &Arc<RtContext>,
    timings: &mut Timings,
    print: &mut dyn FnMut(PrintPoint, StageIr),
) -> Result<Session> {
    let mut plan = None;
    let (start, before) = (std::time::Instant::now(), timings.total());
    let code = JitCode::new(|llcx| {
        let (module, p) = compile_to_llvm(
            llcx,
            model,
            pipeline_options,
            &|_| Ok(Weights::Runtime),
            timings,
            print,
        )?;
        plan = Some(p);
        Ok(module)
    })?;
    // Machine code generation: what building the JIT took beyond the
    // stages it ran.
    let lowering = timings.total() - before;
    timings
        .0
        .push(("jit", start.elapsed().saturating_sub(lowering)));
    let plan = plan.expect("set by the build");
    let weights = plan
        .weights
        .iter()
        .map(|&v| weight_tensor(model, v))
        .collect::<Result<Vec<_>>>()?;
    let (info, main) = (code.info, code.main);
    let compiled = CompiledCode {
        info,
        main,
        owner: Arc::new(code),
    };
    // SAFETY: `info` and `main` come from the module just compiled with
    // the ABI glue, and `owner` keeps that code alive for the session.
    Ok(unsafe { Session::new(compiled, SessionWeights::Tensors(weights), rt.clone())? })
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
    compiled: Compiled,
}

/// The two forms of a [`CompiledModel`].
enum Compiled {
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
