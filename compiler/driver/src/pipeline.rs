//! The compile pipeline as named stages, each timed and printable.
//!
//! ```text
//! onnx ─► plan ─► linalg ─► affine ─► llvm-mlir ─► llvm ─► (jit | asm | obj | lib)
//! ```
//!
//! `onnx` is the dialect after the default dialect pipeline (verified,
//! shape-inferred, shapes folded); `plan` decides kernels and memory;
//! `linalg`, `affine`, `llvm-mlir` are the MLIR stages of the lowering;
//! `llvm` is the LLVM module with the ABI glue, after O3.

use std::time::{Duration, Instant};

use inkwell::context::Context as LlvmContext;
use inkwell::module::Module as LlvmModule;
use onnx_mlc_codegen::glue::{define_glue, IoDesc, ModelDesc, Weights};
use onnx_mlc_codegen::{llvm, TargetSpec};
use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{Dim, Model, Type};
use onnx_mlc_lowering::context::new_context;
use onnx_mlc_lowering::model::build_module;
use onnx_mlc_lowering::pipeline::{to_affine, to_llvm};
use onnx_mlc_plan::{plan, Plan, PlanOptions};

use crate::error::Result;

/// A stage of the pipeline, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Onnx,
    Plan,
    Linalg,
    Affine,
    LlvmMlir,
    Llvm,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 6] = [
        Stage::Onnx,
        Stage::Plan,
        Stage::Linalg,
        Stage::Affine,
        Stage::LlvmMlir,
        Stage::Llvm,
    ];

    /// The stage's name (`--print-ir-after`, `--timings`).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Onnx => "onnx",
            Stage::Plan => "plan",
            Stage::Linalg => "linalg",
            Stage::Affine => "affine",
            Stage::LlvmMlir => "llvm-mlir",
            Stage::Llvm => "llvm",
        }
    }

    /// The stage called `name`.
    pub fn from_name(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// How long each stage took, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timings(pub Vec<(&'static str, Duration)>);

impl Timings {
    fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        self.0.push((name, start.elapsed()));
        out
    }

    /// The sum of all stages.
    pub fn total(&self) -> Duration {
        self.0.iter().map(|(_, d)| *d).sum()
    }
}

impl std::fmt::Display for Timings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (name, d) in &self.0 {
            writeln!(f, "{name:>10}: {:>9.2} ms", d.as_secs_f64() * 1e3)?;
        }
        write!(
            f,
            "{:>10}: {:>9.2} ms",
            "total",
            self.total().as_secs_f64() * 1e3
        )
    }
}

/// What the pipeline takes besides the model.
#[derive(Clone, Debug)]
pub struct PipelineOptions {
    pub target: TargetSpec,
    /// Called with each stage's name and printed form after the stage, for
    /// the stages listed in `print_after`.
    pub print_after: Vec<Stage>,
}

impl Default for PipelineOptions {
    fn default() -> PipelineOptions {
        PipelineOptions {
            target: TargetSpec::host(),
            print_after: vec![],
        }
    }
}

/// Runs the dialect pipeline on an imported model.
pub fn prepare(model: &mut Model) -> Result<()> {
    for name in DEFAULT_PIPELINE {
        (pass(name).expect("pipeline passes are registered").run)(model)?;
    }
    Ok(())
}

/// The ABI description of a graph input or output.
pub(crate) fn io_desc(name: &str, ty: &Type) -> IoDesc {
    let t = ty
        .as_tensor()
        .expect("planned models have tensor inputs and outputs");
    let dims = t.dims().expect("planned models are ranked");
    IoDesc {
        name: name.to_string(),
        dtype: t.elem.onnx_code(),
        dims: dims.iter().map(|d| d.as_known().unwrap_or(-1)).collect(),
        dim_params: dims
            .iter()
            .map(|d| {
                if let Dim::Known(_) = d {
                    None
                } else {
                    Some(d.to_string().trim_matches('"').to_string())
                }
            })
            .collect(),
    }
}

/// The ABI description of a planned model.
pub fn model_desc<'a>(
    model: &Model,
    plan: &Plan,
    workspace_size: u64,
    weights: Weights<'a>,
) -> ModelDesc<'a> {
    let g = model.ir.region(model.graph);
    let name = |v| model.ir.value(v).name.clone().unwrap_or_default();
    ModelDesc {
        inputs: g
            .args
            .iter()
            .filter(|a| a.default.is_none())
            .map(|a| io_desc(&name(a.value), model.ir.ty(a.value)))
            .collect(),
        outputs: g
            .outputs
            .iter()
            .map(|o| io_desc(&o.name, model.ir.ty(o.value)))
            .collect(),
        num_weights: plan.weights.len(),
        weights,
        workspace_size,
    }
}

/// Lowers a prepared model to an optimized LLVM module (with the ABI glue)
/// in `llcx`. `weights` says, given the plan (whose `weights` fix their
/// order), where the compiled code finds them. `print` receives the stages
/// asked for in `options`.
pub fn compile_to_llvm<'c, 'w>(
    llcx: &'c LlvmContext,
    model: &Model,
    options: &PipelineOptions,
    weights: &dyn Fn(&Plan) -> Result<Weights<'w>>,
    timings: &mut Timings,
    print: &mut dyn FnMut(Stage, &str),
) -> Result<(LlvmModule<'c>, Plan)> {
    let mut show = |stage: Stage, text: &dyn Fn() -> String| {
        if options.print_after.contains(&stage) {
            print(stage, &text());
        }
    };
    show(Stage::Onnx, &|| model.to_string());
    let plan = timings.time("plan", || plan(model, &PlanOptions { in_place: false }))?;
    show(Stage::Plan, &|| plan.dump(model).to_string());
    let target = options.target.lowering_target();
    let cx = new_context();
    let mut built = timings.time("linalg", || build_module(&cx, model, &plan, &target))?;
    show(Stage::Linalg, &|| built.module.as_operation().to_string());
    let schedules: Vec<_> = built.kernels.iter().map(|k| k.schedule.clone()).collect();
    timings.time("affine", || {
        to_affine(&cx, &mut built.module, &schedules, &target)
    })?;
    show(Stage::Affine, &|| built.module.as_operation().to_string());
    timings.time("llvm-mlir", || to_llvm(&cx, &mut built.module))?;
    show(Stage::LlvmMlir, &|| built.module.as_operation().to_string());
    let desc = model_desc(model, &plan, built.workspace_size, weights(&plan)?);
    let module = timings.time("llvm", || -> Result<_> {
        let module = llvm::translate(llcx, &built.module, &options.target)?;
        define_glue(llcx, &module, &built.kernels, &desc)?;
        llvm::optimize(&module, &options.target)?;
        Ok(module)
    })?;
    show(Stage::Llvm, &|| module.print_to_string().to_string());
    Ok((module, plan))
}
