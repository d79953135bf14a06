//! Imports every model of the ONNX backend test data, verifies it, checks
//! that it survives the text round trip, and reads every test value
//! (`input_K.pb`, `output_K.pb`) with the type the model declares for it,
//! checking the value against that declaration.

use onnx_mlc_dialect::verify::verify_model;
use onnx_mlc_dialect::{Dim, Model, Type};
use onnx_mlc_import::{load_model, read_value, ImportOptions, TestValue};
pub(crate) use onnx_mlc_tests::backend::{case_name, cases, Case};
use onnx_mlc_tests::text::check_text_round_trip;

/// Models that import but that the verifier rejects, with the rule it
/// names. Each is a disagreement between the verifier and ONNX to settle
/// in the verifier; the test fails when one of them starts to verify, so
/// the list stays current.
pub(crate) const VERIFY_DISAGREEMENTS: &[(&str, &str)] = &[];

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
