//! Imports every model of the ONNX backend test data, verifies it, checks
//! that it survives the text round trip, and reads every test value
//! (`input_K.pb`, `output_K.pb`) with the type the model declares for it,
//! checking the value against that declaration.

use std::path::{Path, PathBuf};

use onnx_mlc_dialect::verify::verify_model;
use onnx_mlc_dialect::{Dim, Model, Type};
use onnx_mlc_import::{load_model, read_value, ImportOptions, TestValue};
use onnx_mlc_tests::text::check_text_round_trip;

/// Models that import but that the verifier rejects, with the rule it
/// names. Each is a disagreement between the verifier and ONNX to settle
/// in the verifier; the test fails when one of them starts to verify, so
/// the list stays current.
pub(crate) const VERIFY_DISAGREEMENTS: &[(&str, &str)] = &[];

/// One model and where its test values are: `(folder, file prefix)` per
/// test data set, values being `{folder}/{prefix}{input|output}_{K}.pb`.
pub(crate) struct Case {
    pub(crate) suite: String,
    pub(crate) model: PathBuf,
    pub(crate) sets: Vec<(PathBuf, String)>,
}

/// The cases under `root`, sorted: folders holding `model.onnx` and
/// `test_data_set_N/`, and (in `light/`) files `X.onnx` with `X_output_K.pb`
/// beside them.
pub(crate) fn cases(root: &Path) -> Vec<Case> {
    let mut out = vec![];
    let sorted = |dir: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        v.sort();
        v
    };
    for suite in sorted(root) {
        let name = suite.file_name().unwrap().to_string_lossy().to_string();
        for entry in sorted(&suite) {
            let file = entry.file_name().unwrap().to_string_lossy().to_string();
            if entry.join("model.onnx").is_file() {
                let sets = sorted(&entry)
                    .into_iter()
                    .filter(|p| {
                        p.is_dir()
                            && p.file_name()
                                .unwrap()
                                .to_string_lossy()
                                .starts_with("test_data_set_")
                    })
                    .map(|p| (p, String::new()))
                    .collect();
                out.push(Case {
                    suite: name.clone(),
                    model: entry.join("model.onnx"),
                    sets,
                });
            } else if let Some(stem) = file.strip_suffix(".onnx") {
                out.push(Case {
                    suite: name.clone(),
                    model: entry.clone(),
                    sets: vec![(suite.clone(), format!("{stem}_"))],
                });
            }
        }
    }
    out
}

/// The case's name: its folder, or the model file's stem in `light/`.
pub(crate) fn case_name(case: &Case) -> String {
    let model = match case.model.file_name().and_then(|n| n.to_str()) {
        Some("model.onnx") => case.model.parent().unwrap_or(&case.model),
        _ => &case.model,
    };
    model
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string()
}

/// Whether a test value agrees with the declared type: same kind, and for
/// tensors the same element type and every static dim.
fn conforms(value: &TestValue, ty: &Type) -> bool {
    match (value, ty) {
        (_, Type::Unknown) => true,
        (TestValue::Tensor(t), Type::Tensor(tt)) => {
            t.elem == tt.elem
                && tt.shape.as_ref().is_none_or(|dims| {
                    dims.len() == t.dims.len()
                        && dims
                            .iter()
                            .zip(&t.dims)
                            .all(|(d, &n)| !matches!(d, Dim::Known(k) if *k != n))
                })
        }
        (TestValue::SparseTensor(_), Type::SparseTensor(_)) => true,
        (TestValue::Sequence(items), Type::Sequence(elem)) => {
            items.iter().all(|v| conforms(v, elem))
        }
        (TestValue::Map(pairs), Type::Map(_, v)) => pairs.iter().all(|(_, x)| conforms(x, v)),
        (TestValue::Optional(None), Type::Optional(_)) => true,
        (TestValue::Optional(Some(v)), Type::Optional(t)) => conforms(v, t),
        _ => false,
    }
}

/// Reads the test values of a case; returns how many there were.
fn read_test_data(case: &Case, model: &Model) -> Result<usize, String> {
    let region = model.ir.region(model.graph);
    let inputs: Vec<&Type> = region.args.iter().map(|a| model.ir.ty(a.value)).collect();
    let outputs: Vec<&Type> = region
        .outputs
        .iter()
        .map(|o| model.ir.ty(o.value))
        .collect();
    let mut count = 0;
    for (folder, file_prefix) in &case.sets {
        for (kind, types) in [("input", &inputs), ("output", &outputs)] {
            for (k, ty) in types.iter().enumerate() {
                let path = folder.join(format!("{file_prefix}{kind}_{k}.pb"));
                if !path.exists() {
                    continue;
                }
                let value = read_value(&path, ty).map_err(|e| e.to_string())?;
                if !conforms(&value, ty) {
                    return Err(format!(
                        "{}: value does not match the declared type {ty}",
                        path.display()
                    ));
                }
                count += 1;
            }
        }
    }
    Ok(count)
}

#[test]
fn every_backend_model_imports() {
    let Some(root) = onnx_mlc_tests::backend_dir() else {
        println!("skipped: no ONNX backend test data (set ONNX_MLC_BACKEND_DIR)");
        return;
    };
    let mut failures = vec![];
    let mut per_suite: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let mut values = 0;
    for case in cases(&root) {
        let tally = per_suite.entry(case.suite.clone()).or_default();
        tally.1 += 1;
        let result = load_model(&case.model, &ImportOptions::default())
            .map_err(|e| e.to_string())
            .and_then(|imported| {
                let id = format!("{}/{}", case.suite, case_name(&case));
                let expected = VERIFY_DISAGREEMENTS.iter().find(|(c, _)| *c == id);
                match (verify_model(&imported.model), expected) {
                    (Ok(()), None) => {}
                    (Err(e), Some((_, rule))) if e.to_string().starts_with(rule) => {}
                    (Ok(()), Some(_)) => {
                        return Err("verifies now: remove it from VERIFY_DISAGREEMENTS".into())
                    }
                    (Err(e), _) => return Err(format!("verify: {e}")),
                }
                check_text_round_trip(&imported.model).map_err(|e| format!("text: {e}"))?;
                read_test_data(&case, &imported.model)
            });
        match result {
            Ok(n) => {
                tally.0 += 1;
                values += n;
            }
            Err(e) => failures.push(format!("{}: {e}", case.model.display())),
        }
    }
    for (suite, (ok, total)) in &per_suite {
        println!("{suite}: {ok}/{total} models import, verify and round-trip");
    }
    println!("{values} test values read");
    println!(
        "{} known verifier disagreements (VERIFY_DISAGREEMENTS)",
        VERIFY_DISAGREEMENTS.len()
    );
    assert!(
        failures.is_empty(),
        "{} models fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
