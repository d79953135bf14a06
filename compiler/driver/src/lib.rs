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
//! passes, the execution plan, the lowering through MLIR, LLVM, and the
//! JIT. The result is `Send + Sync`: many threads may call
//! [`CompiledModel::run`] at once.

pub mod aot;
pub mod error;
mod jit;
pub mod pipeline;

use std::path::Path;
use std::sync::Arc;

use onnx_mlc_codegen::glue::Weights;
use onnx_mlc_dialect::{Model, OpKind, TensorData};
use onnx_mlc_import::{load_model, ImportOptions};
use onnx_mlc_runtime::RtContext;
use onnx_mlc_runtime::{CompiledCode, Session, Weights as SessionWeights};

pub use aot::{emit_header, AotModel, AotOutput, LibraryOptions, LibraryReport, WeightsPolicy};
pub use error::{Error, Result};
pub use onnx_mlc_codegen::emit::Artifact;
pub use onnx_mlc_codegen::TargetSpec;
pub use onnx_mlc_runtime::ModelSignature;
pub use onnx_mlc_runtime::Tensor;
pub use pipeline::{Stage, Timings};

use jit::JitCode;
use pipeline::{compile_to_llvm, prepare, PipelineOptions};

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Threads the compiled model runs on (1: the caller's thread only).
    pub threads: usize,
    /// What to generate code for; JIT compilation needs the host.
    pub target: TargetSpec,
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            threads: 1,
            target: TargetSpec::host(),
        }
    }
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
        Self::compile_with_timings(model, options).map(|(m, _)| m)
    }

    /// [`Engine::compile`], also returning how long each stage took.
    pub fn compile_with_timings(
        model: &Model,
        options: &CompileOptions,
    ) -> Result<(CompiledModel, Timings)> {
        let mut model = model.clone();
        let mut timings = Timings::default();
        let start = std::time::Instant::now();
        prepare(&mut model)?;
        timings.0.push(("onnx", start.elapsed()));
        let pipeline_options = PipelineOptions {
            target: options.target.clone(),
            print_after: vec![],
        };
        let mut plan = None;
        let code = JitCode::new(|llcx| {
            let (module, p) = compile_to_llvm(
                llcx,
                &model,
                &pipeline_options,
                &|_| Ok(Weights::Runtime),
                &mut timings,
                &mut |_, _| {},
            )?;
            plan = Some(p);
            Ok(module)
        })?;
        let plan = plan.expect("set by the build");
        let weights = plan
            .weights
            .iter()
            .map(|&v| weight_tensor(&model, v))
            .collect::<Result<Vec<_>>>()?;
        let rt = Arc::new(RtContext::new(options.threads)?);
        let (info, main) = (code.info, code.main);
        let compiled = CompiledCode {
            info,
            main,
            owner: Arc::new(code),
        };
        // SAFETY: `info` and `main` come from the module just compiled with
        // the ABI glue, and `owner` keeps that code alive for the session.
        let session = unsafe { Session::new(compiled, SessionWeights::Tensors(weights), rt)? };
        Ok((CompiledModel { session }, timings))
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

/// A compiled model, ready to run from any number of threads.
pub struct CompiledModel {
    session: Session,
}

impl CompiledModel {
    /// The model's inputs and outputs.
    pub fn signature(&self) -> &ModelSignature {
        self.session.signature()
    }

    /// Runs the model on inputs in graph order; validates their dtypes and
    /// shapes first.
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        Ok(self.session.run(inputs)?)
    }
}
