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

const EXAMPLES: &str = "\
Examples:
  onnx-mlc model.onnx --emit onnx                    print the verified, shape-inferred onnx dialect
  onnx-mlc model.onnx --emit onnx --print-ir-after=infer-shapes
  onnx-mlc model.onnx --emit onnx -o model.mlir      write it to a file
  onnx-mlc model.onnx --emit onnx-proto -o out.onnx  write it back as an ONNX model
  onnx-mlc inspect model.onnx                        summary: opsets, inputs/outputs, op histogram, weights
  onnx-mlc --list-passes                             the passes --print-ir-after accepts

Exit codes: 0 success, 1 the model was rejected (one line on stderr naming the node), 2 usage error.";

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
    /// parameter count and bytes, metadata.
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
}

#[derive(clap::Args, Debug)]
struct CompileArgs {
    /// The model (.onnx) to compile.
    model: Option<PathBuf>,
    /// What to produce.
    #[arg(long, value_enum, default_value = "onnx")]
    emit: Emit,
    /// Write the output here instead of standard output.
    #[arg(short, long, required_if_eq("emit", "onnx-proto"))]
    output: Option<PathBuf>,
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
            std::io::stdout().write_all(Summary::of(&model).to_string().as_bytes())?;
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
    if args.external_data && args.emit != Emit::OnnxProto {
        anyhow::bail!("--external-data applies to --emit onnx-proto only");
    }
    let model = load_and_prepare(path, &args.import, &args.print_ir_after, &print)?;
    let text = match (args.emit, &args.output) {
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
    };
    match &args.output {
        Some(out) => std::fs::write(out, text)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(())
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
