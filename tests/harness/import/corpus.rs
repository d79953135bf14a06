//! The hostile-model corpus (`tests/hostile/`, see its README) against the
//! importer: every case the README assigns to the `decode` or `import`
//! stage must be rejected by `load_model` (a decode error for `decode`),
//! with an error, never a panic; every case of a later stage (`verify`,
//! `infer`) must import, so that its own stage gets to reject it.

use onnx_mlc_import::{load_model, ImportError, ImportOptions};
use onnx_mlc_tests::repo_root;

/// Cases whose import result differs from the README's stage, and why.
/// The test fails when one of them starts to agree, so the list stays
/// current.
const STAGE_DISAGREEMENTS: &[(&str, &str)] = &[];

/// `(file, stage)` for each row of the README's table.
fn cases(readme: &str) -> Vec<(String, String)> {
    readme
        .lines()
        .filter_map(|line| {
            let mut cells = line.strip_prefix("| `")?.split('|');
            let file = cells.next()?.trim().trim_end_matches('`').to_string();
            let stage = cells.next()?.trim().to_string();
            Some((file, stage))
        })
        .collect()
}

#[test]
fn hostile_models_fail_at_their_stage() {
    let dir = repo_root().join("tests/hostile");
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("tests/hostile/README.md");
    let cases = cases(&readme);
    assert!(cases.len() > 40, "the README lists the cases");
    let mut wrong = vec![];
    for (file, stage) in &cases {
        let result = load_model(&dir.join(file), &ImportOptions::default());
        let disagreement = STAGE_DISAGREEMENTS.iter().find(|(f, _)| f == file);
        let outcome = match (stage.as_str(), &result) {
            (_, Err(e)) if disagreement.is_some_and(|(_, m)| e.to_string().contains(m)) => Ok(()),
            (_, _) if disagreement.is_some() => {
                Err("agrees now: remove it from STAGE_DISAGREEMENTS".to_string())
            }
            ("decode", Err(ImportError::Decode { .. })) => Ok(()),
            ("import" | "decode/import", Err(_)) => Ok(()),
            ("verify" | "infer", Ok(_)) => Ok(()),
            (_, Ok(_)) => Err("imports".to_string()),
            (_, Err(e)) => Err(format!("rejected: {e}")),
        };
        if let Err(why) = outcome {
            wrong.push(format!("{file} (stage {stage}): {why}"));
        }
    }
    println!(
        "{} hostile models checked against the importer",
        cases.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
