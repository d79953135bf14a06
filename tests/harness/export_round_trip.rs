//! The exporter against the importer and against ONNX's own tools.
//!
//! - Round trip: every backend model and every real model is imported,
//!   exported, encoded, decoded and imported again; both imports must print
//!   the same text form. The same holds after the default pipeline (types
//!   inferred for every value, shapes folded), up to what the export
//!   documents it changes: the names it gives unnamed values, and symbolic
//!   dims that are polynomials, which come back as `dim_param`s named by
//!   the polynomial (`("batch"*"seq")` becomes `"batch*seq"`). The printed
//!   forms are compared with value names numbered in order of appearance
//!   and such polynomials spelled as names.
//! - ONNX's view: every backend model is exported, as imported and after
//!   the default pipeline, to a temporary folder, and
//!   `tests/scripts/check_exported.py` checks each exported model with
//!   `onnx.checker.check_model(full_check=True)` (which also checks the
//!   exported `value_info` against ONNX's strict shape inference) and runs
//!   it and the original under onnxruntime on the test data: the outputs
//!   must be identical. It runs in the repo's Python venv
//!   (`tools/setup.sh`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{print_model, Attr, Model, PrintOptions, TensorData};
use onnx_mlc_import::{load_model, save_model, ExportOptions, ImportOptions};
use onnx_mlc_tests::diff::line_diff;
use onnx_mlc_tests::onnx::through_onnx;
use regex::{Captures, Regex};

use crate::import::backend::{case_name, cases, Case, VERIFY_DISAGREEMENTS};

/// The printed form up to the export's documented changes: value names
/// replaced by their number in order of appearance (`%v0`, `%v1`, …), and
/// polynomial dims by the `dim_param` the export names them with.
fn canonical(text: &str) -> String {
    let string = r#""(?:[^"\\]|\\.)*""#;
    let value = Regex::new(&format!(r"%(?:[A-Za-z_][A-Za-z0-9_.$]*|{string}|[0-9]+)"))
        .expect("a valid regex");
    let term = format!("(?:{string}|[0-9*+-])");
    let polynomial = Regex::new(&format!(r"\({term}*[*+-]{term}*\)")).expect("a valid regex");
    let mut numbers: HashMap<String, usize> = HashMap::new();
    let text = value.replace_all(text, |c: &Captures| {
        let next = numbers.len();
        format!("%v{}", numbers.entry(c[0].to_string()).or_insert(next))
    });
    polynomial
        .replace_all(&text, |c: &Captures| {
            let inner = &c[0][1..c[0].len() - 1];
            format!("\"{}\"", inner.replace('"', ""))
        })
        .into_owned()
}

/// Exports, re-imports and compares the printed forms (with `options`;
/// through [`canonical`] when `up_to_names`).
fn round_trip(model: &Model, options: &PrintOptions, up_to_names: bool) -> Result<Model, String> {
    let again = through_onnx(model)?;
    let (mut before, mut after) = (print_model(model, options), print_model(&again, options));
    if up_to_names {
        (before, after) = (canonical(&before), canonical(&after));
    }
    if before != after {
        return Err(format!(
            "the re-imported model prints differently:\n{}",
            line_diff(&before, &after)
        ));
    }
    Ok(again)
}

/// Runs the default pipeline.
fn run_pipeline(model: &mut Model) -> Result<(), String> {
    for name in DEFAULT_PIPELINE {
        (pass(name).expect("registered").run)(model).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// The `suite/case` name of a backend case.
fn id(case: &Case) -> String {
    format!("{}/{}", case.suite, case_name(case))
}

/// The backend case as imported, or after the pipeline; `None` for the
/// cases whose pipeline the verifier rejects (`VERIFY_DISAGREEMENTS`).
fn backend_model(case: &Case, after_pipeline: bool) -> Option<Model> {
    let name = id(case);
    let mut model = load_model(&case.model, &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{name}: import: {e}"))
        .model;
    if after_pipeline && VERIFY_DISAGREEMENTS.iter().any(|(c, _)| *c == name) {
        return None;
    }
    if after_pipeline {
        run_pipeline(&mut model).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    Some(model)
}

fn backend_round_trips(after_pipeline: bool) {
    let Some(root) = onnx_mlc_tests::backend_dir() else {
        println!("skipped: no ONNX backend test data (set ONNX_MLC_BACKEND_DIR)");
        return;
    };
    let (mut ok, mut failures) = (0, vec![]);
    for case in cases(&root) {
        let Some(model) = backend_model(&case, after_pipeline) else {
            continue;
        };
        match round_trip(&model, &PrintOptions::default(), after_pipeline) {
            Ok(_) => ok += 1,
            Err(e) => failures.push(format!("{}: {e}", id(&case))),
        }
    }
    println!("{ok} backend models round-trip through export");
    assert!(
        failures.is_empty(),
        "{} models do not round-trip:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn backend_models_round_trip_through_export() {
    backend_round_trips(false);
}

#[test]
fn backend_models_round_trip_through_export_after_the_pipeline() {
    backend_round_trips(true);
}

/// Every tensor of a model (input defaults and attributes), in order.
fn tensors(model: &Model) -> Vec<&TensorData> {
    let ir = &model.ir;
    let mut out = vec![];
    for top in model.top_regions() {
        for r in ir.regions_within(top) {
            out.extend(ir.region(r).args.iter().filter_map(|a| a.default.as_ref()));
            for &op in &ir.region(r).ops {
                for (_, attr) in ir.op(op).attrs.iter() {
                    match attr {
                        Attr::Tensor(t) => out.push(t),
                        Attr::Tensors(ts) => out.extend(ts),
                        Attr::SparseTensor(s) => out.extend([&s.values, &s.indices]),
                        _ => {}
                    }
                }
            }
        }
    }
    out
}

#[test]
fn real_models_round_trip_through_export() {
    let dir = onnx_mlc_tests::cache_dir().join("models");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("model.onnx"))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    if paths.is_empty() {
        println!(
            "skipped: no real models in {} (run tools/setup.sh)",
            dir.display()
        );
        return;
    }
    // Weights print elided (hundreds of megabytes of hex otherwise) and
    // are compared as data.
    let elided = PrintOptions {
        elide_constants_above: Some(16),
        ..PrintOptions::default()
    };
    for path in paths {
        let at = path.display();
        let mut model = load_model(&path, &ImportOptions::default())
            .unwrap_or_else(|e| panic!("{at}: {e}"))
            .model;
        let again = round_trip(&model, &elided, false).unwrap_or_else(|e| panic!("{at}: {e}"));
        let (before, after) = (tensors(&model), tensors(&again));
        let count = before.len();
        assert_eq!(count, after.len(), "{at}");
        let same = before.iter().zip(&after).all(|(a, b)| a == b);
        assert!(same, "{at}: a tensor's data changed");
        run_pipeline(&mut model).unwrap_or_else(|e| panic!("{at}: {e}"));
        round_trip(&model, &elided, true)
            .unwrap_or_else(|e| panic!("{at}: after the pipeline: {e}"));
        println!("{at}: round-trips ({count} tensors)");
    }
}

/// Writes each backend model exported, as imported to
/// `out/imported/<suite>/<case>/model.onnx` and after the pipeline to
/// `out/pipeline/…`, and a manifest for the checking script: one line per
/// exported model with its name, original model, exported model and test
/// data sets (each `folder|file prefix`), tab-separated. Returns how many
/// models were exported.
fn export_backend_models(root: &Path, out: &Path) -> usize {
    let mut manifest = String::new();
    let mut count = 0;
    for case in cases(root) {
        for (variant, after_pipeline) in [("imported", false), ("pipeline", true)] {
            let Some(model) = backend_model(&case, after_pipeline) else {
                continue;
            };
            let name = format!("{variant}/{}", id(&case));
            let folder = out.join(&name);
            std::fs::create_dir_all(&folder).expect("the temporary folder is writable");
            let exported = folder.join("model.onnx");
            save_model(&model, &exported, &ExportOptions::default())
                .unwrap_or_else(|e| panic!("{name}: export: {e}"));
            let sets: Vec<String> = case
                .sets
                .iter()
                .map(|(dir, prefix)| format!("{}|{prefix}", dir.display()))
                .collect();
            manifest += &format!(
                "{name}\t{}\t{}\t{}\n",
                case.model.display(),
                exported.display(),
                sets.join("\t")
            );
            count += 1;
        }
    }
    std::fs::write(out.join("manifest.tsv"), manifest).expect("the manifest is written");
    count
}

#[test]
fn exported_backend_models_pass_the_checker_and_run_like_the_originals() {
    let Some(root) = onnx_mlc_tests::backend_dir() else {
        println!("skipped: no ONNX backend test data (set ONNX_MLC_BACKEND_DIR)");
        return;
    };
    let Some(python) = onnx_mlc_tests::venv_python() else {
        println!("skipped: no Python venv at .venv (run tools/setup.sh)");
        return;
    };
    let out = std::env::temp_dir().join(format!("onnx-mlc-export-{}", std::process::id()));
    let count = export_backend_models(&root, &out);
    let script = onnx_mlc_tests::repo_root().join("tests/scripts/check_exported.py");
    let run = Command::new(&python)
        .arg(&script)
        .arg(&out)
        .output()
        .expect("the checking script runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    println!("{stdout}");
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        run.status.success(),
        "{} of {count} exported models fail (see above):\n{}",
        stdout
            .lines()
            .find_map(|l| l.strip_prefix("failures: "))
            .unwrap_or("some"),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains(&format!("checked {count} models")),
        "the script did not check every model"
    );
}
