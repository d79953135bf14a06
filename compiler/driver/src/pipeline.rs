//! The compile pipeline as named stages, each timed and printable.
//!
//! ```text
//! onnx ─► opt ─► plan ─► linalg ─► affine ─► llvm-mlir ─► llvm ─► (jit | asm | obj | lib)
//! ```
//!
//! `onnx` is the dialect after the default dialect pipeline (verified,
//! shape-inferred, shapes folded); `opt` is the e-graph optimizer
//! (`onnx_mlc_optimizer`) with the rule sets of [`PipelineOptions::optimizer`];
//! `plan` decides kernels and memory; `linalg`, `affine`, `llvm-mlir` are the
//! MLIR stages of the lowering; `llvm` is the LLVM module with the ABI glue,
//! after O3.
//!
//! [`front_end`] runs the two dialect stages (they need no LLVM) and
//! [`compile_to_llvm`] the rest. Both report the IR after the points listed
//! in [`PipelineOptions::print_after`] — a stage, or one of the dialect
//! passes inside `onnx` — through a callback, so that the CLI's `--emit` and
//! `--print-ir-after` and the tests see the same IR.

use std::time::{Duration, Instant};

use inkwell::context::Context as LlvmContext;
use inkwell::module::Module as LlvmModule;
use onnx_mlc_codegen::glue::{define_glue, IoDesc, ModelDesc, Weights};
use onnx_mlc_codegen::{llvm, TargetSpec};
use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{Dim, Model, Type};
use onnx_mlc_lowering::context::new_context;
use onnx_mlc_lowering::model::{build_module, distinct};
use onnx_mlc_lowering::pipeline::{to_affine, to_llvm};
use onnx_mlc_optimizer::{optimize, OptReport, OptimizeOptions, RuleSet};
use onnx_mlc_plan::{plan, Plan, PlanOptions};

use crate::error::Result;

/// The optimizer's rule sets a compilation uses unless told otherwise: the
/// sets whose rewrites measurably pay on this machine (the ablation in
/// `docs/optimizer.md`). Left out: `multi` (a merged MatMul or Conv is
/// split again by a copy kernel, which costs what the merge saves).
pub const DEFAULT_RULE_SETS: &[RuleSet] = &[
    RuleSet::Algebraic,
    RuleSet::Canonical,
    RuleSet::Fusion,
    RuleSet::Layout,
    RuleSet::Attention,
    RuleSet::Pointwise,
];

/// The optimizer options of a default compilation: [`DEFAULT_RULE_SETS`],
/// with the optimizer's default limits and cost model.
pub fn default_optimizer() -> OptimizeOptions {
    OptimizeOptions {
        rule_sets: DEFAULT_RULE_SETS.to_vec(),
        ..OptimizeOptions::default()
    }
}

/// A stage of the pipeline, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// Import checks and the dialect pipeline (verify, infer, fold, dce).
    Onnx,
    /// The e-graph optimizer.
    Opt,
    /// The execution plan: kernels, fusion, memory.
    Plan,
    /// The MLIR module of linalg/tensor/arith kernels.
    Linalg,
    /// After the schedules: loops (affine/scf) and vectors.
    Affine,
    /// The MLIR LLVM dialect.
    LlvmMlir,
    /// The LLVM module with the ABI glue, after O3.
    Llvm,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 7] = [
        Stage::Onnx,
        Stage::Opt,
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
            Stage::Opt => "opt",
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

/// A point of the pipeline whose IR can be printed: after a stage, or after
/// one of the dialect passes the `onnx` stage runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PrintPoint {
    /// After a dialect pass of [`DEFAULT_PIPELINE`] (`infer-shapes`, …).
    Pass(&'static str),
    /// After a stage.
    Stage(Stage),
}

impl PrintPoint {
    /// The point called `name`: a stage's name, or a pass of the dialect
    /// pipeline (stage names win; no pass is named like a stage).
    pub fn from_name(name: &str) -> Option<PrintPoint> {
        Stage::from_name(name).map(PrintPoint::Stage).or_else(|| {
            DEFAULT_PIPELINE
                .iter()
                .find(|p| **p == name)
                .map(|p| PrintPoint::Pass(p))
        })
    }

    /// Every point, in pipeline order (the dialect passes first, then the
    /// stages; a pass of the pipeline that runs twice is listed once).
    pub fn all() -> Vec<PrintPoint> {
        let mut points: Vec<PrintPoint> = vec![];
        for p in DEFAULT_PIPELINE {
            if !points.contains(&PrintPoint::Pass(p)) {
                points.push(PrintPoint::Pass(p));
            }
        }
        points.extend(Stage::ALL.map(PrintPoint::Stage));
        points
    }

    /// The point's name (`--print-ir-after`).
    pub fn name(self) -> &'static str {
        match self {
            PrintPoint::Pass(p) => p,
            PrintPoint::Stage(s) => s.name(),
        }
    }

    /// The stage this point is in.
    pub fn stage(self) -> Stage {
        match self {
            PrintPoint::Pass(_) => Stage::Onnx,
            PrintPoint::Stage(s) => s,
        }
    }
}

/// The IR at a [`PrintPoint`].
pub enum StageIr<'a> {
    /// The onnx dialect (the `onnx` stage and its passes, `opt`): the model
    /// itself, so that the caller chooses how to print it (constants elided
    /// or not, the text form or Graphviz).
    Dialect(&'a Model),
    /// The printed form of a later stage (the plan, an MLIR or LLVM module).
    Text(String),
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
    /// The machine to generate code for.
    pub target: TargetSpec,
    /// The `opt` stage: which rule sets, which limits, or off.
    pub optimizer: OptimizeOptions,
    /// The points after which the print callback receives the IR.
    pub print_after: Vec<PrintPoint>,
}

impl Default for PipelineOptions {
    /// The host, [`default_optimizer`], nothing printed.
    fn default() -> PipelineOptions {
        PipelineOptions {
            target: TargetSpec::host(),
            optimizer: default_optimizer(),
            print_after: vec![],
        }
    }
}

/// Runs the dialect pipeline on an imported model.
pub fn prepare(model: &mut Model) -> Result<()> {
    prepare_printing(model, &[], &mut |_, _| {})
}

/// [`prepare`], giving the model to `print` after the passes listed in
/// `print_after`.
fn prepare_printing(
    model: &mut Model,
    print_after: &[PrintPoint],
    print: &mut dyn FnMut(PrintPoint, StageIr),
) -> Result<()> {
    for name in DEFAULT_PIPELINE {
        (pass(name).expect("pipeline passes are registered").run)(model)?;
        let point = PrintPoint::Pass(name);
        if print_after.contains(&point) {
            print(point, StageIr::Dialect(model));
        }
    }
    Ok(())
}

/// The stages `onnx` and `opt` on an imported model, in place: the
/// dialect pipeline, then the optimizer. Returns the optimizer's report.
pub fn front_end(
    model: &mut Model,
    options: &PipelineOptions,
    timings: &mut Timings,
    print: &mut dyn FnMut(PrintPoint, StageIr),
) -> Result<OptReport> {
    let wants = |stage| options.print_after.contains(&PrintPoint::Stage(stage));
    timings.time("onnx", || {
        prepare_printing(model, &options.print_after, print)
    })?;
    if wants(Stage::Onnx) {
        print(PrintPoint::Stage(Stage::Onnx), StageIr::Dialect(model));
    }
    let report = timings.time("opt", || optimize(model, &options.optimizer))?;
    if wants(Stage::Opt) {
        print(PrintPoint::Stage(Stage::Opt), StageIr::Dialect(model));
    }
    Ok(report)
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

/// The stages from `plan` on: lowers a model that went through
/// [`front_end`] to an optimized LLVM module (with the ABI glue) in `llcx`.
/// `weights` says, given the plan (whose `weights` fix their order), where
/// the compiled code finds them. `print` receives the stages asked for in
/// `options`.
pub fn compile_to_llvm<'c, 'w>(
    llcx: &'c LlvmContext,
    model: &Model,
    options: &PipelineOptions,
    weights: &dyn Fn(&Plan) -> Result<Weights<'w>>,
    timings: &mut Timings,
    print: &mut dyn FnMut(PrintPoint, StageIr),
) -> Result<(LlvmModule<'c>, Plan)> {
    let done = lower_until(llcx, model, options, weights, timings, print, Stage::Llvm)?;
    Ok(done.expect("the pipeline runs to its last stage"))
}

/// [`compile_to_llvm`], stopping after `last`: the LLVM module and the plan
/// when `last` is [`Stage::Llvm`], nothing otherwise (the stages' output
/// went to `print`). `onnx --emit plan` needs no lowering of the kernels.
pub fn lower_until<'c, 'w>(
    llcx: &'c LlvmContext,
    model: &Model,
    options: &PipelineOptions,
    weights: &dyn Fn(&Plan) -> Result<Weights<'w>>,
    timings: &mut Timings,
    print: &mut dyn FnMut(PrintPoint, StageIr),
    last: Stage,
) -> Result<Option<(LlvmModule<'c>, Plan)>> {
    let mut show = |stage: Stage, text: &dyn Fn() -> String| {
        let point = PrintPoint::Stage(stage);
        if options.print_after.contains(&point) {
            print(point, StageIr::Text(text()));
        }
        stage >= last
    };
    let plan = timings.time("plan", || plan(model, &PlanOptions { in_place: false }))?;
    if show(Stage::Plan, &|| plan.dump(model).to_string()) {
        return Ok(None);
    }
    let target = options.target.lowering_target();
    let cx = new_context();
    let mut built = timings.time("linalg", || build_module(&cx, model, &plan, &target))?;
    if show(Stage::Linalg, &|| built.module.as_operation().to_string()) {
        return Ok(None);
    }
    let schedules: Vec<_> = distinct(&built.kernels)
        .map(|k| k.schedule.clone())
        .collect();
    timings.time("affine", || {
        to_affine(&cx, &mut built.module, &schedules, &target)
    })?;
    if show(Stage::Affine, &|| built.module.as_operation().to_string()) {
        return Ok(None);
    }
    timings.time("llvm-mlir", || to_llvm(&cx, &mut built.module))?;
    if show(Stage::LlvmMlir, &|| built.module.as_operation().to_string()) {
        return Ok(None);
    }
    let desc = model_desc(model, &plan, built.workspace_size, weights(&plan)?);
    let module = timings.time("llvm", || -> Result<_> {
        let module = llvm::translate(llcx, &built.module, &options.target)?;
        define_glue(llcx, &module, &built.kernels, &desc)?;
        llvm::optimize(&module, &options.target)?;
        Ok(module)
    })?;
    show(Stage::Llvm, &|| module.print_to_string().to_string());
    Ok(Some((module, plan)))
}
