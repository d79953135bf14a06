//! Optimizes an ONNX model file and prints the optimizer's report:
//! `cargo run --release -p onnx-mlc-optimizer --example optimize_model -- model.onnx [--rules=…] [--egraph-limits=…] [--tree] [--dot=before.dot,after.dot] [--print]`
//!
//! The model goes through the dialect's default pipeline first (verify,
//! shape inference, shape folding, dead code removal), as in the compiler.

use std::path::Path;
use std::process::ExitCode;

use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_optimizer::{optimize, to_dot, Extractor, Limits, OptimizeOptions};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: optimize_model model.onnx [--rules=set,…] [--egraph-limits=…] [--tree] [--dot=before,after] [--print]");
        return ExitCode::FAILURE;
    };
    let mut options = OptimizeOptions::default();
    let mut dot = None;
    for a in &args {
        let parsed = if let Some(r) = a.strip_prefix("--rules=") {
            OptimizeOptions::parse_rule_sets(r).map(|s| options.rule_sets = s)
        } else if let Some(l) = a.strip_prefix("--egraph-limits=") {
            Limits::parse(l).map(|l| options.limits = l)
        } else if a == "--tree" {
            options.extractor = Extractor::Tree;
            Ok(())
        } else if a == "--no-egraph" {
            options.enabled = false;
            Ok(())
        } else if let Some(d) = a.strip_prefix("--dot=") {
            dot = d
                .split_once(',')
                .map(|(b, a)| (b.to_string(), a.to_string()));
            Ok(())
        } else {
            Ok(())
        };
        if let Err(e) = parsed {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    let imported = match onnx_mlc_import::load_model(Path::new(path), &Default::default()) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut model = imported.model;
    for name in DEFAULT_PIPELINE {
        if let Err(e) = (pass(name).expect("pipeline passes exist").run)(&mut model) {
            eprintln!("error: {name}: {e}");
            return ExitCode::FAILURE;
        }
    }
    let before = to_dot(&model);
    match optimize(&mut model, &options) {
        Ok(report) => print!("{report}"),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    if let Some((b, a)) = dot {
        std::fs::write(b, before).expect("write the dot file");
        std::fs::write(a, to_dot(&model)).expect("write the dot file");
    }
    if args.iter().any(|a| a == "--print") {
        let opts = onnx_mlc_dialect::PrintOptions {
            elide_constants_above: Some(16),
            ..Default::default()
        };
        print!("{}", onnx_mlc_dialect::print_model(&model, &opts));
    }
    ExitCode::SUCCESS
}
