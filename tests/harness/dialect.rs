//! Text-IR file tests of the onnx dialect's passes (the `onnx` stage):
//! every `tests/dialect/**/*.mlir`, run by `onnx_mlc_tests::filetest`.
//!
//! ```text
//! // RUN: infer-shapes,roundtrip
//! // ERROR: 3:14: use of undefined value %x      (negative tests only)
//! onnx.model {…}
//! …
//! // CHECK: %y = "onnx.Relu"(%x)
//! // CHECK-NEXT: onnx.return %y
//! ```
//!
//! The file is parsed, the `RUN` passes run in order (names from
//! `onnx_mlc_dialect::passes`, plus `roundtrip`: print, parse and print
//! again, the prints must agree; `export`: export to ONNX and import again;
//! `print`: nothing; and `partition`, last: the output is the host program
//! `onnx_mlc_program::partition` cuts the model into), and the printed
//! model is matched against the `CHECK` lines. With `ERROR`, parsing or a
//! pass must fail with a message containing the given text instead.
//!
//! `ONNX_MLC_BLESS=1 cargo test -p onnx-mlc-tests --test suite dialect`
//! rewrites the expectations of failing files from the actual result.

use onnx_mlc_dialect::{parse_model, passes, PrintOptions};
use onnx_mlc_tests::filetest::{Bless, Stage};
use onnx_mlc_tests::onnx::through_onnx;
use onnx_mlc_tests::repo_root;
use onnx_mlc_tests::text::reparse;

/// `RUN:` names that are not dialect passes.
const TEXT_PASSES: [&str; 4] = ["roundtrip", "export", "print", "partition"];

#[test]
fn dialect_files() {
    Stage {
        name: "dialect",
        folder: repo_root().join("tests").join("dialect"),
        parse_run: &parse_run,
        execute: &|passes: &Vec<String>, source: &str| execute(passes, source),
        bless: Bless::Full,
    }
    .run_all();
}

/// The passes of a `RUN` line: names separated by commas.
fn parse_run(run: &str) -> Result<Vec<String>, String> {
    let passes: Vec<String> = run
        .split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    for p in &passes {
        if !TEXT_PASSES.contains(&p.as_str()) && passes::pass(p).is_none() {
            let known: Vec<&str> = TEXT_PASSES
                .iter()
                .copied()
                .chain(passes::PASSES.iter().map(|p| p.name))
                .collect();
            return Err(format!(
                "unknown pass '{p}' in the RUN line (known: {})",
                known.join(", ")
            ));
        }
    }
    Ok(passes)
}

/// Parses the file and runs the passes: the printed model, or the error.
fn execute(passes: &[String], source: &str) -> Result<String, String> {
    let mut model = parse_model(source).map_err(|e| e.to_string())?;
    for name in passes {
        match name.as_str() {
            "print" => {}
            "roundtrip" => {
                model = reparse(&model, &PrintOptions::default())
                    .map_err(|e| format!("roundtrip: {e}"))?
            }
            "export" => model = through_onnx(&model)?,
            "partition" => {
                return match onnx_mlc_program::partition(&model) {
                    Ok(Some(partition)) => Ok(partition.to_string()),
                    Ok(None) => Ok("no host steps\n".into()),
                    Err(e) => Err(e.to_string()),
                }
            }
            _ => {
                let pass = passes::pass(name).expect("checked by parse_run");
                (pass.run)(&mut model).map_err(|e| format!("{name}: {e}"))?;
            }
        }
    }
    Ok(model.to_string())
}
