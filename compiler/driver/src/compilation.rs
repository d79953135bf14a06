//! One compilation of one model: what every entry point of the library and
//! every subcommand of the CLI goes through.
//!
//! A [`Compilation`] is made once from the caller's [`CompileOptions`] and
//! [`Trace`]. It runs the front end once (the dialect pipeline, then the
//! optimizer), cuts the model into a host program and its compiled
//! segments when it has host steps (`onnx_mlc_program`), and gives each
//! compiled unit — the whole model, or each segment — to the one function
//! that lowers it, `Pipeline::lower`. The JIT ([`Compilation::jit`]) loads
//! each unit's code; the AOT path ([`Compilation::library`]) links them
//! into one library. [`Compilation::plans`] shows the plans that are
//! compiled (`onnx-mlc inspect`) and [`Compilation::emit`] the IR of the
//! later stages (`--emit`).
//!
//! A segment is cut out of a model that went through the front end: its
//! ops are verified, decomposed, folded and — in the main graph —
//! optimized already. What is new in it are the dims at its border (a
//! fresh `dim_param` where the model's is not known) and the types of its
//! results, which the partitioner leaves for inference to find from that
//! border. So a segment gets shape inference again and nothing else of the
//! dialect pipeline; a segment cut out of a control-flow body, which the
//! optimizer (main graph only) has not seen, gets the optimizer too. Debug
//! builds verify every segment.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use inkwell::context::Context as LlvmContext;
use onnx_mlc_codegen::glue::Weights;
use onnx_mlc_dialect::infer::infer_model;
use onnx_mlc_dialect::Model;
use onnx_mlc_optimizer::{optimize_prepared, OptReport};
use onnx_mlc_plan::Plan;
use onnx_mlc_program::Partition;
use onnx_mlc_runtime::program::{Program, Step};
use onnx_mlc_runtime::{HostProgram, RtContext, Segment};

use crate::aot::{self, AotModel, AotOutput, LibraryReport, WeightsLayout, WeightsPolicy};
use crate::compiled::{Compiled, CompiledModel};
use crate::error::{Error, Result};
use crate::jit::{jit_session, WeightPool};
use crate::pipeline::{CompileOptions, Pipeline, Stage, Timings, Trace, Units};
use crate::specialize::SizeBinding;
use crate::variants::{self, Variants};

/// How a model compiles, once the compilation knows.
enum Form {
    /// Not partitioned yet: a compilation that stops at `onnx` or `opt`
    /// never asks.
    Unknown,
    /// One compiled function: the model itself.
    Single,
    /// A host program over compiled segments, each ready for the lowering.
    Program(Partition),
}

/// What a compilation reports besides the compiled model.
#[derive(Clone, Debug)]
pub struct CompileReport {
    /// How long each stage took.
    pub timings: Timings,
    /// What the optimizer did.
    pub optimizer: OptReport,
}

/// One compilation of one model: its options resolved once, the front end
/// run once, the model partitioned once; see the module docs.
pub struct Compilation<'p> {
    pipeline: Pipeline<'p>,
    optimizer: OptReport,
    /// The model as the caller gave it, when it gets size variants: the
    /// JIT compiles them from it, the AOT path those of
    /// [`CompileOptions::specialize`].
    source: Option<Model>,
    /// The model after the front end.
    model: Model,
    form: Form,
}

impl Compilation<'static> {
    /// Runs the front end on `model` for a compilation to code with
    /// `options`, showing nothing.
    pub fn new(model: &Model, options: &CompileOptions) -> Result<Compilation<'static>> {
        Compilation::traced(model, options, Trace::none())
    }
}

impl<'p> Compilation<'p> {
    /// Runs the front end on `model` for a compilation with `options` that
    /// shows what `trace` asks for and goes no further than its last stage
    /// (the optimizer does not run for a trace that stops at `onnx`).
    pub fn traced(
        model: &Model,
        options: &CompileOptions,
        trace: Trace<'p>,
    ) -> Result<Compilation<'p>> {
        let mut pipeline = Pipeline {
            options: options.clone(),
            trace,
            timings: Timings::default(),
            segment: None,
        };
        let source = (variants::applies(model, options.max_variants)
            || !options.specialize.is_empty())
        .then(|| model.clone());
        let mut model = model.clone();
        let optimizer = pipeline.front_end(&mut model)?;
        Ok(Compilation {
            pipeline,
            optimizer,
            source,
            model,
            form: Form::Unknown,
        })
    }

    /// The model after the front end.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// How long each stage took so far, and what the optimizer did.
    pub fn report(&self) -> CompileReport {
        CompileReport {
            timings: self.pipeline.timings.clone(),
            optimizer: self.optimizer.clone(),
        }
    }

    /// The host program the model runs as (`onnx-mlc --emit program`), its
    /// segments ready for the lowering; `None` when the model has no host
    /// step and compiles into one function.
    pub fn partition(&mut self) -> Result<Option<&Partition>> {
        self.partitioned()?;
        Ok(match &self.form {
            Form::Program(partition) => Some(partition),
            Form::Single | Form::Unknown => None,
        })
    }

    /// Partitions the model, once, and makes each segment ready for the
    /// lowering (see the module docs).
    fn partitioned(&mut self) -> Result<()> {
        if !matches!(self.form, Form::Unknown) {
            return Ok(());
        }
        let start = Instant::now();
        let partition = onnx_mlc_program::partition(&self.model)?;
        self.pipeline.timings.0.push(("partition", start.elapsed()));
        self.form = match partition {
            None => Form::Single,
            Some(mut partition) => {
                let top_level = top_level_segments(&partition.program);
                for (k, segment) in partition.segments.iter_mut().enumerate() {
                    self.pipeline
                        .prepare_segment(segment, !top_level.contains(&k))?;
                }
                Form::Program(partition)
            }
        };
        Ok(())
    }

    /// The one loop over the compiled units, JIT and AOT alike: gives
    /// `compile` each unit — the whole model, or each segment of the host
    /// program — with the pipeline set to name it. Returns the results,
    /// the pipeline (for its timings) and the optimizer's report.
    fn compile_units<T>(
        mut self,
        mut compile: impl FnMut(&mut Pipeline<'p>, &Model) -> Result<T>,
    ) -> Result<(Units<T>, Pipeline<'p>, OptReport)> {
        self.partitioned()?;
        let Compilation {
            mut pipeline,
            optimizer,
            model,
            form,
            ..
        } = self;
        let units = match form {
            Form::Single => Units::Single(compile(&mut pipeline, &model)?),
            Form::Program(partition) => {
                let mut done = Vec::with_capacity(partition.segments.len());
                for (k, segment) in partition.segments.iter().enumerate() {
                    pipeline.segment = Some(k);
                    done.push(compile(&mut pipeline, segment)?);
                }
                pipeline.segment = None;
                Units::Program(partition.program, done)
            }
            Form::Unknown => unreachable!("partitioned above"),
        };
        Ok((units, pipeline, optimizer))
    }

    /// Compiles for this machine and loads the code: a session per unit,
    /// all on one pool of `threads` threads; a model with dynamic input
    /// sizes also gets its size variants, compiled on first use
    /// (`crate::variants`).
    pub fn jit(mut self) -> Result<(CompiledModel, CompileReport)> {
        let rt = Arc::new(RtContext::new(self.pipeline.options.threads)?);
        let pool = Arc::new(WeightPool::default());
        let (options, rt2, pool2) = (self.pipeline.options.clone(), rt.clone(), pool.clone());
        let compile = move |model: &Model| {
            Compilation::new(model, &options)
                .and_then(|c| c.jit_on(&rt2, &pool2))
                .ok()
                .map(|(compiled, _)| compiled)
        };
        let max = self.pipeline.options.max_variants;
        let variants = self
            .source
            .take()
            .and_then(|source| Variants::new(source, max, Box::new(compile)))
            .map(Box::new);
        let (compiled, report) = self.jit_on(&rt, &pool)?;
        Ok((CompiledModel { compiled, variants }, report))
    }

    /// Compiles for this machine and loads the code on the thread pool
    /// `rt`, reading the weights `pool` holds in place.
    fn jit_on(self, rt: &Arc<RtContext>, pool: &WeightPool) -> Result<(Compiled, CompileReport)> {
        let (units, pipeline, optimizer) =
            self.compile_units(|pipeline, model| jit_session(pipeline, model, rt, pool))?;
        let compiled = match units {
            Units::Single(session) => Compiled::Single(session),
            Units::Program(program, sessions) => {
                let sessions = sessions
                    .into_iter()
                    .map(|s| Box::new(s) as Box<dyn Segment>)
                    .collect();
                Compiled::Program(HostProgram::new(program, sessions)?)
            }
        };
        let report = CompileReport {
            timings: pipeline.timings,
            optimizer,
        };
        Ok((compiled, report))
    }

    /// Compiles ahead of time into `output`: a shared library, or only the
    /// model's code as `kind` says, plus weights side files as `weights`
    /// says, with the size variants of [`CompileOptions::specialize`]. See
    /// [`crate::aot`] and `crate::specialize`.
    pub fn library(
        mut self,
        output: &Path,
        kind: AotOutput,
        weights: WeightsPolicy,
    ) -> Result<LibraryReport> {
        let llcx = LlvmContext::create();
        let target = self.pipeline.options.target.clone();
        let variants = self.size_variants()?;
        let shared = (!variants.is_empty()).then(|| aot::SharedWeights::new(weights, output));
        let start = Instant::now();
        let mut variant_units = Vec::with_capacity(variants.len());
        for (binding, variant) in variants {
            let shared = shared.as_ref().expect("variants share their weights");
            let (units, _, _) = variant
                .compile_units(|pipeline, model| pipeline.lower_shared(&llcx, model, shared))?;
            match units {
                Units::Single(unit) => variant_units.push(unit),
                Units::Program(..) => {
                    return Err(Error::Specialize {
                        binding: binding.to_string(),
                        message: "at these sizes the model still runs as a host program; \
                                  variants are for models compiled into one function"
                            .into(),
                    })
                }
            }
        }
        let variants_time = start.elapsed();
        let (units, pipeline, optimizer) = self.compile_units(|pipeline, model| match &shared {
            Some(shared) => {
                let (module, weights) = pipeline.lower_shared(&llcx, model, shared)?;
                Ok((module, weights, aot::PlacedWeights::none()))
            }
            None => {
                let layout = WeightsLayout::of_unit(model, weights, output, pipeline.segment);
                let (module, plan) = pipeline
                    .lower(&llcx, model, &|plan| layout.weights(plan))?
                    .expect("a compilation to code runs every stage");
                Ok((module, plan.weights.len(), layout.finish()))
            }
        })?;
        let mut timings = pipeline.timings;
        if !variant_units.is_empty() {
            timings.0.push(("variants", variants_time));
        }
        let parts = aot::LibraryParts {
            units,
            variants: variant_units,
            shared: shared.map(aot::SharedWeights::finish),
        };
        let written = aot::write(&llcx, parts, &target, output, kind, &mut timings)?;
        Ok(LibraryReport {
            output: output.to_path_buf(),
            output_bytes: written.output_bytes,
            weights_files: written.weights_files,
            weights_bytes: written.weights_bytes,
            num_weights: written.num_weights,
            optimizer,
            timings,
        })
    }

    /// The compilations of the size variants [`CompileOptions::specialize`]
    /// asks for, each with its binding; none when it asks for none. A
    /// model that runs as a host program gets none (an error when asked).
    fn size_variants(&mut self) -> Result<Vec<(SizeBinding, Compilation<'static>)>> {
        let bindings = self.pipeline.options.specialize.clone();
        let Some(first) = bindings.first() else {
            return Ok(vec![]);
        };
        self.partitioned()?;
        if matches!(self.form, Form::Program(_)) {
            return Err(Error::Specialize {
                binding: first.to_string(),
                message: "the model runs as a host program (sequences, optionals, strings, \
                          data-dependent shapes or run-time control flow); variants are for \
                          models compiled into one function"
                    .into(),
            });
        }
        let source = self.source.as_ref().expect("kept for the variants");
        let options = CompileOptions {
            specialize: vec![],
            max_variants: 0,
            ..self.pipeline.options.clone()
        };
        bindings
            .into_iter()
            .map(|binding| {
                let model = binding.bind(source)?;
                let variant =
                    Compilation::new(&model, &options).map_err(|e| Error::Specialize {
                        binding: binding.to_string(),
                        message: e.to_string(),
                    })?;
                Ok((binding, variant))
            })
            .collect()
    }

    /// Compiles into a shared library for this machine (the target must be
    /// the host) in a temporary folder, and loads it with sessions on
    /// `threads` threads: the AOT path in one call (`onnx-mlc run --aot`).
    /// The folder is removed once the library is loaded (and its weights
    /// mapped); the library has a name of its own, so that any number of
    /// models can be compiled and loaded into one process.
    pub fn aot(self) -> Result<(AotModel, LibraryReport)> {
        let threads = self.pipeline.options.threads;
        let dir = aot::tempdir()?;
        let name = dir.path.file_name().expect("a temporary directory's name");
        let output = dir.path.join(format!("lib{}.so", name.to_string_lossy()));
        let report = self.library(&output, AotOutput::Library, WeightsPolicy::default())?;
        let loaded = AotModel::load(&output, threads)?;
        Ok((loaded, report))
    }

    /// The plan of each compiled unit — the whole model, or each segment
    /// of its host program — with the model it plans: what is compiled
    /// (`onnx-mlc inspect`).
    pub fn plans(&mut self) -> Result<Vec<(&Model, Plan)>> {
        self.partitioned()?;
        let units: Vec<&Model> = match &self.form {
            Form::Program(partition) => partition.segments.iter().collect(),
            Form::Single | Form::Unknown => vec![&self.model],
        };
        units
            .into_iter()
            .map(|model| Ok((model, self.pipeline.plan(model)?)))
            .collect()
    }

    /// Runs the stages after `opt`, up to the trace's last, on each unit
    /// for the IR they show (`onnx-mlc --emit plan|linalg|affine|…`).
    pub fn emit(self) -> Result<CompileReport> {
        if self.pipeline.trace.last <= Stage::Opt {
            return Ok(self.report());
        }
        let llcx = LlvmContext::create();
        let (_, pipeline, optimizer) = self.compile_units(|pipeline, model| {
            pipeline.lower(&llcx, model, &|_| Ok(Weights::Runtime))?;
            Ok(())
        })?;
        Ok(CompileReport {
            timings: pipeline.timings,
            optimizer,
        })
    }

    /// The C header of the model's library (`--emit header`).
    pub fn header(&mut self) -> Result<String> {
        let program = self.partition()?.is_some();
        Ok(aot::header(&self.model, program))
    }
}

impl Pipeline<'_> {
    /// Lowers a unit of a library whose weights go to the blob it shares
    /// with its size variants: its LLVM module and number of weights.
    fn lower_shared<'c>(
        &mut self,
        llcx: &'c LlvmContext,
        model: &Model,
        shared: &aot::SharedWeights,
    ) -> Result<(inkwell::module::Module<'c>, usize)> {
        let (module, plan) = self
            .lower(llcx, model, &|plan| shared.weights(model, plan))?
            .expect("a compilation to code runs every stage");
        Ok((module, plan.weights.len()))
    }

    /// Makes a segment cut out of a model that went through the front end
    /// ready for the lowering: shape inference from its new border, and
    /// the optimizer when it comes from a control-flow body.
    fn prepare_segment(&mut self, segment: &mut Model, nested: bool) -> Result<()> {
        self.timings.time("infer", || infer_model(segment))?;
        if cfg!(debug_assertions) {
            if let Err(e) = onnx_mlc_dialect::verify::verify_model(segment) {
                panic!("a segment does not verify after inference: {e}");
            }
        }
        if nested {
            let optimizer = &self.options.optimizer;
            self.timings
                .time("opt", || optimize_prepared(segment, optimizer))?;
        }
        Ok(())
    }
}

/// The segments the program's main block calls: cut out of the main
/// graph, which the optimizer has seen.
fn top_level_segments(program: &Program) -> HashSet<usize> {
    program
        .body
        .steps
        .iter()
        .filter_map(|step| match step {
            Step::Segment { index, .. } => Some(*index),
            _ => None,
        })
        .collect()
}
