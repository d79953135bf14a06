//! `onnx-mlc`: the command-line driver.
//!
//! It parses arguments and calls the library crates; nothing here is needed
//! to use onnx-mlc as a library. Three kinds of use:
//!
//! * `onnx-mlc model.onnx --emit <stage>` shows what a stage of the
//!   pipeline makes of a model ([`onnx_mlc::pipeline`]); `--emit
//!   asm|obj|llvm|lib|header` (or `-o lib*.so`) compiles ahead of time, for
//!   this machine or `--target` ([`onnx_mlc::aot`]);
//! * `onnx-mlc run` runs a model (JIT, or `--aot` through a library) on
//!   tensor files and writes its outputs —
//!   the contract external harnesses (the conformance runner) drive: exit 0
//!   with `DIR/output_K.pb`, exit 3 with a first stderr line
//!   `UNSUPPORTED: …` when onnx-mlc cannot compile the model yet, any other
//!   failure non-zero with `ERROR: …`;
//! * `onnx-mlc bench` measures latency at 1 and N threads.

mod inputs;
mod npy;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use clap::{Parser, Subcommand, ValueEnum};
use onnx_mlc::pipeline::default_optimizer;
use onnx_mlc::{
    AotModel, AotOutput, Artifact, Compilation, CompileOptions, CompiledModel, Engine,
    ModelSignature, OptReport, PrintPoint, SizeBinding, Stage, StageIr, TargetSpec, Tensor,
    Timings, Trace, Value, Warning, WeightsPolicy, DEFAULT_MAX_VARIANTS,
};
use onnx_mlc_dialect::passes;
use onnx_mlc_dialect::print::PrintOptions;
use onnx_mlc_dialect::summary::Summary;
use onnx_mlc_dialect::Model;
use onnx_mlc_import::{save_model, ExportOptions, ExternalData};
use onnx_mlc_optimizer::{Limits, OptimizeOptions};
use onnx_mlc_plan::Plan;

use inputs::Unsupported;

const EXAMPLES: &str = "\
Examples:
  onnx-mlc model.onnx --emit onnx                    print the verified, shape-inferred onnx dialect
  onnx-mlc model.onnx --emit opt --opt-report        the dialect after the e-graph optimizer, and what it did
  onnx-mlc model.onnx --emit dot -o graphs.dot       the graph before and after the optimizer (Graphviz)
  onnx-mlc model.onnx --emit affine --timings        the loops of the kernels; the time of each stage
  onnx-mlc model.onnx --emit onnx --print-ir-after=infer-shapes
  onnx-mlc model.onnx --emit onnx-proto -o out.onnx  write the dialect back as an ONNX model
  onnx-mlc model.onnx --emit program                 the host program: compiled segments, host steps
  onnx-mlc model.onnx -o libmodel.so                 compile to a shared library for this machine
  onnx-mlc model.onnx --target aarch64 -o libmodel.so --emit header
                                                     ... for AArch64 Linux, plus its C header libmodel.h
  onnx-mlc model.onnx --emit asm --target x86_64 --cpu skylake-avx512
  onnx-mlc inspect model.onnx                        summary: opsets, inputs/outputs, op histogram, weights, plan
  onnx-mlc run model.onnx --out out/ input_0.pb      run (JIT); writes out/output_0.pb, …
  onnx-mlc run model.onnx --aot --out out/ x.npy     the same through a shared library
  onnx-mlc bench model.onnx --threads 2              latency at 1 and 2 threads, seeded random inputs
  onnx-mlc --list-passes                             the passes and stages --print-ir-after accepts

Exit codes: 0 success; 1 the model was rejected (one line on stderr naming the node), or another
failure; 2 usage error; 3 the model is valid but uses something onnx-mlc cannot compile yet (first
stderr line `UNSUPPORTED: …`). `run` and `bench` start other failures with `ERROR: `.";

/// onnx-mlc compiles ONNX models to native code.
#[derive(Parser, Debug)]
#[command(name = "onnx-mlc", version, about, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    compile: CompileArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Summarize a model: IR version, opsets, inputs and outputs with their types, op histogram,
    /// parameter count and bytes, metadata; then the execution plan that is compiled, after the
    /// optimizer (kernels, fused ops, peak workspace against the sum of the intermediates) and
    /// its kernels by root op — one plan per compiled segment of a host program.
    Inspect {
        /// The model (.onnx).
        model: PathBuf,
        #[command(flatten)]
        opt: OptArgs,
        #[command(flatten)]
        import: ImportArgs,
    },
    /// Compile a model and run it on tensor files (.pb TensorProto or .npy), one per graph
    /// input in order; write each graph output K to DIR/output_K.pb (or .npy).
    Run(RunArgs),
    /// Compile a model and print its latency (median, min, p90 over --runs runs after --warmup
    /// runs) at 1 thread and at --threads threads, on seeded random inputs or the files given.
    Bench(BenchArgs),
}

#[derive(clap::Args, Debug)]
struct ImportArgs {
    /// Refuse a model the importer warns about; names that break the ONNX IR spec's C90
    /// identifier rule count too.
    #[arg(long)]
    strict: bool,
}

/// The size variants of an ahead-of-time library, shared by the commands that compile.
#[derive(clap::Args, Debug)]
struct SpecializeArgs {
    /// Also compile the model for these sizes of its symbolic input dims (libraries only;
    /// repeatable): `batch=1,8` gives variants for batch 1 and 8, `batch=1,sequence=128,384`
    /// one per combination. A dim is named by its `dim_param`, or `<input>.<axis>` when the
    /// model left it unnamed. A run whose inputs have a variant's sizes runs its code, any
    /// other the general code.
    #[arg(long, value_name = "DIM=SIZE,…")]
    specialize: Vec<String>,
}

impl SpecializeArgs {
    /// Refuses the flag where no library is compiled: the JIT makes its
    /// size variants on demand.
    fn only_with_aot(&self, aot: bool) -> anyhow::Result<()> {
        if !aot && !self.specialize.is_empty() {
            bail!(
                "--specialize applies to libraries (--aot); the JIT compiles a variant for the \
                 sizes of a run on demand (--max-variants)"
            );
        }
        Ok(())
    }

    /// The bindings these flags ask for, in order.
    fn bindings(&self) -> anyhow::Result<Vec<SizeBinding>> {
        let mut bindings = vec![];
        for spec in &self.specialize {
            bindings.extend(SizeBinding::parse(spec)?);
        }
        Ok(bindings)
    }
}

/// The optimizer's controls and the compile-time reports, shared by the commands that compile.
#[derive(clap::Args, Debug)]
struct OptArgs {
    /// Turn the e-graph optimizer (stage `opt`) off.
    #[arg(long)]
    no_egraph: bool,
    /// The optimizer's rule sets, comma-separated (algebraic, canonical, fusion, attention, multi,
    /// layout, pointwise, quant; `all`, `none`). Default: the sets that pay on measured latency,
    /// algebraic,canonical,fusion,layout,attention,pointwise,quant.
    #[arg(long, value_name = "SET,…")]
    rules: Option<String>,
    /// Saturation limits, e.g. `iterations=8,nodes=50000,time=500ms`.
    #[arg(long, value_name = "LIMITS")]
    egraph_limits: Option<String>,
    /// Print what the optimizer did (rules fired, e-graph size, cost before/after) to stderr.
    #[arg(long)]
    opt_report: bool,
    /// Print how long each compile stage took to stderr.
    #[arg(long)]
    timings: bool,
}

impl OptArgs {
    /// The optimizer options these flags ask for.
    fn optimizer(&self) -> anyhow::Result<OptimizeOptions> {
        let mut options = default_optimizer();
        options.enabled = !self.no_egraph;
        if let Some(rules) = &self.rules {
            options.rule_sets = OptimizeOptions::parse_rule_sets(rules)?;
        }
        if let Some(limits) = &self.egraph_limits {
            options.limits = Limits::parse(limits)?;
        }
        Ok(options)
    }

    /// Prints the reports asked for.
    fn report(&self, optimizer: &OptReport, timings: &Timings) {
        if self.opt_report {
            eprintln!("{}", optimizer.to_string().trim_end());
        }
        if self.timings {
            eprintln!("{}", timings.to_string().trim_end());
        }
    }
}

/// The options of a compilation these flags ask for.
fn compile_options(
    threads: usize,
    target: TargetSpec,
    opt: &OptArgs,
    import: &ImportArgs,
    specialize: &SpecializeArgs,
) -> anyhow::Result<CompileOptions> {
    Ok(CompileOptions {
        threads,
        target,
        optimizer: opt.optimizer()?,
        strict: import.strict,
        max_variants: DEFAULT_MAX_VARIANTS,
        specialize: specialize.bindings()?,
    })
}

/// What `onnx-mlc <model>` produces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Emit {
    /// The onnx dialect after import, verification, shape inference and shape folding.
    Onnx,
    /// The same model as an ONNX model (binary protobuf; needs -o).
    OnnxProto,
    /// The onnx dialect after the e-graph optimizer.
    Opt,
    /// The graph before and after the optimizer, as two Graphviz digraphs.
    Dot,
    /// The host program: compiled segments, host steps and control flow (for models with
    /// sequences, optionals, strings or run-time control flow).
    Program,
    /// The execution plan: kernels, fusion, memory.
    Plan,
    /// The MLIR module of linalg/tensor/arith kernels.
    Linalg,
    /// The MLIR module after the schedules: loops and vectors.
    Affine,
    /// The MLIR LLVM dialect.
    LlvmMlir,
    /// LLVM IR of the compiled model with the ABI glue, after O3 (for --target).
    Llvm,
    /// Assembly of the compiled model (without the runtime).
    Asm,
    /// An object file of the compiled model (without the runtime; needs -o).
    Obj,
    /// A shared library: the model and the C runtime (needs -o; the default for `-o *.so`).
    Lib,
    /// The library's C header; with `-o lib*.so`, builds the library and writes the header
    /// beside it (`lib*.h`).
    Header,
}

impl Emit {
    /// The last stage the pipeline must run.
    fn stage(self) -> Stage {
        match self {
            Emit::Onnx | Emit::OnnxProto => Stage::Onnx,
            Emit::Opt | Emit::Dot | Emit::Program => Stage::Opt,
            Emit::Plan => Stage::Plan,
            Emit::Linalg => Stage::Linalg,
            Emit::Affine => Stage::Affine,
            Emit::LlvmMlir => Stage::LlvmMlir,
            Emit::Llvm | Emit::Asm | Emit::Obj | Emit::Lib | Emit::Header => Stage::Llvm,
        }
    }

    /// Whether this is native code (or its header), made by the AOT path.
    fn is_native(self) -> bool {
        matches!(
            self,
            Emit::Llvm | Emit::Asm | Emit::Obj | Emit::Lib | Emit::Header
        )
    }
}

/// The output `-o` implies when `--emit` is not given: a library for `*.so`.
fn default_emit(output: Option<&Path>) -> Emit {
    if output.is_some_and(|o| o.extension().is_some_and(|e| e == "so")) {
        Emit::Lib
    } else {
        Emit::Onnx
    }
}

#[derive(clap::Args, Debug)]
struct CompileArgs {
    /// The model (.onnx) to compile.
    model: Option<PathBuf>,
    /// What to produce [default: lib when -o ends in .so, else onnx].
    #[arg(long, value_enum)]
    emit: Option<Emit>,
    /// Write the output here instead of standard output.
    #[arg(short, long, required_if_eq_any([("emit", "onnx-proto"), ("emit", "obj"), ("emit", "lib")]))]
    output: Option<PathBuf>,
    #[command(flatten)]
    target: TargetArgs,
    /// With --emit onnx-proto: write initializers of 1 KiB or more to `<output>.data` beside the
    /// output (ONNX external data; needed for models over 2 GiB).
    #[arg(long)]
    external_data: bool,
    /// Print the IR after this dialect pass or stage (repeatable; `all` for every point before
    /// the one emitted) to standard error.
    #[arg(long, value_name = "PASS|STAGE")]
    print_ir_after: Vec<String>,
    /// Print constants with more elements than this as `dense_resource<__elided__>`.
    #[arg(long, value_name = "N", default_value_t = 16)]
    elide_constants: usize,
    /// Print every constant in full (the output then parses back to the same model).
    #[arg(long)]
    no_elide: bool,
    /// List the passes and stages and exit.
    #[arg(long)]
    list_passes: bool,
    /// Threads the compiled code runs on.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    opt: OptArgs,
    #[command(flatten)]
    import: ImportArgs,
    #[command(flatten)]
    variants: SpecializeArgs,
}

/// What native code is generated for (the stages from linalg on, asm, obj, llvm, lib).
#[derive(clap::Args, Debug)]
struct TargetArgs {
    /// The target: `x86_64`, `aarch64` or a full triple (default: this machine).
    #[arg(long)]
    target: Option<String>,
    /// The CPU to tune and select instructions for (default: the host's, or a generic one of
    /// the target).
    #[arg(long)]
    cpu: Option<String>,
    /// LLVM target features, e.g. `+avx2,+fma` (default: the host's when compiling for it).
    #[arg(long)]
    features: Option<String>,
    /// Put the weights in a side file next to the output (`<stem>.weights`) instead of
    /// embedding them; models over 256 MiB of weights get one anyway.
    #[arg(long)]
    weights_file: bool,
}

impl TargetArgs {
    /// The target these flags name.
    fn spec(&self) -> anyhow::Result<TargetSpec> {
        Ok(TargetSpec::parse(
            self.target.as_deref(),
            self.cpu.as_deref(),
            self.features.as_deref(),
        )?)
    }
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// The model (.onnx).
    model: PathBuf,
    /// One tensor file per graph input, in the graph's order: a serialized TensorProto (.pb) or
    /// a NumPy array (.npy).
    inputs: Vec<PathBuf>,
    /// The folder to write the outputs to (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Write the outputs as .npy files instead of TensorProto .pb files.
    #[arg(long)]
    npy: bool,
    /// Go through a shared library compiled ahead of time (for this machine, in a temporary
    /// folder) instead of the JIT.
    #[arg(long)]
    aot: bool,
    /// Threads the compiled code runs on.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    opt: OptArgs,
    #[command(flatten)]
    import: ImportArgs,
    #[command(flatten)]
    variants: SpecializeArgs,
}

#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// The model (.onnx).
    model: PathBuf,
    /// Input files (.pb or .npy), one per graph input; default: seeded random tensors.
    inputs: Vec<PathBuf>,
    /// Timed runs per thread count.
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Untimed runs before the timed ones.
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// The thread count measured besides 1 (default: the machine's cores).
    #[arg(long)]
    threads: Option<usize>,
    /// The seed of the random inputs.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Measure a shared library compiled ahead of time instead of the JIT's code.
    #[arg(long)]
    aot: bool,
    /// Size variants the JIT keeps for a model with dynamic input sizes: code for the sizes of a
    /// run, compiled in the background from their first run (and waited for before the timed
    /// runs, its compile counted in `compile_s`). 0: the general code only.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_VARIANTS)]
    max_variants: usize,
    #[command(flatten)]
    opt: OptArgs,
    #[command(flatten)]
    import: ImportArgs,
    #[command(flatten)]
    variants: SpecializeArgs,
}

/// How a command reports failures: the compiler's `error: …`, or the
/// harness contract's `ERROR: …` (`run`, `bench`).
#[derive(Copy, Clone, PartialEq)]
enum Style {
    Compiler,
    Harness,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let style = match cli.command {
        Some(Command::Run(_) | Command::Bench(_)) => Style::Harness,
        _ => Style::Compiler,
    };
    let mut warnings = vec![];
    let code = match run(cli, &mut warnings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => report_error(&e, style),
    };
    // After the outcome: harnesses read the first line of standard error.
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    code
}

/// Prints a failure as its command's style asks and picks the exit code.
fn report_error(e: &anyhow::Error, style: Style) -> ExitCode {
    // Reading stops early (`onnx-mlc … | head`): not an error.
    if e.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    {
        return ExitCode::SUCCESS;
    }
    // The library errors carry their causes in their messages; context
    // added here comes first.
    let message = format!("{e:#}");
    if is_unsupported(e) {
        eprintln!("UNSUPPORTED: {message}");
        return ExitCode::from(3);
    }
    let verify = matches!(
        e.downcast_ref::<onnx_mlc::Error>(),
        Some(onnx_mlc::Error::Dialect(onnx_mlc_dialect::Error::Verify(_)))
    ) || matches!(e.downcast_ref(), Some(onnx_mlc_dialect::Error::Verify(_)));
    match style {
        Style::Harness => eprintln!("ERROR: {message}"),
        // Verifier errors carry their own `error[rule]:` header.
        Style::Compiler if verify => eprintln!("{message}"),
        Style::Compiler => eprintln!("error: {message}"),
    }
    ExitCode::from(1)
}

/// Whether the failure means "valid, but not compiled yet" (exit 3).
fn is_unsupported(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause.is::<Unsupported>()
            || cause
                .downcast_ref::<onnx_mlc::Error>()
                .is_some_and(onnx_mlc::Error::is_unsupported)
    })
}

fn run(cli: Cli, warnings: &mut Vec<Warning>) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Inspect { model, opt, import }) => {
            let none = SpecializeArgs { specialize: vec![] };
            let options = compile_options(1, TargetSpec::host(), &opt, &import, &none)?;
            let model = load(&model, &options, warnings)?;
            inspect(&model, &options)
        }
        Some(Command::Run(args)) => run_model(&args, warnings),
        Some(Command::Bench(args)) => bench(&args, warnings),
        None => compile(cli.compile, warnings),
    }
}

/// Imports a model for a compilation with `options`, keeping the importer's
/// warnings for the end of the command (a strict import fails on them).
fn load(
    path: &Path,
    options: &CompileOptions,
    warnings: &mut Vec<Warning>,
) -> anyhow::Result<Model> {
    let imported = Engine::import(path, options)?;
    warnings.extend(imported.warnings);
    Ok(imported.model)
}

/// `inspect`: the summary of the model as the dialect pipeline leaves it,
/// then the plan of each compiled unit as the compilation makes it.
fn inspect(model: &Model, options: &CompileOptions) -> anyhow::Result<()> {
    let mut summary = None;
    let trace = Trace {
        points: vec![PrintPoint::Stage(Stage::Onnx)],
        print: Box::new(|_, ir| {
            if let StageIr::Dialect(m) = ir {
                summary = Some(Summary::of(m));
            }
        }),
        last: Stage::Plan,
    };
    let mut compilation = Compilation::traced(model, options, trace)?;
    // A model the plan cannot handle (yet) still gets its summary.
    let plans = match compilation.partition().map(|p| p.is_some()) {
        Ok(program) => match compilation.plans() {
            Ok(plans) => plans
                .iter()
                .enumerate()
                .map(|(k, (m, plan))| {
                    let unit = if program {
                        format!("segment {k}: ")
                    } else {
                        String::new()
                    };
                    format!(
                        "plan:       {unit}{plan}\nkernels:    {unit}{}\n",
                        kernel_histogram(m, plan)
                    )
                })
                .collect(),
            Err(e) => format!("plan:       not available: {e}\n"),
        },
        Err(e) => format!("plan:       not available: {e}\n"),
    };
    drop(compilation);
    let summary = summary.expect("the trace shows the onnx stage");
    std::io::stdout().write_all(format!("{summary}{plans}").as_bytes())?;
    Ok(())
}

/// The kernels of a plan by the op at their root (`elementwise` for a
/// loop nest of elementwise ops), most frequent first:
/// `4 FusedConv, 2 MaxPool, 1 Gemm`.
fn kernel_histogram(model: &Model, plan: &Plan) -> String {
    let mut counts: Vec<(&str, usize)> = vec![];
    for kernel in &plan.kernels {
        let name = kernel
            .root
            .map_or("elementwise", |root| model.ir.op(root).kind.name());
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => counts.push((name, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let parts: Vec<String> = counts.iter().map(|(n, c)| format!("{c} {n}")).collect();
    parts.join(", ")
}

/// The print points `--print-ir-after` names, for a run that emits `emit`.
fn print_points(names: &[String], emit: Stage) -> anyhow::Result<Vec<PrintPoint>> {
    let mut points = vec![];
    for name in names {
        if name == "all" {
            points.extend(PrintPoint::all().into_iter().filter(|p| match p {
                PrintPoint::Pass(_) => true,
                PrintPoint::Stage(s) => *s < emit,
            }));
            continue;
        }
        let point = PrintPoint::from_name(name).ok_or_else(|| {
            anyhow!("unknown pass '{name}' for --print-ir-after (see --list-passes)")
        })?;
        if point.stage() > emit {
            bail!(
                "--print-ir-after={name}: stage {} comes after the one emitted ({})",
                point.stage().name(),
                emit.name()
            );
        }
        points.push(point);
    }
    Ok(points)
}

fn compile(args: CompileArgs, warnings: &mut Vec<Warning>) -> anyhow::Result<()> {
    if args.list_passes {
        for p in passes::PASSES {
            println!("{:<14} {}", p.name, p.summary);
        }
        println!("\nstages: {}", Stage::ALL.map(Stage::name).join(", "));
        return Ok(());
    }
    let Some(path) = &args.model else {
        bail!("no model given (see `onnx-mlc --help`)");
    };
    let emit_kind = args
        .emit
        .unwrap_or_else(|| default_emit(args.output.as_deref()));
    let options = compile_options(
        args.threads,
        args.target.spec()?,
        &args.opt,
        &args.import,
        &args.variants,
    )?;
    if !options.specialize.is_empty()
        && !matches!(emit_kind, Emit::Lib | Emit::Obj | Emit::Asm | Emit::Llvm)
    {
        bail!("--specialize applies to compiled code (--emit lib|obj|asm|llvm)");
    }
    if emit_kind.is_native() {
        if !args.print_ir_after.is_empty() {
            bail!("--print-ir-after applies to --emit onnx|opt|dot|plan|linalg|affine|llvm-mlir");
        }
        let model = load(path, &options, warnings)?;
        return compile_native(&model, &options, emit_kind, &args);
    }
    let emit = emit_kind.stage();
    let mut points = print_points(&args.print_ir_after, emit)?;
    let print = PrintOptions {
        elide_constants_above: (!args.no_elide).then_some(args.elide_constants),
        ..PrintOptions::default()
    };
    if args.external_data && emit_kind != Emit::OnnxProto {
        bail!("--external-data applies to --emit onnx-proto only");
    }
    let model = load(path, &options, warnings)?;
    if emit_kind == Emit::Program {
        let text = match Compilation::new(&model, &options)?.partition()? {
            Some(partition) => partition.to_string(),
            None => "// no host steps: the model compiles into one function\n".to_string(),
        };
        return write_output(args.output.as_deref(), text.as_bytes());
    }
    // What is emitted comes through the same callback as the dumps.
    let wanted = match emit_kind {
        Emit::Dot => vec![
            PrintPoint::Stage(Stage::Onnx),
            PrintPoint::Stage(Stage::Opt),
        ],
        _ => vec![PrintPoint::Stage(emit)],
    };
    points.extend(&wanted);
    let mut emitted = String::new();
    let mut proto = None;
    let print_ir = |point: PrintPoint, ir: StageIr| {
        let is_wanted = wanted.contains(&point);
        let text = match (&ir, emit_kind) {
            (StageIr::Dialect(m), Emit::Dot) if is_wanted => onnx_mlc_optimizer::to_dot(m),
            (StageIr::Dialect(m), Emit::OnnxProto) if is_wanted => {
                proto = Some((*m).clone());
                return;
            }
            (StageIr::Dialect(m), _) => onnx_mlc_dialect::print::print_model(m, &print),
            (StageIr::Text(t), _) => t.clone(),
        };
        if is_wanted {
            emitted += &text;
            if !emitted.ends_with('\n') {
                emitted.push('\n');
            }
        }
        // The emitted stage is dumped too only when asked by name.
        if !is_wanted || args.print_ir_after.iter().any(|n| n == point.name()) {
            eprintln!("// -----// IR after {} //----- //", point.name());
            eprint!("{text}");
            if !text.ends_with('\n') {
                eprintln!();
            }
        }
    };
    let trace = Trace {
        points,
        print: Box::new(print_ir),
        last: emit,
    };
    let report = Compilation::traced(&model, &options, trace)?.emit()?;
    args.opt.report(&report.optimizer, &report.timings);
    if let Some(model) = proto {
        let out = args
            .output
            .as_ref()
            .expect("clap requires -o for --emit onnx-proto");
        let options = ExportOptions {
            external_data: args.external_data.then(|| ExternalData::beside(out)),
            ..ExportOptions::default()
        };
        save_model(&model, out, &options)?;
        return Ok(());
    }
    write_output(args.output.as_deref(), emitted.as_bytes())
}

/// `--emit asm|obj|llvm|lib|header`: native code through the whole pipeline, or the header.
fn compile_native(
    model: &Model,
    options: &CompileOptions,
    emit: Emit,
    args: &CompileArgs,
) -> anyhow::Result<()> {
    let is_library = |o: &Path| o.extension().is_some_and(|e| e == "so");
    if emit == Emit::Header && !args.output.as_deref().is_some_and(is_library) {
        // The header needs the model's inputs and outputs, not its code.
        let front_end = Trace {
            last: Stage::Onnx,
            ..Trace::none()
        };
        let header = Compilation::traced(model, options, front_end)?.header()?;
        return write_output(args.output.as_deref(), header.as_bytes());
    }
    let kind = match emit {
        Emit::Asm => AotOutput::Code(Artifact::Assembly),
        Emit::Obj => AotOutput::Code(Artifact::Object),
        Emit::Llvm => AotOutput::Code(Artifact::LlvmIr),
        _ => AotOutput::Library,
    };
    // Text goes to standard output when there is no -o: through a temporary file.
    let temp = std::env::temp_dir().join(format!("onnx-mlc-{}.out", std::process::id()));
    let output = args.output.clone().unwrap_or_else(|| temp.clone());
    let weights = if args.target.weights_file {
        WeightsPolicy::File
    } else {
        WeightsPolicy::default()
    };
    let mut compilation = Compilation::new(model, options)?;
    let header = match emit {
        Emit::Header => Some(compilation.header()?),
        _ => None,
    };
    let report = compilation.library(&output, kind, weights)?;
    args.opt.report(&report.optimizer, &report.timings);
    if args.output.is_none() {
        // Text only: a side file of weights has no use without the code's file.
        let text = std::fs::read(&temp);
        let _ = std::fs::remove_file(&temp);
        for w in &report.weights_files {
            let _ = std::fs::remove_file(w);
        }
        std::io::stdout().write_all(&text?)?;
    } else if !report.weights_files.is_empty() {
        let files: Vec<String> = report
            .weights_files
            .iter()
            .map(|w| w.display().to_string())
            .collect();
        eprintln!(
            "weights: {} ({} bytes)",
            files.join(", "),
            report.weights_bytes
        );
    }
    if let Some(header) = header {
        write_output(Some(&output.with_extension("h")), header.as_bytes())?;
    }
    Ok(())
}

/// Writes `bytes` to `output`, or to standard output.
fn write_output(output: Option<&Path>, bytes: &[u8]) -> anyhow::Result<()> {
    match output {
        Some(out) => {
            std::fs::write(out, bytes).map_err(|e| anyhow!("cannot write {}: {e}", out.display()))
        }
        None => Ok(std::io::stdout().write_all(bytes)?),
    }
}

/// A compiled model ready to run: in memory (JIT) or a loaded library (AOT).
enum Runnable {
    Jit(CompiledModel),
    Aot(AotModel),
}

impl Runnable {
    fn run(&self, inputs: &[Tensor]) -> onnx_mlc::Result<Vec<Tensor>> {
        match self {
            Runnable::Jit(m) => m.run(inputs),
            Runnable::Aot(m) => m.run(inputs),
        }
    }

    fn run_values(&self, inputs: Vec<Value>) -> onnx_mlc::Result<Vec<Value>> {
        match self {
            Runnable::Jit(m) => m.run_values(inputs),
            Runnable::Aot(m) => m.run_values(inputs),
        }
    }

    fn output_names(&self) -> Vec<&str> {
        match self {
            Runnable::Jit(m) => m.output_names(),
            Runnable::Aot(m) => m.output_names(),
        }
    }

    /// The model's tensor inputs and outputs; `None` for a host program.
    fn signature(&self) -> Option<&ModelSignature> {
        match self {
            Runnable::Jit(m) => m.signature(),
            Runnable::Aot(m) => m.signature(),
        }
    }
}

/// Compiles for this machine with `options` — through the JIT, or through
/// a shared library with `aot` — printing the reports `opt` asks for; also
/// returns how long compiling (and loading) took.
fn compile_for_run(
    model: &Model,
    options: &CompileOptions,
    aot: bool,
    opt: &OptArgs,
) -> anyhow::Result<(Runnable, Duration)> {
    let start = Instant::now();
    let compilation = Compilation::new(model, options)?;
    let compiled = if aot {
        let (compiled, report) = compilation.aot()?;
        opt.report(&report.optimizer, &report.timings);
        Runnable::Aot(compiled)
    } else {
        let (compiled, report) = compilation.jit()?;
        opt.report(&report.optimizer, &report.timings);
        Runnable::Jit(compiled)
    };
    Ok((compiled, start.elapsed()))
}

fn run_model(args: &RunArgs, warnings: &mut Vec<Warning>) -> anyhow::Result<()> {
    args.variants.only_with_aot(args.aot)?;
    // One run: the general code (a size variant pays over many runs).
    let options = CompileOptions {
        max_variants: 0,
        ..compile_options(
            args.threads,
            TargetSpec::host(),
            &args.opt,
            &args.import,
            &args.variants,
        )?
    };
    let model = load(&args.model, &options, warnings)?;
    let (compiled, _) = compile_for_run(&model, &options, args.aot, &args.opt)?;
    let inputs = inputs::read_values(&model, &args.inputs)?;
    let outputs = compiled.run_values(inputs)?;
    let names = compiled.output_names();
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    for (k, (v, name)) in outputs.iter().zip(&names).enumerate() {
        let (file, bytes) = match v {
            Value::Tensor(t) if args.npy => (format!("output_{k}.npy"), npy::encode(t)?),
            _ if args.npy => bail!(
                "output {k} is a {}: only tensors are written as .npy",
                v.kind()
            ),
            _ => {
                let value = inputs::to_test_value(v)?;
                (
                    format!("output_{k}.pb"),
                    onnx_mlc_import::encode_value(&value, name)?,
                )
            }
        };
        let path = args.out.join(file);
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Latency statistics of one thread count.
struct Latency {
    median: Duration,
    min: Duration,
    p90: Duration,
}

impl Latency {
    /// Runs `compiled` `warmup` times, then measures `runs` (at least one)
    /// runs.
    fn measure(
        compiled: &Runnable,
        inputs: &[Tensor],
        warmup: usize,
        runs: usize,
    ) -> anyhow::Result<Latency> {
        for _ in 0..warmup {
            compiled.run(inputs)?;
        }
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let start = Instant::now();
            let outputs = compiled.run(inputs)?;
            times.push(start.elapsed());
            drop(outputs);
        }
        times.sort();
        // Nearest rank: the smallest time that a fraction `q` of the runs
        // do not exceed.
        let at = |q: f64| times[((q * runs as f64).ceil() as usize).clamp(1, runs) - 1];
        Ok(Latency {
            median: at(0.5),
            min: times[0],
            p90: at(0.9),
        })
    }
}

/// How long a JIT model with dynamic input sizes took to compile the
/// size variant of `inputs` (from its first run, which starts it, until it
/// is ready), else zero: part of the compile time `bench` reports, and
/// over before the runs it times.
fn variant_compile(compiled: &Runnable, inputs: &[Tensor]) -> anyhow::Result<Duration> {
    let Runnable::Jit(model) = compiled else {
        return Ok(Duration::ZERO);
    };
    let start = Instant::now();
    model.run(inputs)?;
    model.wait_for_variants();
    Ok(if model.variant_sizes().is_empty() {
        Duration::ZERO
    } else {
        start.elapsed()
    })
}

/// A duration in milliseconds, as `bench` prints it.
fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

fn bench(args: &BenchArgs, warnings: &mut Vec<Warning>) -> anyhow::Result<()> {
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    args.variants.only_with_aot(args.aot)?;
    let mut options = compile_options(
        1,
        TargetSpec::host(),
        &args.opt,
        &args.import,
        &args.variants,
    )?;
    options.max_variants = args.max_variants;
    let model = load(&args.model, &options, warnings)?;
    let many = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut counts = vec![1];
    if many > 1 {
        counts.push(many);
    }
    let mut inputs = None;
    let mut rows = vec![];
    for threads in counts {
        let options = CompileOptions {
            threads,
            ..options.clone()
        };
        let (compiled, took) = compile_for_run(&model, &options, args.aot, &args.opt)?;
        let inputs = match &mut inputs {
            Some(inputs) => inputs,
            None => inputs.insert(if args.inputs.is_empty() {
                let Some(signature) = compiled.signature() else {
                    bail!("a model that runs as a host program needs input files");
                };
                inputs::random(&signature.inputs, args.seed)?
            } else {
                inputs::read_all(&model, &args.inputs)?
            }),
        };
        let took = took + variant_compile(&compiled, inputs)?;
        let l = Latency::measure(&compiled, inputs, args.warmup, args.runs)?;
        rows.push(format!(
            "{threads:>7}  {:>10}  {:>10}  {:>10}  {:>5}  {:>9.2}",
            ms(l.median),
            ms(l.min),
            ms(l.p90),
            args.runs,
            took.as_secs_f64()
        ));
    }
    // Printed at the end: a failure leaves no half table.
    let mut out = format!(
        "model: {}\n{:>7}  {:>10}  {:>10}  {:>10}  {:>5}  {:>9}\n",
        args.model.display(),
        "threads",
        "median_ms",
        "min_ms",
        "p90_ms",
        "runs",
        "compile_s"
    );
    for row in rows {
        out += &row;
        out.push('\n');
    }
    std::io::stdout().write_all(out.as_bytes())?;
    Ok(())
}
