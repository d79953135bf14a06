//! File tests of the e-graph optimizer (the `opt` stage): every
//! `tests/opt/**/*.mlir`, run by `onnx_mlc_tests::filetest`, one folder per
//! rule set (`compiler/optimizer/src/rules/<set>.rs`).
//!
//! ```text
//! // RUN: opt --rules=<set>[,<set>…]
//! ```
//!
//! The model goes through the `onnx` stage (the default dialect pipeline)
//! and then the optimizer with only the named rule sets (default limits and
//! cost model), as `onnx-mlc --emit opt --rules=<sets>` does; the output is
//! the optimized model, constants of more than 16 elements elided. A file
//! shows the rewrites its set makes and the cases where a rule must not
//! fire (the graph then comes out as it went in).
//!
//! `ONNX_MLC_BLESS=1 cargo test -p onnx-mlc-tests --test suite opt::`
//! rewrites the expectations of failing files from the actual result.

use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{parse_model, print_model, PrintOptions};
use onnx_mlc_optimizer::{optimize, OptimizeOptions, RuleSet};
use onnx_mlc_tests::filetest::{self, Bless, Stage};
use onnx_mlc_tests::repo_root;

#[test]
fn opt_files() {
    Stage {
        name: "opt",
        folder: repo_root().join("tests").join("opt"),
        parse_run: &parse_run,
        execute: &|sets: &Vec<RuleSet>, source: &str| execute(sets, source),
        bless: Bless::Full,
    }
    .run_all();
}

/// Every rule set (`rules/<set>.rs`) has a folder of file tests
/// (`tests/opt/<set>/`).
#[test]
fn every_rule_set_has_file_tests() {
    let rules = repo_root().join("compiler/optimizer/src/rules");
    let missing = filetest::uncovered(&rules, &repo_root().join("tests/opt"), &["util"]);
    assert!(
        missing.is_empty(),
        "rule sets without a file test in tests/opt/: {missing:?}"
    );
}

/// The rule sets of a `RUN: opt --rules=<sets>` line.
fn parse_run(run: &str) -> Result<Vec<RuleSet>, String> {
    let usage = "the RUN line is 'opt --rules=<set>[,<set>…]'";
    let rules = match run.split_whitespace().collect::<Vec<_>>()[..] {
        ["opt", flag] => flag.strip_prefix("--rules=").ok_or(usage)?,
        _ => return Err(usage.into()),
    };
    OptimizeOptions::parse_rule_sets(rules).map_err(|e| e.to_string())
}

/// The model after the dialect pipeline and the optimizer.
fn execute(sets: &[RuleSet], source: &str) -> Result<String, String> {
    let mut model = parse_model(source).map_err(|e| e.to_string())?;
    for name in DEFAULT_PIPELINE {
        (pass(name).expect("a pipeline pass").run)(&mut model)
            .map_err(|e| format!("{name}: {e}"))?;
    }
    let options = OptimizeOptions {
        rule_sets: sets.to_vec(),
        ..OptimizeOptions::default()
    };
    optimize(&mut model, &options).map_err(|e| e.to_string())?;
    let print = PrintOptions {
        elide_constants_above: Some(16),
        ..PrintOptions::default()
    };
    Ok(print_model(&model, &print))
}
