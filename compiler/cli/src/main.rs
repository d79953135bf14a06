//! `onnx-mlc`: the command-line driver.
//!
//! It parses arguments and calls the library crates; nothing here is needed
//! to use onnx-mlc as a library.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use onnx_mlc_dialect::passes::{self, Pass};
use onnx_mlc_dialect::print::PrintOptions;
use onnx_mlc_dialect::summary::Summary;
use onnx_mlc_dialect::Model;
use onnx_mlc_import::{load_model, save_model, ExportOptions, ExternalData, ImportOptions};
use onnx_mlc_plan::PlanOptions;

const EXAMPLES: &str = "\
Examples:
  onnx-mlc model.onnx --emit onnx                    print the verified, shape-inferred onnx dialect
  onnx-mlc model.onnx --emit onnx --print-ir-after=infer-shapes
  onnx-mlc model.onnx --emit onnx -o model.mlir      write it to a file
  onnx-mlc model.onnx --emit onnx-proto -o out.onnx  write it back as an ONNX model
  onnx-mlc model.onnx -o libmodel.so                 compile to a shared library for this machine
  onnx-mlc model.onnx --target aarch64 -o libmodel.so --emit header
                                                     ... for AArch64 Linux, plus its C header libmodel.h
  onnx-mlc model.onnx --emit asm --target x86_64 --cpu skylake-avx512
  onnx-mlc inspect model.onnx                        summary: opsets, inputs/outputs, op histogram, weights, plan
  onnx-mlc --list-passes                             the passes --print-ir-after accepts

Exit codes: 0 success, 1 the model was rejected (one line on stderr naming the node), 2 usage error,
3 the model uses something onnx-mlc cannot compile yet (stderr starts with `UNSUPPORTED: `).";

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
    /// parameter count and bytes, metadata, and the execution plan (kernels, fused ops, peak
    /// workspace against the sum of the intermediates).
    Inspect {
        /// The model (.onnx).
        model: PathBuf,
        #[command(flatten)]
        import: ImportArgs,
    },
}

#[derive(clap::Args, Debug)]
struct ImportArgs {
    /// Warn about names that break the ONNX IR spec's C90 identifier rule.
    #[arg(long)]
    strict: bool,
}

/// What `onnx-mlc <model>` produces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Emit {
    /// The onnx dialect after import, verification, shape inference and shape folding.
    Onnx,
    /// The same model as an ONNX model (binary protobuf; needs -o).
    OnnxProto,
    /// Assembly of the compiled model (without the runtime).
    Asm,
    /// An object file of the compiled model (without the runtime; needs -o).
    Obj,
    /// LLVM IR of the compiled model, after O3.
    Llvm,
    /// A shared library: the model and the C runtime (needs -o; the default for `-o *.so`).
    Lib,
    /// The library's C header; with `-o lib*.so`, builds the library and writes the header
    /// beside it (`lib*.h`).
    Header,
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
    /// Print the IR after this pass (repeatable; `all` for every pass) to standard error.
    #[arg(long, value_name = "PASS")]
    print_ir_after: Vec<String>,
    /// Print constants with more elements than this as `dense_resource<__elided__>`.
    #[arg(long, value_name = "N", default_value_t = 16)]
    elide_constants: usize,
    /// Print every constant in full (the output then parses back to the same model).
    #[arg(long)]
    no_elide: bool,
    /// List the passes and exit.
    #[arg(long)]
    list_passes: bool,
    #[command(flatten)]
    import: ImportArgs,
}

/// What native code is generated for (asm, obj, llvm, lib).
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // Reading stops early (`onnx-mlc … | head`): not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        // Verifier errors carry their own `error[rule]:` header.
        Err(e) if matches!(e.downcast_ref(), Some(onnx_mlc_dialect::Error::Verify(_))) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
        Err(e)
            if e.downcast_ref::<onnx_mlc::Error>()
                .is_some_and(onnx_mlc::Error::is_unsupported) =>
        {
            eprintln!("UNSUPPORTED: {e}");
            ExitCode::from(3)
        }
        Err(e) => {
            // The library errors already carry their causes in their messages.
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Inspect { model, import }) => {
            let model = load_and_prepare(&model, &import, &[], &PrintOptions::default())?;
            let mut out = Summary::of(&model).to_string();
            // A model the plan cannot handle (yet) still gets its summary.
            match onnx_mlc_plan::plan(&model, &PlanOptions::default()) {
                Ok(plan) => out += &format!("plan:       {plan}\n"),
                Err(e) => out += &format!("plan:       not available: {e}\n"),
            }
            std::io::stdout().write_all(out.as_bytes())?;
            Ok(())
        }
        None => compile(cli.compile),
    }
}

fn compile(args: CompileArgs) -> anyhow::Result<()> {
    if args.list_passes {
        for p in passes::PASSES {
            println!("{:<14} {}", p.name, p.summary);
        }
        return Ok(());
    }
    let Some(path) = &args.model else {
        anyhow::bail!("no model given (see `onnx-mlc --help`)");
    };
    for name in &args.print_ir_after {
        if name != "all" && passes::pass(name).is_none() {
            anyhow::bail!("unknown pass '{name}' for --print-ir-after (see --list-passes)");
        }
    }
    let print = PrintOptions {
        elide_constants_above: (!args.no_elide).then_some(args.elide_constants),
        ..PrintOptions::default()
    };
    let emit = args
        .emit
        .unwrap_or_else(|| default_emit(args.output.as_deref()));
    if args.external_data && emit != Emit::OnnxProto {
        anyhow::bail!("--external-data applies to --emit onnx-proto only");
    }
    if matches!(
        emit,
        Emit::Asm | Emit::Obj | Emit::Llvm | Emit::Lib | Emit::Header
    ) {
        return compile_native(path, emit, &args);
    }
    let model = load_and_prepare(path, &args.import, &args.print_ir_after, &print)?;
    let text = match (emit, &args.output) {
        (Emit::Onnx, _) => onnx_mlc_dialect::print::print_model(&model, &print),
        (Emit::OnnxProto, Some(out)) => {
            let options = ExportOptions {
                external_data: args.external_data.then(|| ExternalData::beside(out)),
                ..ExportOptions::default()
            };
            save_model(&model, out, &options)?;
            return Ok(());
        }
        (Emit::OnnxProto, None) => unreachable!("clap requires -o for --emit onnx-proto"),
        (Emit::Asm | Emit::Obj | Emit::Llvm | Emit::Lib | Emit::Header, _) => {
            unreachable!("compiled by compile_native")
        }
    };
    match &args.output {
        Some(out) => std::fs::write(out, text)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(())
}

/// The output `-o` implies when `--emit` is not given: a library for `*.so`.
fn default_emit(output: Option<&Path>) -> Emit {
    if output.is_some_and(|o| o.extension().is_some_and(|e| e == "so")) {
        Emit::Lib
    } else {
        Emit::Onnx
    }
}

/// `--emit asm|obj|llvm|lib|header`: native code through the whole pipeline, or the header.
fn compile_native(path: &Path, emit: Emit, args: &CompileArgs) -> anyhow::Result<()> {
    use onnx_mlc::{AotOutput, Artifact, Engine, LibraryOptions, TargetSpec, WeightsPolicy};
    let options = ImportOptions {
        strict_names: args.import.strict,
        ..ImportOptions::default()
    };
    let imported = load_model(path, &options)?;
    for w in &imported.warnings {
        eprintln!("warning: {w}");
    }
    let model = imported.model;
    let is_library = |o: &Path| o.extension().is_some_and(|e| e == "so");
    if emit == Emit::Header && !args.output.as_deref().is_some_and(is_library) {
        return write_output(
            args.output.as_deref(),
            onnx_mlc::emit_header(&model)?.as_bytes(),
        );
    }
    let t = &args.target;
    let target = TargetSpec::parse(t.target.as_deref(), t.cpu.as_deref(), t.features.as_deref())?;
    let kind = match emit {
        Emit::Asm => AotOutput::Code(Artifact::Assembly),
        Emit::Obj => AotOutput::Code(Artifact::Object),
        Emit::Llvm => AotOutput::Code(Artifact::LlvmIr),
        _ => AotOutput::Library,
    };
    // Text goes to standard output when there is no -o: through a temporary file.
    let temp = std::env::temp_dir().join(format!("onnx-mlc-{}.out", std::process::id()));
    let output = args.output.clone().unwrap_or_else(|| temp.clone());
    let weights = if t.weights_file {
        WeightsPolicy::File
    } else {
        WeightsPolicy::default()
    };
    let report = Engine::compile_library(
        &model,
        &LibraryOptions {
            target,
            output: output.clone(),
            kind,
            weights,
        },
    )?;
    if args.output.is_none() {
        // Text only: a side file of weights has no use without the code's file.
        let text = std::fs::read(&temp);
        let _ = std::fs::remove_file(&temp);
        if let Some(w) = &report.weights_file {
            let _ = std::fs::remove_file(w);
        }
        std::io::stdout().write_all(&text?)?;
    } else if let Some(w) = &report.weights_file {
        eprintln!("weights: {} ({} bytes)", w.display(), report.weights_bytes);
    }
    if emit == Emit::Header {
        let header = output.with_extension("h");
        write_output(Some(&header), onnx_mlc::emit_header(&model)?.as_bytes())?;
    }
    Ok(())
}

/// Writes `bytes` to `output`, or to standard output.
fn write_output(output: Option<&Path>, bytes: &[u8]) -> anyhow::Result<()> {
    match output {
        Some(out) => std::fs::write(out, bytes)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display())),
        None => Ok(std::io::stdout().write_all(bytes)?),
    }
}

/// Imports a model and runs the dialect pipeline, printing the IR (to standard error) after the
/// passes named in `print_after`.
fn load_and_prepare(
    path: &Path,
    import: &ImportArgs,
    print_after: &[String],
    print: &PrintOptions,
) -> anyhow::Result<Model> {
    let options = ImportOptions {
        strict_names: import.strict,
        ..ImportOptions::default()
    };
    let imported = load_model(path, &options)?;
    for w in &imported.warnings {
        eprintln!("warning: {w}");
    }
    let mut model = imported.model;
    let all = print_after.iter().any(|p| p == "all");
    for name in passes::DEFAULT_PIPELINE {
        let pass: &Pass = passes::pass(name).expect("pipeline passes are registered");
        (pass.run)(&mut model)?;
        if all || print_after.iter().any(|p| p == name) {
            eprintln!("// -----// IR after {name} //----- //");
            eprint!("{}", onnx_mlc_dialect::print::print_model(&model, print));
        }
    }
    Ok(model)
}
