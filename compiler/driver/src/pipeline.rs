//! The compile pipeline as named stages, each timed and printable.
//!
//! ```text
//! onnx ─► opt ─► [partition] ─► plan ─► linalg ─► affine ─► llvm-mlir ─► llvm ─► (jit | asm | obj | lib)
//! ```
//!
//! `onnx` is the dialect after the default dialect pipeline (verified,
//! shape-inferred, shapes folded); `opt` is the e-graph optimizer
//! (`onnx_mlc_optimizer`) with the rule sets of
//! [`CompileOptions::optimizer`]; a model with host steps is then cut into
//! a host program and its compiled segments ([`crate::compilation`]);
//! `plan` decides kernels and memory; `linalg`, `affine`, `llvm-mlir` are
//! the MLIR stages of the lowering; `llvm` is the LLVM module with the ABI
//! glue, after O3.
//!
//! A `Pipeline` holds what one compilation resolved once: its options,
//! its [`Trace`] and its timings. `Pipeline::front_end` runs the two
//! dialect stages (they need no LLVM) and `Pipeline::lower` the rest, for
//! the whole model or one segment. Both give the IR after the points the
//! trace lists — a stage, or one of the dialect passes inside `onnx` — to
//! its callback, so that the CLI's `--emit` and `--print-ir-after` and the
//! tests see the same IR.

use std::time::{Duration, Instant};

use inkwell::context::Context as LlvmContext;
use inkwell::module::Module as LlvmModule;
use onnx_mlc_codegen::glue::{define_glue, IoDesc, ModelDesc, Weights};
use onnx_mlc_codegen::llvm;
use onnx_mlc_codegen::TargetSpec;
use onnx_mlc_dialect::ir::ValueDef;
use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{Dim, Model, OpKind, TensorData, Type};
use onnx_mlc_lowering::context::new_context;
use onnx_mlc_lowering::model::{build_module, distinct};
use onnx_mlc_lowering::pipeline::{to_affine, to_llvm};
use onnx_mlc_optimizer::{optimize_prepared, OptReport, OptimizeOptions, RuleSet};
use onnx_mlc_plan::{plan, Plan, PlanOptions};
use onnx_mlc_runtime::program::Program;
use onnx_mlc_runtime::Tensor;

use crate::error::{Error, Result};
use crate::specialize::SizeBinding;

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
    RuleSet::Quant,
];

/// The optimizer options of a default compilation: [`DEFAULT_RULE_SETS`],
/// with the optimizer's default limits and cost model.
pub fn default_optimizer() -> OptimizeOptions {
    OptimizeOptions {
        rule_sets: DEFAULT_RULE_SETS.to_vec(),
        ..OptimizeOptions::default()
    }
}

/// How to compile: the options a [`crate::Compilation`] resolves once.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Threads the compiled model runs on (1: the caller's thread only).
    pub threads: usize,
    /// What to generate code for; JIT compilation needs the host.
    pub target: TargetSpec,
    /// The e-graph optimizer (the `opt` stage); on by default with
    /// [`DEFAULT_RULE_SETS`].
    pub optimizer: OptimizeOptions,
    /// Whether importing the model ([`crate::Engine::import`]) is strict: names
    /// are checked against the IR spec's C90 identifier rule, and anything
    /// the importer would warn about is an error.
    pub strict: bool,
    /// How many size variants the JIT keeps for a model whose inputs have
    /// sizes only the run time knows: the first run at new sizes starts
    /// compiling, in the background, code for exactly those sizes (static
    /// schedules, computed shapes folded), which the runs at them take once
    /// it is ready; once this many are kept, other sizes run on the
    /// general code. 0: the general code only. Ahead-of-time libraries
    /// carry the variants of [`CompileOptions::specialize`] instead.
    pub max_variants: usize,
    /// The size variants an ahead-of-time library carries besides its
    /// general code (`--specialize`; `crate::specialize`): each the model
    /// with some open input dims bound, run when a call's inputs have those
    /// sizes. The JIT makes its variants on demand instead.
    pub specialize: Vec<SizeBinding>,
}

/// [`CompileOptions::max_variants`] unless told otherwise: a few sizes (a
/// batch of 1 and a serving batch, say); each costs a compile in the
/// background and the weights its compilation changed.
pub const DEFAULT_MAX_VARIANTS: usize = 4;

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            threads: 1,
            target: TargetSpec::host(),
            optimizer: default_optimizer(),
            strict: false,
            max_variants: DEFAULT_MAX_VARIANTS,
            specialize: vec![],
        }
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
    /// Runs `f`, recording how long it took as stage `name`.
    pub(crate) fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
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

/// What a compilation shows, and how far it goes: the IR after each of
/// `points` goes to `print`; no stage after `last` runs.
pub struct Trace<'p> {
    /// The points after which `print` receives the IR.
    pub points: Vec<PrintPoint>,
    /// Receives the IR at each of `points`.
    pub print: Box<dyn FnMut(PrintPoint, StageIr) + 'p>,
    /// The last stage that runs ([`Stage::Llvm`]: code).
    pub last: Stage,
}

impl Trace<'static> {
    /// Nothing shown, every stage run: a compilation to code.
    pub fn none() -> Trace<'static> {
        Trace {
            points: vec![],
            print: Box::new(|_, _| {}),
            last: Stage::Llvm,
        }
    }
}

impl<'p> Trace<'p> {
    /// The IR after each of `points` given to `print`, every stage run.
    pub fn printing(points: &[PrintPoint], print: &'p mut dyn FnMut(PrintPoint, StageIr)) -> Self {
        Trace {
            points: points.to_vec(),
            print: Box::new(print),
            last: Stage::Llvm,
        }
    }
}

/// The stages of one compilation: the caller's options and trace, and the
/// time each stage took. Every model a compilation compiles (the whole
/// model, or each segment of its host program) goes through these.
pub(crate) struct Pipeline<'p> {
    pub options: CompileOptions,
    pub trace: Trace<'p>,
    pub timings: Timings,
    /// The segment of a host program being lowered, if any.
    pub segment: Option<usize>,
}

impl Pipeline<'_> {
    /// Gives `print` the IR at `point` when the trace asks for it; a later
    /// stage's text names the segment it is of.
    fn show<'m>(&mut self, point: PrintPoint, ir: impl FnOnce() -> StageIr<'m>) {
        if self.trace.points.contains(&point) {
            let ir = match (ir(), self.segment) {
                (StageIr::Text(text), Some(k)) => StageIr::Text(format!("// segment {k}\n{text}")),
                (ir, _) => ir,
            };
            (self.trace.print)(point, ir);
        }
    }

    /// Shows the IR after `stage` when asked for; whether the trace stops
    /// there.
    fn done_after(&mut self, stage: Stage, text: impl FnOnce() -> String) -> bool {
        self.show(PrintPoint::Stage(stage), || StageIr::Text(text()));
        stage >= self.trace.last
    }

    /// The stages `onnx` and `opt` on an imported model, in place: the
    /// dialect pipeline, then — unless the trace stops before it — the
    /// optimizer, which trusts what the pipeline inferred. Returns the
    /// optimizer's report.
    pub fn front_end(&mut self, model: &mut Model) -> Result<OptReport> {
        let start = Instant::now();
        for name in DEFAULT_PIPELINE {
            (pass(name).expect("pipeline passes are registered").run)(model)?;
            self.show(PrintPoint::Pass(name), || StageIr::Dialect(model));
        }
        self.timings.0.push(("onnx", start.elapsed()));
        self.show(PrintPoint::Stage(Stage::Onnx), || StageIr::Dialect(model));
        let mut optimizer = self.options.optimizer.clone();
        // Nothing after `onnx` is asked for: the optimizer need not run.
        optimizer.enabled &= self.trace.last >= Stage::Opt;
        let report = self
            .timings
            .time("opt", || optimize_prepared(model, &optimizer))?;
        self.show(PrintPoint::Stage(Stage::Opt), || StageIr::Dialect(model));
        Ok(report)
    }

    /// The one function every compiled model goes through, JIT or AOT:
    /// the stages from `plan` on, which lower a model that went through
    /// the front end to an optimized LLVM module (with the ABI glue) in
    /// `llcx`. Stops after the trace's last stage: the LLVM module and the
    /// plan when that is [`Stage::Llvm`], nothing otherwise (the stages'
    /// IR went to the trace). `weights` says, given the plan (whose
    /// `weights` fix their order), where the compiled code finds them.
    pub fn lower<'c, 'w>(
        &mut self,
        llcx: &'c LlvmContext,
        model: &Model,
        weights: &dyn Fn(&Plan) -> Result<Weights<'w>>,
    ) -> Result<Option<(LlvmModule<'c>, Plan)>> {
        let plan = self.plan(model)?;
        if self.done_after(Stage::Plan, || plan.dump(model).to_string()) {
            return Ok(None);
        }
        let target = self.options.target.lowering_target();
        let cx = new_context();
        let mut built = self
            .timings
            .time("linalg", || build_module(&cx, model, &plan, &target))?;
        if self.done_after(Stage::Linalg, || built.module.as_operation().to_string()) {
            return Ok(None);
        }
        let schedules: Vec<_> = distinct(&built.kernels)
            .map(|k| k.schedule.clone())
            .collect();
        self.timings.time("affine", || {
            to_affine(&cx, &mut built.module, &schedules, &target)
        })?;
        if self.done_after(Stage::Affine, || built.module.as_operation().to_string()) {
            return Ok(None);
        }
        self.timings
            .time("llvm-mlir", || to_llvm(&cx, &mut built.module))?;
        if self.done_after(Stage::LlvmMlir, || built.module.as_operation().to_string()) {
            return Ok(None);
        }
        let desc = model_desc(model, &plan, built.workspace_size, weights(&plan)?);
        let target = &self.options.target;
        let module = self.timings.time("llvm", || -> Result<_> {
            let module = llvm::translate(llcx, &built.module, target)?;
            define_glue(llcx, &module, &built.kernels, &desc)?;
            llvm::optimize(&module, target)?;
            Ok(module)
        })?;
        self.done_after(Stage::Llvm, || module.print_to_string().to_string());
        Ok(Some((module, plan)))
    }

    /// The stage `plan` of a model that went through the front end.
    pub fn plan(&mut self, model: &Model) -> Result<Plan> {
        Ok(self
            .timings
            .time("plan", || plan(model, &PlanOptions { in_place: false }))?)
    }
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

/// What a compilation made of each compiled unit: one for the whole model,
/// or one per segment of its host program.
pub(crate) enum Units<T> {
    Single(T),
    Program(Program, Vec<T>),
}

/// The data of weight `v`: a `Constant`'s dense value or an input's default.
pub(crate) fn weight_tensor(model: &Model, v: onnx_mlc_dialect::Value) -> Result<Tensor> {
    Ok(Tensor::from_tensor_data(weight_data(model, v)?)?)
}

/// The dense value weight `v` has: a `Constant`'s or an input's default.
pub(crate) fn weight_data(model: &Model, v: onnx_mlc_dialect::Value) -> Result<&TensorData> {
    let name = || {
        model
            .ir
            .value(v)
            .name
            .clone()
            .unwrap_or_else(|| format!("{v:?}"))
    };
    let data: Option<&TensorData> = match model.ir.value(v).def {
        ValueDef::Result(op, _) => {
            let op = model.ir.op(op);
            (op.kind == OpKind::Constant)
                .then(|| op.attrs.tensor("value"))
                .flatten()
        }
        ValueDef::Arg(r, i) => model.ir.region(r).args[i as usize].default.as_ref(),
    };
    data.ok_or_else(|| Error::Weight {
        name: name(),
        message: "not a dense constant".into(),
    })
}
