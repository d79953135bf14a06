//! The ONNX backend test data as cases: each a model and the folders of
//! its test values, whatever the layout of its suite (`node/`, `simple/`,
//! … keep `model.onnx` and `test_data_set_N/` in a folder per case;
//! `light/` keeps `X.onnx` and `X_output_K.pb` side by side, with no
//! inputs: runners generate them).

use std::path::{Path, PathBuf};

/// One model and where its test values are: `(folder, file prefix)` per
/// test data set, values being `{folder}/{prefix}{input|output}_{K}.pb`.
pub struct Case {
    /// The suite (top-level folder): `node`, `simple`, `light`, ….
    pub suite: String,
    /// The model file.
    pub model: PathBuf,
    /// Each test data set as (folder, file prefix).
    pub sets: Vec<(PathBuf, String)>,
}

/// The cases under `root`, sorted: folders holding `model.onnx` and
/// `test_data_set_N/`, and (in `light/`) files `X.onnx` with `X_output_K.pb`
/// beside them.
pub fn cases(root: &Path) -> Vec<Case> {
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
pub fn case_name(case: &Case) -> String {
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

/// The case's id, `suite/name`, as manifests and reports name it.
pub fn case_id(case: &Case) -> String {
    format!("{}/{}", case.suite, case_name(case))
}
