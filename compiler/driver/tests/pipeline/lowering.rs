//! File tests of the lowering: every `tests/lowering/**/*.mlir`, a model
//! in the dialect's text form taken through [`Engine::emit`] to an MLIR
//! stage, whose module is matched against the file's `CHECK` lines (the
//! runner of `onnx_mlc_tests::filetest`, shared by every stage's folder).
//!
//! ```text
//! // RUN: linalg [--rules=<set>,…] [--target=<arch>] [--features=<llvm features>]
//! ```
//!
//! The stage is `linalg` (the kernels as linalg/tensor/arith ops), `affine`
//! (after the schedules: loops and vectors) or `plan`/`llvm-mlir`. The
//! model goes through the front end first (the dialect pipeline; the
//! optimizer only with `--rules`, so that the ops lowered are the ones
//! written). The target is x86-64 with AVX-512 unless the RUN line says
//! otherwise (`--target=aarch64`; `--features=+avx2`): the schedules'
//! tiles and vectors depend on it, not on the machine running the test.
//!
//! `ONNX_MLC_BLESS=1 cargo test -p onnx-mlc --test pipeline lowering`
//! rewrites the expectations of failing files with the outline of the
//! module (`filetest::outline`): review them and keep what the file is
//! about.

use onnx_mlc::{CompileOptions, Engine, OptimizeOptions, PrintPoint, Stage, StageIr, TargetSpec};
use onnx_mlc_dialect::parse_model;
use onnx_mlc_tests::filetest::{self, Bless};
use onnx_mlc_tests::repo_root;

/// What a file's `RUN` line asks for.
struct Run {
    stage: Stage,
    options: CompileOptions,
}

/// The stages a lowering file test may stop after.
const STAGES: [Stage; 4] = [Stage::Plan, Stage::Linalg, Stage::Affine, Stage::LlvmMlir];

#[test]
fn lowering_files() {
    filetest::Stage {
        name: "lowering",
        folder: repo_root().join("tests").join("lowering"),
        parse_run: &parse_run,
        execute: &execute,
        bless: Bless::Outline,
    }
    .run_all();
}

/// The files of `ops/` that hold what several families share rather than
/// a family (their tests are the families': `image`'s, kernels run image
/// by image, are `conv/convolution-batch*.mlir`).
const SHARED: &[&str] = &[
    "common",
    "image",
    "operand",
    "sample",
    "conv/window",
    "reduce/temporary",
];

/// Every op family file (`compiler/lowering/src/ops/<family>[/<sub>].rs`)
/// has a file test named after it: `tests/lowering/<family>[/<sub>][-…].mlir`.
#[test]
fn every_op_family_file_has_a_file_test() {
    let ops = repo_root().join("compiler/lowering/src/ops");
    let missing = filetest::uncovered(&ops, &repo_root().join("tests/lowering"), SHARED);
    assert!(
        missing.is_empty(),
        "op family files without a file test in tests/lowering/: {missing:?}"
    );
}

fn parse_run(run: &str) -> Result<Run, String> {
    let mut words = run.split_whitespace();
    let stage = words
        .next()
        .and_then(Stage::from_name)
        .filter(|s| STAGES.contains(s))
        .ok_or_else(|| {
            let names: Vec<&str> = STAGES.iter().map(|s| s.name()).collect();
            format!("the RUN line starts with a stage: {}", names.join(", "))
        })?;
    let (mut target, mut features) = (Some("x86_64"), Some("+avx512f"));
    let mut optimizer = OptimizeOptions {
        enabled: false,
        ..OptimizeOptions::default()
    };
    for word in words {
        let (flag, value) = word
            .split_once('=')
            .ok_or_else(|| format!("'{word}': options are --name=value"))?;
        match flag {
            "--rules" => {
                optimizer.rule_sets =
                    OptimizeOptions::parse_rule_sets(value).map_err(|e| e.to_string())?;
                optimizer.enabled = true;
            }
            "--target" => {
                target = Some(value);
                features = None;
            }
            "--features" => features = Some(value),
            _ => {
                return Err(format!(
                    "unknown option '{flag}' (--rules, --target, --features)"
                ))
            }
        }
    }
    let target = TargetSpec::parse(target, Some("generic"), features).map_err(|e| e.to_string())?;
    Ok(Run {
        stage,
        options: CompileOptions {
            target,
            optimizer,
            ..CompileOptions::default()
        },
    })
}

/// The module after the file's stage, or the error.
fn execute(run: &Run, source: &str) -> Result<String, String> {
    let model = parse_model(source).map_err(|e| e.to_string())?;
    let mut output = None;
    let point = PrintPoint::Stage(run.stage);
    Engine::emit(&model, &run.options, &[point], &mut |_, ir| {
        if let StageIr::Text(text) = ir {
            output = Some(text);
        }
    })
    .map_err(|e| e.to_string())?;
    output.ok_or_else(|| format!("nothing printed after {}", run.stage.name()))
}
